// The magician picks two seats to swap, as cupid links two lovers: the panel
// offers the seats of the choice, asks for two, and sends them as seats.
import { beforeAll, describe, expect, test } from 'vitest';
import { render } from 'svelte/server';
import { setLanguage } from '../lib/i18n.svelte.js';
import { actionsOf, frameOf, multiReady, ringTap, tableRing, toggle } from '../lib/choices.js';
import { applyFrame, newGame } from '../lib/game.js';
import ActionPanel from './ActionPanel.svelte';

beforeAll(async () => {
  globalThis.document ??= { documentElement: {} };
  await setLanguage('en', false);
});

const alive = [1, 2, 3, 4, 5, 6, 7, 8, 9];
const magician = {
  role: 'magician', day: 0, night: true, step: 'magician', alive, pending: true, deadline: 1,
  choices: [{ cmd: 'skip', no_target: true }, { cmd: 'swap', targets: alive, pick: 2 }],
};

function game(state, events) {
  const g = newGame('r');
  applyFrame(g, { type: 'welcome', room: 'r', seat: 4, players: 9 });
  events.forEach((e, i) => applyFrame(g, { type: 'event', seq: i + 1, ...e }));
  applyFrame(g, { type: 'state', seat: 4, ...state });
  return g;
}
const events = [{ kind: 'night', value: 1 }, { kind: 'step', step: 'magician', role: 'magician', seat: 0, mask: [4] }];
const testids = (html) => [...html.matchAll(/data-testid="([^"]+)"/g)].map((m) => m[1]);

describe("the magician's swap", () => {
  test('two seats, then the frame names both', () => {
    const [, swap] = actionsOf(magician.choices);
    expect(swap.kind).toBe('multi');
    let seats = toggle(swap, [], 7);
    expect(multiReady(swap, seats)).toBe(false);
    seats = toggle(swap, seats, 2);
    expect(multiReady(swap, seats)).toBe(true);
    expect(toggle(swap, seats, 5)).toEqual(seats); // never a third
    expect(frameOf(swap, { seats })).toEqual({ type: 'act', cmd: 'swap', seats: [2, 7] });
  });

  test('the ring picks the two seats too', () => {
    const actions = actionsOf(magician.choices);
    const ring = tableRing(actions, '', true);
    expect(ring.cmd).toBe('swap');
    let s = ringTap(ring, actions, '', [], 3);
    s = ringTap(ring, actions, s.chosen, s.picked, 8);
    expect(s).toEqual({ chosen: 'swap:0', picked: [3, 8] });
  });

  test('the panel: every seat offered, two asked for, the pass, the prompt', () => {
    const g = game(magician, events);
    const actions = actionsOf(g.state.choices);
    const ring = tableRing(actions, '', true);
    const html = render(ActionPanel, { props: { g, actions, ring, onact: () => {}, onsay: () => 0, names: {} } }).body;
    const ids = testids(html);
    expect(ids).toContain('action-swap');
    for (const s of alive) expect(ids).toContain('target-swap-' + s);
    expect(ids).toContain('confirm-swap');
    expect(ids).toContain('act-skip');
    expect(html).toContain('Choose the 2 players to swap');
    expect(html).toContain('Choose two seats');
    expect(html).toContain('Swap nobody tonight');
    expect(html).toContain('You are the magician');
    const chosen = render(ActionPanel, { props: { g, actions, ring, chosen: 'swap:0', picked: [2, 6], onact: () => {}, onsay: () => 0, names: {} } }).body;
    expect(chosen).toContain('Swap seats 2, 6');
  });

  test('each new target command gets its labelled group', () => {
    for (const [role, step, cmd, label] of [['knight', 'speech', 'duel', 'Duel'], ['crow', 'night', 'curse', 'Curse'],
      ['dreamcatcher', 'night', 'dream', 'Dream'], ['witch_hunter', 'night', 'hunt', 'Hunt'], ['nightmare', 'nightmare', 'fear', 'Fear'],
      ['wild_child', 'night', 'model', 'Model'], ['ghost_bride', 'bride', 'groom', 'Groom'], ['ghost_bride', 'bride', 'witness', 'Witness']]) {
      const st = { role, day: 1, night: step !== 'speech', step, turn: step === 'speech' ? 4 : 0, alive, pending: true, deadline: 1,
        choices: [{ cmd, targets: [1, 2, 3] }] };
      const g = game(st, [{ kind: 'night', value: 1 }]);
      const actions = actionsOf(g.state.choices);
      const ring = tableRing(actions, '', true);
      const html = render(ActionPanel, { props: { g, actions, ring, chosen: cmd + ':0', picked: [2], onact: () => {}, onsay: () => 0, names: {} } }).body;
      expect(testids(html), cmd).toContain('confirm-' + cmd);
      expect(html, cmd).toContain('>' + label + '</h3>');
      expect(html, cmd).toMatch(/seat 2/);
    }
  });

  test("the ghost bride's step says what she does; she must pick, no pass (鬼魂新娘)", () => {
    for (const cmd of ['groom', 'witness']) {
      const st = { role: 'ghost_bride', day: 0, night: true, step: 'bride', turn: 0, alive, pending: true, deadline: 1, choices: [{ cmd, targets: [1, 2, 3] }] };
      const g = game(st, [{ kind: 'night', value: 1 }]);
      const actions = actionsOf(g.state.choices);
      const ring = tableRing(actions, '', true);
      const html = render(ActionPanel, { props: { g, actions, ring, onact: () => {}, onsay: () => 0, names: {} } }).body;
      expect(html).toContain('You are the ghost bride: wed a groom, then name a witness.');
      expect(testids(html)).toContain('target-' + cmd + '-2');
      expect(testids(html)).not.toContain('act-skip');
    }
  });
});
