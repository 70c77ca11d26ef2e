import { describe as group, expect, test } from 'vitest';
import { describe, variants } from './events.js';

// A slice of the catalogue, as internal/i18n/locales/en.json has it.
const en = {
  'ui.list.sep': ', ',
  'event.attack': 'Tonight the wolves attack seat {target}.',
  'event.attack.drawn': "The wolves' picks were tied; the draw chose seat {target}.",
  'event.attack_pick': 'Seat {seat} picks seat {target}.',
  'event.attack_pick.none': 'Seat {seat} picks nobody.',
  'event.check': 'Your check: seat {target} is {role}.',
  'event.check.wolf': 'Your check: seat {target} is a wolf.',
  'event.check.good': 'Your check: seat {target} is good.',
  'event.dawn': 'Day breaks. Last night seats {mask} died.',
  'event.dawn.none': 'Day breaks. Last night nobody died.',
  'event.death': 'Seat {seat} is dead: {cause}.',
  'event.extra_cards': 'The two extra cards: {role} and {value}.',
  'event.explode': 'Seat {seat} self-explodes.',
  'event.explode.target': 'Seat {seat} self-explodes and takes seat {target} along.',
  'event.explode.target.kept': 'Seat {seat} takes seat {target}; the campaign goes on.',
  'event.game_over': 'Game over. Winner: {camp}.',
  'event.game_over.draw': 'Game over: a draw.',
  'event.reveal': 'Seat {seat} shows the card: {role}.',
  'event.reveal.idiot': 'Seat {seat} shows the idiot card.',
  'event.sheriff': 'Seat {seat} is elected sheriff.',
  'event.sheriff.tie': 'The sheriff vote is tied: the badge is lost.',
  'event.step': 'Now: {step}.',
  'event.step.role': '{step}: {role}, your move.',
  'event.step.turn': "{step}: seat {seat}'s turn.",
  'event.vote_result': '{step}: seat {target} has the most votes.',
  'event.vote_result.tie': '{step}: seats {mask} are tied.',
  'event.vote_result.drawn': '{step}: seats {mask} are tied; the draw chose seat {target}.',
  'event.vote_result.candidates': '{step}: seats {mask} are the candidates.',
  'event.vote_result.none': '{step}: nobody received a vote.',
  'event.claim': 'Seat {seat} claims: I am {role}.',
  'event.claim.wolf': 'Seat {seat} claims: seat {target} is a wolf.',
  'event.task': 'Queued: {step} for seat {seat}.',
  'cause.exile': 'exiled',
  'camp.wolves': 'Wolves',
  'role.werewolf': 'werewolf',
  'role.seer': 'seer',
  'role.idiot': 'idiot',
  'role.witch': 'witch',
  'step.vote': 'Exile vote',
  'step.mob_vote': 'Angry mob vote',
  'step.speech': 'Speech',
  'step.night': 'Night actions',
  'step.last_words': 'Last words',
};

