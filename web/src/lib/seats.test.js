import { expect, test } from 'vitest';
import { swapUp } from './seats.js';

test('moving seat 3 up swaps it with seat 2', () => {
  expect(swapUp(5, 3)).toEqual([1, 3, 2, 4, 5]);
});

test('seat 1 cannot move up', () => {
  expect(swapUp(4, 1)).toEqual([1, 2, 3, 4]);
});
