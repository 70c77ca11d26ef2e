// At a table (a room with card_seen) every living phone shows the same
// banner and ring by night, woken or asleep (issue 23, "A woken seat's
// phone differs from a decoy's"): the
// seer at his check and a sleeping villager see the same title, line and
// countdown (the night's end, not the seer's slot's), and the same ring;
// what differs is inside the task only. Rendered on the server with the
// English catalogue.
import { beforeAll, expect, test } from 'vitest';
import { render } from 'svelte/server';
import { setLanguage } from '../lib/i18n.svelte.js';
import { actionsOf, tableRing } from '../lib/choices.js';
import { applyFrame, newGame } from '../lib/game.js';
import SeatRing from './SeatRing.svelte';
import PhaseBanner from './PhaseBanner.svelte';

beforeAll(async () => {
  globalThis.document ??= { documentElement: {} };
  await setLanguage('en', false);
});

const alive = [1, 2, 3, 4, 5, 6, 7, 8, 9];
const nightEnd = Date.now() + 95000;
const slotEnd = Date.now() + 21000;

function game(seat, state) {
  const g = newGame('r');
  applyFrame(g, { type: 'welcome', room: 'r', seat, players: 9 });
  applyFrame(g, { type: 'event', seq: 1, kind: 'night', value: 1 });
  applyFrame(g, { type: 'state', seat, ...state });
  return g;
}

// the seer woken at his slot, and a villager asleep, as the server tells them
const seer = game(3, { role: 'seer', day: 0, night: true, step: 'night', alive, pending: true, deadline: slotEnd, night_end: nightEnd,
  choices: [{ cmd: 'check', targets: [1, 2, 4, 5, 6, 7, 8, 9] }] });
const villager = game(5, { role: 'villager', day: 0, night: true, alive, pending: false, deadline: nightEnd, night_end: nightEnd });

const banner = (g) => render(PhaseBanner, { props: { g, room: { id: 'r', card_seen: true }, auth: {}, status: 'open', table: false } }).body;
const ring = (g) => {
  const r = tableRing(actionsOf(g.state.choices), '', !!g.state.pending);
  return render(SeatRing, { props: { g, players: 9, names: {}, ring: r, picked: [], onpick: () => {}, hidden: true, atTable: true } }).body;
};
const text = (html) => html.replace(/<!--[^>]*-->/g, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();

test('the banner is the same on the woken seer\'s phone and a sleeper\'s: title, line, countdown to the night\'s end', () => {
  const a = banner(seer);
  const b = banner(villager);
  expect(text(a)).toBe(text(b));
  const clock = (h) => /role="timer"[^>]*>([^<]*)</.exec(h)?.[1];
  expect(clock(a)).toBe(clock(b));
  expect(clock(a)).toBe('1:35');
  expect(a.replace(/svelte-\w+/g, '')).toBe(b.replace(/svelte-\w+/g, ''));
});

test('the ring is the same on both: its classes, centre and targets; no prompt on the woken seat\'s', () => {
  // the seat marked "me" differs by seat, not by role: set aside
  const classes = (h) => [...h.matchAll(/class="([^"]*)"/g)].map((m) => m[1].replace(/svelte-\w+/g, '').replace(/\bme\b/, '').replace(/\s+/g, ' ').trim());
  const enabled = (h) => [...h.matchAll(/<button[^>]*>/g)].map((m) => !m[0].includes('disabled'));
  const a = ring(seer);
  const b = ring(villager);
  expect(classes(a)).toEqual(classes(b));
  expect(enabled(a)).toEqual(enabled(b));
  expect(text(a).replace(/ you/, '')).toBe(text(b).replace(/ you/, ''));
  expect(a).not.toMatch(/Whom to check|target/);
});

test('online (no table), the woken seat keeps his slot\'s countdown and the ring where he picks', () => {
  const online = (g) => render(PhaseBanner, { props: { g, room: { id: 'r' }, auth: {}, status: 'open', table: false } }).body;
  expect(/role="timer"[^>]*>([^<]*)</.exec(online(seer))?.[1]).toBe('0:21');
  const r = tableRing(actionsOf(seer.state.choices), '', true);
  expect(render(SeatRing, { props: { g: seer, players: 9, names: {}, ring: r, onpick: () => {} } }).body).toMatch(/target/);
});
