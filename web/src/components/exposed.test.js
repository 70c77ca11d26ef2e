// The self-exploded (自爆) are marked of the wolf camp for everyone: on the
// seat ring from the state's `exposed`, and in the replay from its explode
// events. The mark never shows a card the seat was not told. Rendered on the
// server (svelte/server) with the English catalogue.
import { beforeAll, describe, expect, test } from 'vitest';
import { render } from 'svelte/server';
import { setLanguage } from '../lib/i18n.svelte.js';
import { applyFrame, newGame } from '../lib/game.js';
import SeatRing from './SeatRing.svelte';
import Replay from './Replay.svelte';
import EndSummary from './EndSummary.svelte';

beforeAll(async () => {
  globalThis.document ??= { documentElement: {} };
  await setLanguage('en', false);
});

// a 6-seat table after seat 5, a werewolf, self-exploded by day, as seat `seat` knows it
function table(seat, extra = {}) {
  const g = newGame('r');
  applyFrame(g, { type: 'welcome', room: 'r', seat, players: 6 });
  applyFrame(g, { type: 'event', seq: 1, kind: 'explode', seat: 5 });
  applyFrame(g, { type: 'state', seat, day: 1, night: false, alive: [1, 2, 3, 4, 6], exposed: [5], ...extra });
  return g;
}

const ring = (g, props = {}) => render(SeatRing, { props: { g, players: 6, names: {}, onpick: () => {}, ...props } }).body;

// the disc of seat n: its aria-label and what it holds
function disc(html, n) {
  const m = new RegExp(`<button[^>]*aria-label="([^"]*)"[^>]*data-testid="seat-${n}"[^>]*>([\\s\\S]*?)</button>`).exec(html);
  expect(m, 'seat ' + n).toBeTruthy();
  return { label: m[1], inner: m[2] };
}

describe('the ring marks the self-exploded', () => {
  test('for a villager: the mark and its label, no card', () => {
    const html = ring(table(2, { role: 'villager' }));
    const five = disc(html, 5);
    expect(five.label).toContain('self-exploded: wolf camp');
    expect(five.label).toContain('dead');
    expect(five.label).not.toMatch(/werewolf/i);
    expect(five.inner).toContain('data-testid="exposed-5"');
    expect(html).not.toMatch(/>\s*werewolf\s*</i); // no caption names his card
    expect(html).toContain('Exploded'); // his caption says so
    for (const n of [1, 2, 3, 4, 6]) {
      expect(disc(html, n).label).not.toContain('self-exploded');
      expect(disc(html, n).inner).not.toContain('exposed-');
    }
  });

  test('for the spectator and the table device, and with the card hidden', () => {
    expect(disc(ring(table(0)), 5).inner).toContain('exposed-5');
    expect(disc(ring(table(3, { role: 'seer' }), { hidden: true }), 5).label).toContain('self-exploded: wolf camp');
  });

  test('from the state only: no explosion in it, no mark', () => {
    const html = ring(table(2, { role: 'villager', exposed: undefined }));
    expect(html).not.toContain('exposed-');
    expect(html).not.toContain('self-exploded');
  });

  test('a card the seat knows stays as it knew it (a wolf mate)', () => {
    const html = ring(table(1, { role: 'werewolf', wolves: [1, 5], known: { 5: 'werewolf' } }));
    const five = disc(html, 5);
    expect(five.label).toContain('werewolf'); // his mate knew his card before
    expect(five.label).toContain('self-exploded: wolf camp');
  });
});

describe('the replay marks the seat of every explosion', () => {
  const data = {
    room: { players: 6 },
    roles: { 1: 'werewolf', 2: 'seer', 3: 'villager', 4: 'white_wolf_king', 5: 'witch', 6: 'hunter' },
    events: [
      { seq: 1, kind: 'game_start', public: true, value: 6 },
      { seq: 2, kind: 'night', public: true, value: 1 },
      { seq: 3, kind: 'day', public: true, value: 1 },
      { seq: 4, kind: 'explode', public: true, seat: 1 },
      { seq: 5, kind: 'death', public: true, seat: 1, value: 5 },
      { seq: 6, kind: 'night', public: true, value: 2 },
      { seq: 7, kind: 'day', public: true, value: 2 },
      { seq: 8, kind: 'explode', public: true, seat: 4, target: 6 },
    ],
  };

  test('each explode line carries the mark of its seat', () => {
    const html = render(Replay, { props: { data, roomId: 'r', names: {} } }).body;
    expect(html).toContain('data-testid="replay-exposed-1"');
    expect(html).toContain('data-testid="replay-exposed-4"');
    for (const n of [2, 3, 5, 6]) expect(html).not.toContain('replay-exposed-' + n);
  });

  test('the end marks the same seats', () => {
    const html = render(EndSummary, {
      props: { winner: 'village', roles: data.roles, alive: [2, 3, 5], players: 6, names: {}, exposed: [1, 4] },
    }).body;
    expect(html).toContain('end-exposed-1');
    expect(html).toContain('end-exposed-4');
    expect(html).not.toContain('end-exposed-6');
    expect(html).toContain('self-exploded: wolf camp');
  });
});
