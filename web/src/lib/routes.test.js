import { expect, test } from 'vitest';
import { match, playerPath, roomPath } from './routes.js';

test('pages', () => {
  expect(match('/')).toEqual({ name: 'lobby' });
  expect(match('')).toEqual({ name: 'lobby' });
  expect(match('/new/')).toEqual({ name: 'create' });
  expect(match('/arena')).toEqual({ name: 'arena' });
  expect(match('/account')).toEqual({ name: 'account' });
  expect(match('/room/AbC234')).toEqual({ name: 'room', id: 'abc234' });
  expect(match(roomPath('x7'))).toEqual({ name: 'room', id: 'x7' });
  expect(match('/room/')).toEqual({ name: 'notfound' });
  expect(match('/room/a/b')).toEqual({ name: 'notfound' });
  expect(match('/nope')).toEqual({ name: 'notfound' });
});

test('the ledger pages: a player by name, the leaderboard', () => {
  expect(match('/leaderboard')).toEqual({ name: 'leaderboard' });
  expect(match(playerPath('狼王 Ann'))).toEqual({ name: 'player', player: '狼王 Ann' });
  expect(match('/players/%E0%A4')).toEqual({ name: 'player', player: '%E0%A4' });
  expect(match('/players/a/b')).toEqual({ name: 'notfound' });
});
