import { expect, test } from 'vitest';
import { change, num, pct, ratedBoard, signed } from './ledger.js';

test('a board is rated only as a preset from the table, within 40–60% village, without a seed', () => {
  const b = (rate) => ({ village: { rate } });
  expect(ratedBoard(b(0.5119), 'table', '')).toBe(true);
  expect(ratedBoard(b(0.4), 'table', '')).toBe(true);
  expect(ratedBoard(b(0.6), 'table', '')).toBe(true);
  expect(ratedBoard(b(0.7103), 'table', '')).toBe(false);
  expect(ratedBoard(b(0.3161), 'table', '')).toBe(false);
  expect(ratedBoard(b(0.5), 'sim', '')).toBe(false); // a custom board's simulation is no figure of the table
  expect(ratedBoard(b(0.5), 'table', '7')).toBe(false); // a seed: a practice room
  expect(ratedBoard(null, 'table', '')).toBe(false);
});

test('changes and rates are written for people', () => {
  expect(signed(1.26)).toBe('+1.3');
  expect(signed(-0.74)).toBe('−0.7');
  expect(signed(0)).toBe('±0.0');
  expect(pct(0.4389)).toBe('44%');
  expect(num(-2.46)).toBe('−2.5');
  expect(num(25)).toBe('25.0');
  expect(change({ ordinal: 0, mu: 25 }, { ordinal: 1.5, mu: 26 })).toEqual({ from: 0, to: 1.5, delta: 1.5, mu: 1 });
  expect(change(null, { ordinal: 1 })).toBe(null);
});
