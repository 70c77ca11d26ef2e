import { describe, expect, test } from 'vitest';
import { freeSeats, isPractice, placeFields, seatState, seedFields, timerLabel, timerSecs } from './rooms.js';
import { PACE_DEFAULT } from './enums.js';

describe('practice rooms', () => {
  test('a seed in the form makes the room a practice room', () => {
    expect(seedFields('42')).toEqual({ seed: 42, practice: true });
    expect(seedFields(' 9 ')).toEqual({ seed: 9, practice: true });
    expect(seedFields(0)).toEqual({ seed: 0, practice: true });
  });
  test('no seed: an ordinary room, and no practice field at all', () => {
    expect(seedFields('')).toEqual({});
    expect(seedFields('  ')).toEqual({});
    expect(seedFields(undefined)).toEqual({});
  });
  test('the room info or the welcome says so', () => {
    expect(isPractice({ practice: true }, null)).toBe(true);
    expect(isPractice({}, { practice: true })).toBe(true);
    expect(isPractice({ id: 'x' }, { practice: false })).toBe(false);
    expect(isPractice(null, null)).toBe(false);
  });
});

describe('closed seats', () => {
  const room = {
    players: 5, taken: 2,
    seats: [{ seat: 1, nick: 'Al' }, { seat: 2, bot: true }, { seat: 3, closed: true }, { seat: 4 }, { seat: 5 }],
  };
  test('a seat the host emptied is closed, not free', () => {
    expect(room.seats.map(seatState)).toEqual(['player', 'bot', 'closed', 'empty', 'empty']);
    expect(freeSeats(room)).toBe(2);
  });
  test('a server without closed seats: every empty seat is free', () => {
    expect(freeSeats({ players: 3, taken: 1, seats: [{ seat: 1, nick: 'a' }, { seat: 2 }, { seat: 3 }] })).toBe(2);
    expect(freeSeats({ players: 9, taken: 4 })).toBe(5);
  });
});

describe('placeFields', () => {
  test('a room for a table waits for the cards; its quick pace is the server\'s default, not sent', () => {
    expect(placeFields('table', 'quick', PACE_DEFAULT)).toEqual({ card_seen: true });
    expect(placeFields('table', 'relaxed', PACE_DEFAULT)).toEqual({ card_seen: true, pace: 'relaxed' });
  });
  test('an online room sends a pace only when not standard', () => {
    expect(placeFields('online', 'standard', PACE_DEFAULT)).toEqual({});
    expect(placeFields('online', 'quick', PACE_DEFAULT)).toEqual({ pace: 'quick' });
  });
});

describe('timer fields', () => {
  test('read seconds or a duration of hours and minutes, and nothing else', () => {
    expect(timerSecs('90')).toBe(90);
    expect(timerSecs('1.5')).toBe(1.5);
    expect(timerSecs('24h')).toBe(86400);
    expect(timerSecs('1h30m')).toBe(5400);
    expect(timerSecs('45s')).toBe(45);
    expect(timerSecs(' 12h ')).toBe(43200);
    for (const bad of ['', 'h', 'a day', '-5', '5 h', '1d']) expect(timerSecs(bad)).toBeNaN();
  });
  test('show a pace of hours in hours', () => {
    expect(timerLabel(72000)).toBe('20h');
    expect(timerLabel(5400)).toBe('90m');
    expect(timerLabel(90)).toBe('90');
    expect(timerLabel(1.5)).toBe('1.5');
    expect(timerLabel('')).toBe('');
  });
});
