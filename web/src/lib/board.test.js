import { readFileSync } from 'node:fs';
import { describe, expect, it, test } from 'vitest';
import {
  OPTION_AFTER, OPTION_CARDS, boardProblems, buildBoard, cardsNeeded, changedOptions, countCards, keepBoard, optionShown, parseBoard,
} from './board.js';
import { ROLES } from './enums.js';

const OPTIONS_DOC = readFileSync(new URL('../../../docs/rules.md', import.meta.url), 'utf8');

const order = ['werewolf', 'white_wolf_king', 'villager', 'seer', 'witch', 'hunter', 'thief'];

describe('buildBoard', () => {
  test('a board file as docs/boards.md shows it', () => {
    const text = buildBoard({
      name: 'my 10-player board',
      players: 10,
      cards: { villager: 5, witch: 1, seer: 1, werewolf: 3, hunter: 0 },
      options: { wolf_win: 'kill_side', sheriff_vote_weight: '1.5', vote_tie: 'nobody' },
      defaults: { wolf_win: 'kill_all', sheriff_vote_weight: '2', vote_tie: 'nobody' },
      order,
    });
    expect(text).toBe(
      'name: "my 10-player board"\n' +
        'players: 10\n' +
        'cards:\n' +
        '  werewolf: 3\n' +
        '  villager: 5\n' +
        '  seer: 1\n' +
        '  witch: 1\n' +
        'options:\n' +
        '  sheriff_vote_weight: "1.5"\n' +
        '  wolf_win: "kill_side"\n',
    );
  });
  test('names are quoted safely', () => {
    const text = buildBoard({ name: ' a "b": c\n# d ', description: '狼人杀', players: 3, cards: { werewolf: 1, villager: 2 } });
    expect(text.split('\n')[0]).toBe('name: "a \\"b\\": c\\n# d"');
    expect(text.split('\n')[1]).toBe('description: "狼人杀"');
  });
  test('without options nor order', () => {
    expect(buildBoard({ players: 3, cards: { werewolf: 1, villager: 2 } })).toBe(
      'players: 3\ncards:\n  werewolf: 1\n  villager: 2\n',
    );
  });
});

describe('boardProblems', () => {
  test('a good board', () => {
    expect(boardProblems({ players: 9, cards: { werewolf: 3, seer: 1, witch: 1, hunter: 1, villager: 3 } })).toEqual([]);
  });
  test('the thief brings two extra cards', () => {
    expect(cardsNeeded(8, { thief: 1 })).toBe(10);
    expect(boardProblems({ players: 8, cards: { werewolf: 2, thief: 1, villager: 5 } })).toEqual(['count']);
    expect(boardProblems({ players: 8, cards: { werewolf: 2, thief: 1, villager: 7 } })).toEqual([]);
  });
  test('each problem', () => {
    expect(boardProblems({ players: 2, cards: { werewolf: 1, villager: 1 } })).toEqual(['players']);
    expect(boardProblems({ players: 21, cards: { werewolf: 1, villager: 20 } })).toEqual(['players']);
    expect(boardProblems({ players: 3, cards: { villager: 3 } })).toEqual(['no_wolf']);
    expect(boardProblems({ players: 3, cards: { werewolf: 3 } })).toEqual(['no_good']);
    expect(boardProblems({ players: 4, cards: { werewolf: 1, seer: 2, villager: 1 } })).toEqual(['unique']);
  });
});

test('changedOptions and countCards', () => {
  expect(changedOptions({ b: '2', a: '1' }, { a: '1', b: '1' })).toEqual({ b: '2' });
  expect(changedOptions({ a: '1' })).toEqual({ a: '1' });
  expect(countCards(['werewolf', 'seer', 'werewolf'])).toEqual({ werewolf: 2, seer: 1 });
});

