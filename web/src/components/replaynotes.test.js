// A wolfden arena game's replay shows each model's replies, reasoning
// included, which the server keeps after the game's end (docs/arena.md);
// a replay without them shows no such block. Rendered on the server
// (svelte/server) with the English catalogue.
import { beforeAll, expect, test } from 'vitest';
import { render } from 'svelte/server';
import { setLanguage } from '../lib/i18n.svelte.js';
import Replay from './Replay.svelte';

beforeAll(async () => {
  globalThis.document ??= { documentElement: {} };
  await setLanguage('en', false);
});

const data = (extra = {}) => ({
  room: { players: 6 },
  events: [{ seq: 1, kind: 'game_over', camp: 'village', audience: 'public' }],
  chats: [],
  ...extra,
});

test("an arena game's replay lists the models' replies by seat", () => {
  const notes = [
    { seat: 2, text: '<think>seat 5 is quiet</think>{"action":{"cmd":"vote","target":5}}', at: 1 },
    { seat: 4, text: '{"action":{"cmd":"skip"}}', at: 2 },
  ];
  const html = render(Replay, { props: { data: data({ notes }), roomId: 'r', names: { 2: { nick: 'llm:m' } } } }).body;
  expect(html).toContain('data-testid="replay-models"');
  expect(html).toContain("The models' replies, reasoning included (kept after the end)");
  expect(html).toContain('2 replies');
  expect(html).toContain('&lt;think>seat 5 is quiet&lt;/think>');
  expect(html).toContain('llm:m');
});

test('a replay without notes has no models block', () => {
  const html = render(Replay, { props: { data: data({ notes: [] }), roomId: 'r', names: {} } }).body;
  expect(html).not.toContain('replay-models');
  expect(render(Replay, { props: { data: data(), roomId: 'r', names: {} } }).body).not.toContain('replay-models');
});
