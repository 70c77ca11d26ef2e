import { describe, expect, it } from 'vitest';
import { CODE, codePath, findCode, groups, joinError, parseJoin } from './code.js';

describe('parseJoin', () => {
  it.each([
    ['k7qm', { code: 'K7QM' }],
    [' ab-cd2 ', { code: 'ABCD2' }],
    ['XYZ 234', { code: 'XYZ234' }],
    ['http://192.168.1.5:8080/j/K7QM', { code: 'K7QM' }],
    ['http://host/room/01ABCDEF234', { room: '01abcdef234' }],
    ['01JDQ3C0ZQ4W9R8T6Y5X', { room: '01jdq3c0zq4w9r8t6y5x' }],
    ['', null],
    ['no such thing!', null],
  ])('reads %j', (input, want) => {
    expect(parseJoin(input)).toEqual(want);
  });
  it('takes no look-alike in a code: an O, a 1 or an L makes it a room id', () => {
    for (const c of ['OOOO', 'AB1C', 'LLLL', 'IIII', 'A0BC']) expect(CODE.test(c)).toBe(false);
  });
});

describe('codePath and groups', () => {
  it('links a code and splits six characters for reading', () => {
    expect(codePath('K7QM')).toBe('/j/K7QM');
    expect(groups('ABCDEF')).toBe('ABC DEF');
    expect(groups('ABCD')).toBe('ABCD');
  });
});

describe('findCode', () => {
  const answer = (status, body) => async () => ({ ok: status < 300, status, statusText: 'x', json: async () => body });
  it('reads the room of a code', async () => {
    let asked = '';
    const id = await findCode('K7QM', async (u) => {
      asked = u;
      return answer(200, { code: 'K7QM', id: '01abc' })();
    });
    expect(asked).toBe('/api/codes/K7QM');
    expect(id).toBe('01abc');
  });
  it('throws the server error, which joinError names in the catalogue', async () => {
    for (const [status, code, key] of [[404, 'no_code', 'ui.join.no_code'], [429, 'rate', 'ui.join.rate'], [400, 'bad_code', 'ui.join.bad_code']]) {
      const err = await findCode('K7QM', answer(status, { error: { code, message: 'm' } })).catch((e) => e);
      expect(err.status).toBe(status);
      expect(joinError(err, 'K7QM')[0]).toBe(key);
    }
    const down = await findCode('K7QM', async () => { throw new Error('offline'); }).catch((e) => e);
    expect(joinError(down, 'K7QM')).toEqual(['ui.error.network', {}]);
  });
});
