import { beforeEach, expect, test } from 'vitest';
import { forgetSeat, load, myRooms, roomAuth, save, saveRoomAuth } from './storage.js';

beforeEach(() => {
  const m = new Map();
  globalThis.localStorage = {
    getItem: (k) => (m.has(k) ? m.get(k) : null),
    setItem: (k, v) => m.set(k, String(v)),
    removeItem: (k) => m.delete(k),
    key: (i) => [...m.keys()][i] ?? null,
    get length() {
      return m.size;
    },
  };
});

test('values round-trip; a broken one reads as the fallback', () => {
  save('lang', 'zh-Hant');
  expect(load('lang', 'en')).toBe('zh-Hant');
  localStorage.setItem('wolfden.bad', '{');
  expect(load('bad', 1)).toBe(1);
  save('lang', null);
  expect(load('lang', 'en')).toBe('en');
});

test('the tokens of a room', () => {
  saveRoomAuth('abc', { host: 'H', token: 'T', seat: 1 });
  saveRoomAuth('def', { token: 'U', seat: 4 });
  expect(roomAuth('abc')).toMatchObject({ host: 'H', token: 'T', seat: 1 });
  expect(myRooms().map((r) => r.id).sort()).toEqual(['abc', 'def']);
  forgetSeat('abc');
  expect(roomAuth('abc')).toMatchObject({ host: 'H' });
  expect(roomAuth('abc').token).toBeUndefined();
  forgetSeat('def');
  expect(roomAuth('def')).toEqual({});
  expect(roomAuth('nope')).toEqual({});
});
