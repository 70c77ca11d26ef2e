import { expect, test } from 'vitest';
import { match, roomPath } from './routes.js';

test('pages', () => {
  expect(match('/')).toEqual({ name: 'lobby' });
  expect(match('')).toEqual({ name: 'lobby' });
  expect(match('/new/')).toEqual({ name: 'create' });
  expect(match('/account')).toEqual({ name: 'account' });
  expect(match('/room/AbC234')).toEqual({ name: 'room', id: 'abc234' });
  expect(match(roomPath('x7'))).toEqual({ name: 'room', id: 'x7' });
  expect(match('/room/')).toEqual({ name: 'notfound' });
  expect(match('/room/a/b')).toEqual({ name: 'notfound' });
  expect(match('/nope')).toEqual({ name: 'notfound' });
});