describe('options by card', () => {
  it('shows a witch\'s option only with a witch, one of a pair only with both, the table\'s always', () => {
    const cards = { werewolf: 2, seer: 1, villager: 3 };
    expect(optionShown('witch_self_heal', cards)).toBe(false);
    expect(optionShown('witch_self_heal', { ...cards, witch: 1 })).toBe(true);
    expect(optionShown('witch_self_heal', ['werewolf', 'witch'])).toBe(true);
    expect(optionShown('guard_heal_same_target', { ...cards, guard: 1 })).toBe(false);
    expect(optionShown('guard_heal_same_target', { ...cards, guard: 1, witch: 1 })).toBe(true);
    expect(optionShown('hunter_shoots_on_heartbreak', { hunter: 1, wolf_beauty: 1 })).toBe(true);
    expect(optionShown('hunter_shoots_on_heartbreak', { hunter: 1, ghost_bride: 1 })).toBe(true); // the couple's death is the lovers' (鬼魂新娘)
    expect(optionShown('seer_sees', { ...cards, seer: 0 })).toBe(false);
    expect(optionShown('wolf_win', {})).toBe(true);
    expect(optionShown('sheriff', {})).toBe(true);
  });
  it('shows an option that follows another only with its value', () => {
    expect(optionShown('mob_random_after', {}, { day_vote: 'simultaneous' })).toBe(false);
    expect(optionShown('mob_random_after', {}, { day_vote: 'angry_mob' })).toBe(true);
    expect(optionShown('sheriff_vote_weight', {}, { sheriff: 'none' })).toBe(false);
    expect(optionShown('sheriff_vote_weight', {}, { sheriff: 'day1_campaign' })).toBe(true);
    expect(optionShown('double_explode', {}, { sheriff: 'none' })).toBe(false);
  });
  it('shows the self-exploded sheriff\'s badge with a wolf and a sheriff, the night shot with a shooter', () => {
    const sheriff = { sheriff: 'day1_campaign' };
    expect(optionShown('exploded_sheriff_badge', { werewolf: 2, seer: 1 }, sheriff)).toBe(true);
    expect(optionShown('exploded_sheriff_badge', { white_wolf_king: 1, seer: 1 }, sheriff)).toBe(true);
    expect(optionShown('exploded_sheriff_badge', { werewolf: 2, seer: 1 }, { sheriff: 'none' })).toBe(false);
    expect(optionShown('exploded_sheriff_badge', { seer: 1, villager: 2 }, sheriff)).toBe(false);
    expect(optionShown('night_shot', { werewolf: 2, hunter: 1 })).toBe(true);
    expect(optionShown('night_shot', { wolf_king: 1, villager: 2 })).toBe(true);
    expect(optionShown('night_shot', { werewolf: 2, seer: 1, witch: 1 })).toBe(false);
  });
  it('names only options the server has', () => {
    for (const k of [...Object.keys(OPTION_CARDS), ...Object.keys(OPTION_AFTER)]) expect(OPTIONS_DOC, k).toContain('`' + k + '`');
    for (const sets of Object.values(OPTION_CARDS)) for (const s of sets) for (const r of s) expect(ROLES).toContain(r);
  });
});

describe('a pasted board file', () => {
  it('reads the map form, comments, quotes and options', () => {
    const b = parseBoard(`name: "my 10-player board"   # a comment
description: three wolves # and more
players: 10
cards:
  werewolf: 3
  seer: 1
  witch: 1
  villager: 5
options:
  wolf_win: kill_side
  sheriff_vote_weight: 1.5
`);
    expect(b).toEqual({ name: 'my 10-player board', description: 'three wolves', players: 10,
      cards: { werewolf: 3, seer: 1, witch: 1, villager: 5 }, options: { wolf_win: 'kill_side', sheriff_vote_weight: '1.5' } });
  });
  it('reads the list forms', () => {
    expect(parseBoard('players: 4\ncards: [werewolf, seer, villager, villager]\n').cards).toEqual({ werewolf: 1, seer: 1, villager: 2 });
    expect(parseBoard('players: 3\ncards:\n  - werewolf\n  - seer\n  - villager\n').cards).toEqual({ werewolf: 1, seer: 1, villager: 1 });
  });
  it('reads back what the picker writes', () => {
    const text = buildBoard({ name: 'Mine', players: 6, cards: { werewolf: 2, seer: 1, villager: 3 }, options: { wolf_win: 'kill_all' }, defaults: { wolf_win: 'kill_side' } });
    expect(parseBoard(text)).toEqual({ name: 'Mine', description: '', players: 6, cards: { werewolf: 2, seer: 1, villager: 3 }, options: { wolf_win: 'kill_all' } });
  });
  it('names the line of what it cannot read', () => {
    expect(parseBoard('players: 4\nplayer: 5\n')).toEqual({ error: 'key', line: 2, value: 'player' });
    expect(parseBoard('players: 4\ncards:\n  werewolf: 0\n')).toEqual({ error: 'count', line: 3, value: 'werewolf' });
    expect(parseBoard('cards: [werewolf]\n').error).toBe('players');
    expect(parseBoard('players: 4\n').error).toBe('cards');
    expect(parseBoard('just text').error).toBe('syntax');
  });
});

describe('boards kept on the device', () => {
  it('keeps the newest first, one per name', () => {
    let l = keepBoard([], 'A', 'a1', 1);
    l = keepBoard(l, 'B', 'b', 2);
    l = keepBoard(l, 'A', 'a2', 3);
    expect(l).toEqual([{ name: 'A', text: 'a2', at: 3 }, { name: 'B', text: 'b', at: 2 }]);
  });
});
