import { expect, test } from 'vitest';
import { cardSummary, roomTitle, seatLabel, seatNames } from './names.js';

const dict = { 'preset.std-12': 'Seer, witch, hunter, idiot', 'ui.seat.bot': 'Bot', 'ui.seat.empty': 'Empty' };
const t = (k) => dict[k] ?? k;
const has = (k) => k in dict;

test('a room is called by its name, else by its preset', () => {
  expect(roomTitle({ id: 'x', name: 'Friday night', preset: 'std-12' }, t, has)).toBe('Friday night');
  expect(roomTitle({ id: 'x', name: 'std-12', preset: 'std-12' }, t, has)).toBe('Seer, witch, hunter, idiot');
  expect(roomTitle({ id: 'x', name: '', preset: 'forum' }, t, has)).toBe('forum');
  expect(roomTitle({ id: 'x', name: '' }, t, has)).toBe('x');
});

test('seats and cards', () => {
  expect(seatLabel({ seat: 1, nick: 'Alice' }, t)).toBe('Alice');
  expect(seatLabel({ seat: 2, bot: true }, t)).toBe('Bot');
  expect(seatLabel({ seat: 3 }, t)).toBe('Empty');
  expect(cardSummary(['werewolf', 'werewolf', 'seer', 'werewolf'])).toEqual([
    { role: 'werewolf', count: 3 },
    { role: 'seer', count: 1 },
  ]);
});

test("a deleted account's seat reads deleted player", () => {
  const tt = (k) => ({ 'ui.account.deleted_player': 'deleted player' })[k] ?? k;
  expect(seatLabel({ seat: 4, deleted: true }, tt)).toBe('deleted player');
  const names = seatNames({ seats: [{ seat: 1, nick: 'A' }, { seat: 2, deleted: true }] }, tt);
  expect(names[1].nick).toBe('A');
  expect(names[2].nick).toBe('deleted player');
});
