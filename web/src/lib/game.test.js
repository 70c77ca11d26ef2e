import { describe, expect, test } from 'vitest';
import { applyFrame, chatTabs, endReason, newGame, seatView, tally } from './game.js';
import { claimsBoard } from './claims.js';

const ev = (seq, kind, rest = {}) => ({ type: 'event', seq, kind, ...rest });

function play(g, frames) {
  return frames.map((f) => applyFrame(g, f));
}

describe('the reducer', () => {
  test('events are taken in order, once; a gap is reported', () => {
    const g = newGame('r');
    const out = play(g, [
      { type: 'welcome', room: 'r', seat: 3, players: 12 },
      ev(1, 'game_start', { value: 12 }),
      ev(2, 'role', { seat: 3, role: 'seer' }),
      ev(2, 'role', { seat: 3, role: 'seer' }),
      ev(4, 'night', { value: 1 }),
    ]);
    expect(out[0]).toEqual({ welcome: true });
    expect(out[3]).toEqual({ dup: true });
    expect(out[4]).toEqual({ gap: true });
    expect(g.since).toBe(2);
    expect(g.events.map((e) => e.kind)).toEqual(['game_start', 'role']);
    expect(g.seat).toBe(3);
    expect(g.players).toBe(12);
  });

  test('catch-up is not live; what follows the first state is', () => {
    const g = newGame();
    const out = play(g, [
      { type: 'welcome', room: 'r', seat: 1, players: 9 },
      ev(1, 'night', { value: 1 }),
      { type: 'state', seat: 1, day: 0, night: true, alive: [1, 2, 3] },
      ev(2, 'day', { value: 1 }),
      { type: 'welcome', room: 'r', seat: 1, players: 9 },
      ev(3, 'dawn', { mask: [2] }),
    ]);
    expect(out[1].live).toBe(false);
    expect(out[2].live).toBe(false);
    expect(out[3].live).toBe(true);
    expect(out[5].live).toBe(false);
    expect(g.day).toBe(1);
  });

  test('chat numbering', () => {
    const g = newGame();
    const out = play(g, [
      { type: 'chat', seq: 1, channel: 'wolves', seat: 2, text: 'hi', at: 1 },
      { type: 'chat', seq: 1, channel: 'wolves', seat: 2, text: 'hi', at: 1 },
      { type: 'chat', seq: 3, channel: 'day', seat: 2, text: 'x', at: 2 },
      { type: 'chat', seq: 2, channel: 'day', text: 'spy', at: 3 },
    ]);
    expect(out.map((o) => Object.keys(o)[0])).toEqual(['chat', 'dup', 'gap', 'chat']);
    expect(g.chats).toHaveLength(2);
    expect(g.chats[1].seat).toBe(0);
    expect(g.chatSince).toBe(2);
  });

  test('ballots: private until the vote closes, then tallied with the result', () => {
    const g = newGame();
    play(g, [
      { type: 'welcome', room: 'r', seat: 1, players: 4 },
      ev(1, 'step', { step: 'vote', value: 15, mask: [1, 2, 3, 4] }),
      ev(2, 'ballot', { seat: 1, target: 3 }), // my own, private
      ev(3, 'ballot', { seat: 1, target: 3, value: 1 }), // published
      ev(4, 'ballot', { seat: 2, target: 3, value: 1 }),
      ev(5, 'ballot', { seat: 3, value: 1 }), // abstained
      ev(6, 'ballot', { seat: 4, target: 1, value: 1 }),
      ev(7, 'vote_result', { step: 'vote', value: 15, target: 3, mask: [3] }),
      ev(8, 'exile', { seat: 3 }),
      ev(9, 'death', { seat: 3, value: 3 }),
    ]);
    expect(g.events[1].open).toBe(false);
    expect(g.lastVote.target).toBe(3);
    expect(tally(g.lastVote.ballots)).toEqual([
      { target: 3, voters: [1, 2], total: 2 },
      { target: 1, voters: [4], total: 1 },
      { target: 0, voters: [3], total: 1 },
    ]);
    expect(g.ballots).toEqual([]);
    expect(g.deaths[3].cause).toBe('exile');
  });

  test("a sheriff's hand: the seat's own until the signup closes, then on the claims board once", () => {
    const g = newGame();
    play(g, [
      { type: 'welcome', room: 'r', seat: 2, players: 4 },
      ev(1, 'step', { step: 'signup', value: 5, mask: [1, 2, 3, 4] }),
      ev(2, 'run', { seat: 2 }), // my own hand, told me alone
      ev(3, 'run', { seat: 1, value: 1 }), // the signup closes: every hand, published
      ev(4, 'run', { seat: 2, value: 1 }),
      ev(5, 'step', { step: 'campaign', value: 6, seat: 1, mask: [1, 2] }),
    ]);
    expect(g.events.filter((e) => e.kind === 'run').map((e) => e.open)).toEqual([false, true, true]);
    expect(claimsBoard(g.events).seats).toEqual({ 1: [{ kind: 'run', day: 0 }], 2: [{ kind: 'run', day: 0 }] });
  });

  test('a PK vote starts a new tally; open votes are public as cast', () => {
    const g = newGame();
    play(g, [
      { type: 'welcome', room: 'r', seat: 2, players: 4 },
      ev(1, 'step', { step: 'vote' }),
      ev(2, 'ballot', { seat: 1, target: 3, value: 1 }),
      ev(3, 'vote_result', { step: 'vote', mask: [3, 4] }),
      ev(4, 'step', { step: 'pk', seat: 3 }),
      ev(5, 'step', { step: 'pk_vote' }),
      ev(6, 'ballot', { seat: 1, target: 4, value: 1 }),
      ev(7, 'vote_result', { step: 'pk_vote', target: 4, mask: [4] }),
      ev(8, 'step', { step: 'seq_vote', seat: 3 }),
      ev(9, 'ballot', { seat: 2, target: 3 }),
    ]);
    expect(tally(g.lastVote.ballots)).toEqual([{ target: 4, voters: [1], total: 1 }]);
    expect(g.ballots).toEqual([{ seat: 2, target: 3 }]);
  });

  test("the sheriff's ballot weighs the room's weight in an exile vote, and is marked", () => {
    const g = newGame();
    g.sheriffWeight = 1.5;
    play(g, [
      { type: 'welcome', room: 'r', seat: 5, players: 6 },
      ev(1, 'step', { step: 'sheriff_vote' }),
      ev(2, 'ballot', { seat: 1, target: 2, value: 1 }),
      ev(3, 'vote_result', { step: 'sheriff_vote', target: 2, mask: [2] }),
      ev(4, 'sheriff', { seat: 2 }),
      ev(5, 'step', { step: 'vote' }),
      ev(6, 'ballot', { seat: 2, target: 4, value: 1 }),
      ev(7, 'ballot', { seat: 1, target: 3, value: 1 }),
      ev(8, 'ballot', { seat: 6, target: 4, value: 1 }),
      ev(9, 'vote_result', { step: 'vote', target: 4, mask: [4] }),
    ]);
    expect(g.events[2].sheriff).toBeUndefined(); // no sheriff yet, and not an exile vote
    const v = g.lastVote;
    expect([v.sheriff, v.weight]).toEqual([2, 1.5]);
    expect(tally(v.ballots, v.sheriff, v.weight)).toEqual([
      { target: 4, voters: [2, 6], total: 2.5 },
      { target: 3, voters: [1], total: 1 },
    ]);
    play(g, [ev(10, 'badge', { seat: 2, target: 6 })]);
    expect(g.sheriff).toBe(6);
  });

  test('the dawn and the exile, for the summary; the picks leave at dawn; a speech ends, it is no pass', () => {
    const g = newGame();
    play(g, [
      { type: 'welcome', room: 'r', seat: 1, players: 6 },
      ev(1, 'night', { value: 1 }),
      ev(2, 'attack_pick', { seat: 1, target: 4 }),
      ev(3, 'dawn', { mask: [5, 3] }),
      ev(4, 'day', { value: 1 }),
    ]);
    expect(g.dawn).toEqual({ night: 1, dead: [3, 5] });
    expect(g.picks).toEqual({});
    play(g, [ev(5, 'step', { step: 'speech', seat: 2 }), ev(6, 'skip', { seat: 2 }), ev(7, 'step', { step: 'vote' }), ev(8, 'skip', { seat: 4 }), ev(9, 'exile', { seat: 4 })]);
    expect(g.events[5].speech).toBe(true);
    expect(g.events[7].speech).toBeUndefined();
    expect(g.exiled).toEqual({ day: 1, seat: 4 });
    play(g, [ev(10, 'night', { value: 2 }), ev(11, 'dawn', {})]);
    expect(g.exiled).toBe(null);
    expect(g.dawn).toEqual({ night: 2, dead: [] });
  });

  test('why the winner won', () => {
    const roles = { 1: 'werewolf', 2: 'seer', 3: 'witch', 4: 'villager', 5: 'villager', 6: 'werewolf' };
    expect(endReason('wolves', roles, [1, 4, 6])).toBe('gods');
    expect(endReason('wolves', roles, [1, 2])).toBe('villagers');
    expect(endReason('wolves', roles, [1, 6])).toBe('all');
    expect(endReason('village', roles, [2, 3])).toBe('wolves_out');
    expect(endReason('lovers', roles, [1, 2])).toBe('lovers');
    expect(endReason('angel', roles, [2, 3, 4, 6])).toBe('angel'); // ROLES-MORE-2 天使
    expect(endReason('fox', roles, [2, 6])).toBe('fox'); // 咒狐: alive when a camp won
    expect(endReason('newlyweds', roles, [4, 6])).toBe('newlyweds'); // 鬼魂新娘: the last camp standing
    expect(endReason('draw', roles, [])).toBe('');
  });

  test('the seat ring: alive, sheriff, speaking, known cards, checks, reveals', () => {
    const g = newGame();
    play(g, [
      { type: 'welcome', room: 'r', seat: 1, players: 4 },
      ev(1, 'check', { seat: 1, target: 2, value: 1 }),
      ev(2, 'reveal', { seat: 4, role: 'idiot' }),
      {
        type: 'state', seat: 1, role: 'seer', day: 2, night: false, step: 'speech', turn: 3,
        alive: [1, 2, 3], sheriff: 2, known: { 4: 'idiot' }, channels: ['day'],
      },
    ]);
    expect(seatView(g, 1)).toMatchObject({ me: true, role: 'seer', alive: true });
    expect(seatView(g, 2)).toMatchObject({ sheriff: true, check: 'wolf', role: null });
    expect(seatView(g, 3)).toMatchObject({ speaking: true });
    expect(seatView(g, 4)).toMatchObject({ alive: false, role: 'idiot', revealed: true });
  });

  test('night picks, the thief, chat tabs', () => {
    const g = newGame();
    play(g, [
      { type: 'welcome', room: 'r', seat: 5, players: 6 },
      ev(1, 'extra_cards', { seat: 5, role: 'werewolf', value: 6 }),
      ev(2, 'night', { value: 1 }),
      ev(3, 'attack_pick', { seat: 5, target: 2 }),
      ev(4, 'attack_pick', { seat: 6 }),
      { type: 'chat', seq: 1, channel: 'lovers', seat: 5, text: '♥', at: 1 },
      { type: 'state', seat: 5, day: 0, night: true, alive: [1, 2, 3, 4, 5, 6], channels: ['wolves'] },
    ]);
    expect(g.extra).toEqual(['werewolf', 6]);
    expect(g.nightNo).toBe(1);
    expect(g.picks).toEqual({ 5: 2, 6: 0 });
    expect(g.night).toBe(true);
    expect(chatTabs(g, ['day', 'wolves', 'lovers', 'dead'])).toEqual([
      { channel: 'wolves', writable: true },
      { channel: 'lovers', writable: false },
    ]);
  });

  test('a tick or a pad changes nothing', () => {
    const g = newGame('r');
    play(g, [{ type: 'welcome', room: 'r', seat: 2, players: 6 }, ev(1, 'night', { value: 1 })]);
    const before = JSON.stringify(g);
    expect(applyFrame(g, { type: 'tick', n: 7 })).toEqual({ filler: true });
    expect(applyFrame(g, { type: 'pad', p: '     ' })).toEqual({ filler: true });
    expect(JSON.stringify(g)).toBe(before);
  });

  test('the welcome says whether the room is a practice room', () => {
    const g = newGame('r');
    applyFrame(g, { type: 'welcome', room: 'r', seat: 2, players: 6, practice: true });
    expect(g.practice).toBe(true);
    applyFrame(g, { type: 'welcome', room: 'r', seat: 2, players: 6 });
    expect(g.practice).toBe(false);
  });

  test('the dead channel\'s tab comes only when the state lists it, or with its messages', () => {
    const g = newGame();
    const order = ['day', 'wolves', 'lovers', 'dead'];
    play(g, [
      { type: 'welcome', room: 'r', seat: 4, players: 6 },
      ev(1, 'death', { seat: 4, value: 3 }),
      // dead, but the shot and the last words are still to come: no dead channel yet
      { type: 'state', seat: 4, day: 1, night: false, step: 'last_words', turn: 4, pending: true, alive: [1, 2, 3, 5, 6], channels: ['day'] },
    ]);
    expect(chatTabs(g, order)).toEqual([{ channel: 'day', writable: true }]);
    applyFrame(g, { type: 'state', seat: 4, day: 1, night: false, step: 'vote', alive: [1, 2, 3, 5, 6] });
    expect(chatTabs(g, order).map((x) => x.channel)).not.toContain('dead');
    applyFrame(g, { type: 'state', seat: 4, day: 1, night: false, step: 'vote', alive: [1, 2, 3, 5, 6], channels: ['dead'] });
    expect(chatTabs(g, order)).toEqual([{ channel: 'dead', writable: true }]);
    // a reload before the channel opens again (a new night, say): the messages it holds keep a read-only tab
    const h = newGame();
    play(h, [
      { type: 'welcome', room: 'r', seat: 4, players: 6 },
      { type: 'chat', seq: 1, channel: 'dead', seat: 2, text: 'gg', at: 1 },
      { type: 'state', seat: 4, day: 2, night: true, alive: [1, 3, 5, 6] },
    ]);
    expect(chatTabs(h, order)).toEqual([{ channel: 'dead', writable: false }]);
  });

  test('acks, errors and unknown frames', () => {
    const g = newGame();
    expect(applyFrame(g, { type: 'ack', id: 1 })).toEqual({ reply: { type: 'ack', id: 1 } });
    expect(applyFrame(g, { type: 'error', code: 'target' }).reply.code).toBe('target');
    expect(applyFrame(g, { type: 'nonsense' })).toEqual({});
    expect(applyFrame(g, null)).toEqual({});
  });
});

