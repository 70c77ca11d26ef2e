import { describe, expect, test } from 'vitest';
import { answered } from './sent.js';

describe('a night tap\'s mark', () => {
  const sent = { id: 7, state: 'sent', undo: () => {} };
  test('confirmed by its ack', () => {
    expect(answered(sent, { type: 'ack', id: 7 })).toMatchObject({ id: 7, state: 'ok' });
  });
  test('refused: undone, with the reason', () => {
    expect(answered(sent, { type: 'error', id: 7, code: 'offline' })).toEqual({ id: 7, state: 'refused', code: 'offline', message: undefined });
  });
  test('another frame\'s answer leaves it', () => {
    expect(answered(sent, { type: 'ack', id: 8 })).toBe(null);
    expect(answered(null, { type: 'ack', id: 7 })).toBe(null);
  });
});
