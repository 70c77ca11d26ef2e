import { expect, test } from 'vitest';
import { audience, deadOf, explodedOf, knew, phaseKey, phases, speeches, winnerOf } from './replay.js';
import { CAMPS, STEPS } from './enums.js';

const log = [
  { seq: 1, kind: 'game_start', public: true, value: 3 },
  { seq: 2, kind: 'role', to: [1], seat: 1, role: 'werewolf' },
  { seq: 3, kind: 'resume', value: 3 },
  { seq: 4, kind: 'night', public: true, value: 1 },
  { seq: 5, kind: 'attack', to: [1], target: 2 },
  { seq: 6, kind: 'death', seat: 2, value: 1 },
  { seq: 7, kind: 'day', public: true, value: 1 },
  { seq: 8, kind: 'dawn', public: true, mask: [2] },
  { seq: 9, kind: 'step', public: true, value: 15, mask: [1, 3] },
  { seq: 10, kind: 'ballot', to: [1], seat: 1, target: 3 },
  { seq: 11, kind: 'ballot', to: [3], seat: 3, target: 1 },
  { seq: 12, kind: 'ballot', public: true, seat: 1, target: 3, value: 1 },
  { seq: 13, kind: 'ballot', public: true, seat: 3, target: 1, value: 1 },
  { seq: 14, kind: 'vote_result', public: true, value: 15, mask: [1, 3] },
  { seq: 15, kind: 'reveal', public: true, seat: 3, role: 'idiot', value: 1 },
  { seq: 16, kind: 'game_over', public: true, value: 2 },
];

test('night by night, ballots folded into the result, notes hidden', () => {
  const p = phases(log);
  expect(p.map((x) => `${x.kind}${x.n}:${x.items.map((i) => i.e.seq).join(',')}`)).toEqual([
    'setup0:1,2',
    'night1:4,5,6',
    'day1:7,8,9,14,15,16',
  ]);
  const vote = p[2].items.find((i) => i.e.kind === 'vote_result').e;
  expect(vote.ballots).toEqual([{ seat: 1, target: 3 }, { seat: 3, target: 1 }]);
  expect(phases(log, { notes: true })[0].items.map((i) => i.e.seq)).toEqual([1, 2, 3]);
  expect(p[1].deaths).toEqual([{ seat: 2, cause: 'attack' }]);
  expect(p[2].deaths).toEqual([]);
});

test('who knew what', () => {
  expect(audience(log[0])).toBe('public');
  expect(audience(log[1])).toEqual([1]);
  expect(audience(log[5])).toBe('moderator');
  expect(knew(log[1], 1)).toBe(true);
  expect(knew(log[1], 2)).toBe(false);
  expect(knew(log[5], 2)).toBe(false);
  const seen = phases(log, { seat: 3 }).flatMap((p) => p.items.map((i) => i.e.seq));
  expect(seen).toEqual([1, 4, 7, 8, 9, 14, 15, 16]);
});

test('the winner and the dead', () => {
  expect(winnerOf(log, CAMPS)).toBe('wolves');
  expect(winnerOf([], CAMPS)).toBe('');
  expect([...deadOf(log)]).toEqual([2]);
});

test('each day\'s speeches go to the turns they were said in', () => {
  // STEPS: 'speech' is a step number; the replay's events name steps by number
  const sp = STEPS.indexOf('speech');
  const events = [
    { seq: 1, kind: 'day', public: true, value: 1 },
    { seq: 2, kind: 'step', public: true, value: sp, seat: 3 },
    { seq: 3, kind: 'step', public: true, value: sp, seat: 4 },
    { seq: 4, kind: 'night', public: true, value: 2 },
    { seq: 5, kind: 'day', public: true, value: 2 },
    { seq: 6, kind: 'step', public: true, value: sp, seat: 3 },
  ];
  const chats = [
    { channel: 'day', seat: 3, text: 'day 2', at: '2026-01-01T10:10:00Z' },
    { channel: 'day', seat: 3, text: 'day 1', at: '2026-01-01T10:00:00Z' },
    { channel: 'day', seat: 4, text: 'me next', at: '2026-01-01T10:01:00Z' },
    { channel: 'wolves', seat: 4, text: 'psst', at: '2026-01-01T10:05:00Z' },
    { channel: 'day', seat: 4, text: 'gg', at: '2026-01-01T10:20:00Z' }, // after his last turn: the end's talk
  ];
  const { bySeq, rest } = speeches(events, chats);
  expect(bySeq.get(2).map((c) => c.text)).toEqual(['day 1']);
  expect(bySeq.get(3).map((c) => c.text)).toEqual(['me next']);
  expect(bySeq.get(6).map((c) => c.text)).toEqual(['day 2']);
  expect(rest.map((c) => c.text)).toEqual(['gg']);
});

test('a phase keeps its name over a filter', () => {
  expect(phases(log, { seat: 1 }).map(phaseKey)).toEqual(phases(log).map(phaseKey).filter((k) => phases(log, { seat: 1 }).map(phaseKey).includes(k)));
  expect(phaseKey({ kind: 'night', n: 2 })).toBe('night-2');
});

test('the self-exploded, once each, in seat order', () => {
  expect(explodedOf([
    { kind: 'explode', public: true, seat: 7 },
    { kind: 'death', public: true, seat: 7, value: 5 },
    { kind: 'explode', public: true, seat: 2, target: 4 },
    { kind: 'death', public: true, seat: 4, value: 5 },
  ])).toEqual([2, 7]);
  expect(explodedOf(log)).toEqual([]);
  expect(explodedOf(undefined)).toEqual([]);
});
