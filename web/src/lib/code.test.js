import { describe, expect, it } from 'vitest';
import { CODE, codePath, groups, parseJoin } from './code.js';

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