test('the self-exploded are marked from the state, for every seat; the card stays unknown', () => {
  for (const seat of [0, 2]) {
    const g = newGame('r');
    applyFrame(g, { type: 'welcome', room: 'r', seat, players: 6 });
    applyFrame(g, { type: 'state', seat, alive: [1, 2, 3, 4, 6], exposed: [5] });
    expect(seatView(g, 5)).toMatchObject({ exposed: true, alive: false, role: null, wolf: false });
    expect(seatView(g, 4).exposed).toBe(false);
  }
});

test('a shot inside the night and its wake-up are the shooter\'s secret; a shot by day is not', () => {
  const g = newGame('r');
  play(g, [
    { type: 'welcome', room: 'r', seat: 6, players: 9 },
    ev(1, 'night', { value: 1 }),
    ev(2, 'step', { step: 'night_shot', seat: 6, mask: [6] }),
    ev(3, 'shoot', { seat: 6, target: 1 }),
    ev(4, 'day', { value: 1 }),
    ev(5, 'shoot', { seat: 8, target: 2 }),
  ]);
  expect(g.events.map((e) => !!e.secret)).toEqual([false, true, true, false, false]);
});

test('a table\'s card-seen count is kept as told, the same frame for every seat', () => {
  const g = newGame('r');
  expect(applyFrame(g, { type: 'seen', count: 2, of: 3, waiting: true })).toEqual({ seen: { count: 2, of: 3, waiting: true } });
  expect(g.seen).toEqual({ count: 2, of: 3, waiting: true });
  applyFrame(g, { type: 'seen', count: 3, of: 3, waiting: false });
  expect(g.seen.waiting).toBe(false);
});

describe('forum pace frames', () => {
  test('keeps the last reminder and the last extension as the notice', () => {
    const g = newGame('r');
    expect(applyFrame(g, { type: 'remind', deadline: 5000, left: 3600000, night: true }).notice).toEqual(
      { type: 'remind', deadline: 5000, left: 3600000, night: true, seats: [] });
    applyFrame(g, { type: 'remind', deadline: 9000, left: 600000, seats: [2, 4] });
    expect(g.notice.seats).toEqual([2, 4]);
    g.now = () => 1234;
    applyFrame(g, { type: 'extend', by: 7200000 });
    expect(g.notice).toEqual({ type: 'extend', by: 7200000, came: 1234 });
  });
});
