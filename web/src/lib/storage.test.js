import { beforeEach, expect, test } from 'vitest';
import { forgetSeat, load, myRooms, roomAuth, save, saveRoomAuth, takeSeatLink } from './storage.js';

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

test('a chat player\'s private link keeps his seat and leaves the address bar', () => {
  const tok = 'A'.repeat(43);
  const loc = { hash: '#seat=3&token=' + tok, pathname: '/room/abc', search: '' };
  let replaced = null;
  const hist = { state: null, replaceState: (_s, _t, url) => (replaced = url) };
  expect(takeSeatLink('abc', loc, hist)).toBe(true);
  expect(roomAuth('abc')).toMatchObject({ seat: 3, token: tok });
  expect(replaced).toBe('/room/abc');
  // Anything else in the fragment is left alone.
  expect(takeSeatLink('xyz', { hash: '#seat=3&token=x<y', pathname: '/room/xyz', search: '' }, hist)).toBe(false);
  expect(roomAuth('xyz')).toEqual({});
});