group('events in words', () => {
  test.each([
    [{ kind: 'attack', target: 5 }, 'Tonight the wolves attack seat 5.'],
    [{ kind: 'attack', target: 5, drawn: true }, "The wolves' picks were tied; the draw chose seat 5."],
    [{ kind: 'attack_pick', seat: 2, target: 5 }, 'Seat 2 picks seat 5.'],
    [{ kind: 'attack_pick', seat: 2 }, 'Seat 2 picks nobody.'],
    [{ kind: 'check', seat: 1, target: 4, role: 'werewolf' }, 'Your check: seat 4 is werewolf.'],
    [{ kind: 'check', seat: 1, target: 4, value: 1 }, 'Your check: seat 4 is a wolf.'],
    [{ kind: 'check', seat: 1, target: 4 }, 'Your check: seat 4 is good.'],
    [{ kind: 'dawn', mask: [3, 7] }, 'Day breaks. Last night seats 3, 7 died.'],
    [{ kind: 'dawn' }, 'Day breaks. Last night nobody died.'],
    [{ kind: 'death', seat: 3, value: 3 }, 'Seat 3 is dead: exiled.'],
    [{ kind: 'extra_cards', seat: 3, role: 'werewolf', value: 6 }, 'The two extra cards: werewolf and seer.'],
    [{ kind: 'explode', seat: 3 }, 'Seat 3 self-explodes.'],
    [{ kind: 'explode', seat: 3, target: 4 }, 'Seat 3 self-explodes and takes seat 4 along.'],
    [{ kind: 'explode', seat: 3, target: 4, value: 1 }, 'Seat 3 takes seat 4; the campaign goes on.'],
    [{ kind: 'game_over', value: 2 }, 'Game over. Winner: Wolves.'],
    [{ kind: 'game_over', value: 5 }, 'Game over: a draw.'],
    [{ kind: 'sheriff', seat: 6 }, 'Seat 6 is elected sheriff.'],
    [{ kind: 'sheriff', value: 3 }, 'The sheriff vote is tied: the badge is lost.'],
    [{ kind: 'step', step: 'speech', seat: 4, value: 13 }, "Speech: seat 4's turn."],
    [{ kind: 'step', step: 'night', role: 'seer', value: 3 }, 'Night actions: seer, your move.'],
    [{ kind: 'step', value: 15 }, 'Now: Exile vote.'],
    [{ kind: 'vote_result', step: 'vote', target: 4, mask: [4] }, 'Exile vote: seat 4 has the most votes.'],
    [{ kind: 'vote_result', step: 'vote', mask: [4, 5] }, 'Exile vote: seats 4, 5 are tied.'],
    [{ kind: 'vote_result', value: 15, mask: [4, 5], target: 5 }, 'Exile vote: seats 4, 5 are tied; the draw chose seat 5.'],
    [{ kind: 'vote_result', step: 'mob_vote', mask: [4, 5] }, 'Angry mob vote: seats 4, 5 are the candidates.'],
    [{ kind: 'vote_result', step: 'vote' }, 'Exile vote: nobody received a vote.'],
    [{ kind: 'claim', seat: 2, value: 1, role: 'seer' }, 'Seat 2 claims: I am seer.'],
    [{ kind: 'claim', seat: 2, value: 2, target: 9 }, 'Seat 2 claims: seat 9 is a wolf.'],
    [{ kind: 'task', seat: 2, value: 3 }, 'Queued: Last words for seat 2.'],
  ])('%j', (e, want) => {
    expect(describe(en, e)).toBe(want);
  });

  test('an unknown kind reads as its key', () => {
    expect(describe(en, { kind: 'mystery' })).toBe('event.mystery');
  });

  test('a revealed idiot who survives his exile (value 1), and one whose card is turned at his death', () => {
    expect(describe(en, { kind: 'reveal', seat: 4, role: 'idiot', value: 1 })).toBe('Seat 4 shows the idiot card.');
    expect(describe(en, { kind: 'reveal', seat: 5, role: 'idiot' })).toBe('Seat 5 shows the card: idiot.');
    expect(variants({ kind: 'reveal', role: 'seer' })).toEqual([]);
  });

  test('the wolves wake together', () => {
    expect(describe({ ...en, 'group.wolves': 'wolves' }, { kind: 'step', step: 'night', role: 'werewolf' })).toBe(
      'Night actions: wolves, your move.',
    );
  });
});

group('words that fit', () => {
  const dict = { 'event.dawn': 'Last night seats {mask} died.', 'ui.event.dawn.one': 'Last night seat {mask} died.', 'event.skip': 'Seat {seat} passes.',
    'ui.event.skip.speech': 'Seat {seat} ends the speech.', 'ui.list.sep': ', ' };
  test('one seat in the singular, several in the plural', () => {
    expect(describe(dict, { kind: 'dawn', mask: [10] })).toBe('Last night seat 10 died.');
    expect(describe(dict, { kind: 'dawn', mask: [3, 10] })).toBe('Last night seats 3, 10 died.');
  });
  test('the end of a speech is not a pass', () => {
    expect(describe(dict, { kind: 'skip', seat: 4, speech: true })).toBe('Seat 4 ends the speech.');
    expect(describe(dict, { kind: 'skip', seat: 4 })).toBe('Seat 4 passes.');
  });
});

group('the replay\'s third person', () => {
  const dict = { 'event.check.wolf': 'Your check: seat {target} is a wolf.', 'ui.replay.event.check.wolf': 'Seat {seat} checked seat {target}: wolf.',
    'event.witch_told': 'Tonight the wolves attacked seat {target}.', 'ui.replay.event.witch_told': 'Seat {who} is told the wolves attacked seat {target}.',
    'event.lover_role': 'Your lover, seat {seat}, is {role}.', 'ui.replay.event.lover_role': 'Seat {to} learns: the lover, seat {seat}, is {role}.',
    'role.hunter': 'hunter', 'event.exile': 'Seat {seat} is exiled.', 'ui.list.sep': ', ' };
  test('names the seat told, not "you"', () => {
    expect(describe(dict, { kind: 'check', seat: 5, target: 3, value: 1 }, { third: true })).toBe('Seat 5 checked seat 3: wolf.');
    expect(describe(dict, { kind: 'check', seat: 5, target: 3, value: 1 })).toBe('Your check: seat 3 is a wolf.');
    expect(describe(dict, { kind: 'witch_told', seat: 6, target: 9, to: [6] }, { third: true })).toBe('Seat 6 is told the wolves attacked seat 9.');
    expect(describe(dict, { kind: 'lover_role', seat: 2, to: [7], role: 'hunter' }, { third: true })).toBe('Seat 7 learns: the lover, seat 2, is hunter.');
    expect(describe(dict, { kind: 'exile', seat: 2 }, { third: true })).toBe('Seat 2 is exiled.');
  });
});
