// The action panel offers what the state's choices list, and nothing else:
// the shot inside the night (night_shot=in_night) as in the day's skill
// window, for the shooter alone; the thief facing two wolf cards without a
// pass when the engine lists none. Rendered on the server with the English
// catalogue.
import { beforeAll, describe, expect, test } from 'vitest';
import { render } from 'svelte/server';
import { setLanguage } from '../lib/i18n.svelte.js';
import { actionsOf, tableRing } from '../lib/choices.js';
import { applyFrame, newGame } from '../lib/game.js';
import ActionPanel from './ActionPanel.svelte';
import SeatRing from './SeatRing.svelte';
import PhaseBanner from './PhaseBanner.svelte';

beforeAll(async () => {
  globalThis.document ??= { documentElement: {} };
  await setLanguage('en', false);
});

function game(seat, state, events = []) {
  const g = newGame('r');
  applyFrame(g, { type: 'welcome', room: 'r', seat, players: 9 });
  events.forEach((e, i) => applyFrame(g, { type: 'event', seq: i + 1, ...e }));
  applyFrame(g, { type: 'state', seat, ...state });
  return g;
}

function panel(g) {
  const actions = actionsOf(g.state.choices);
  const ring = tableRing(actions, '', !!g.state.pending);
  return render(ActionPanel, { props: { g, actions, ring, onact: () => {}, onsay: () => 0, names: {} } }).body;
}

const testids = (html) => [...html.matchAll(/data-testid="([^"]+)"/g)].map((m) => m[1]);

const alive = [1, 2, 3, 4, 5, 6, 7, 8, 9];
const night = [{ kind: 'night', value: 1 }];

// p2_night_hunter_shoots_in_night: seat 6, the hunter, is killed and woken alone to shoot
const shooter = {
  role: 'hunter', day: 0, night: true, step: 'night_shot', turn: 6, alive, pending: true, deadline: 1,
  choices: [{ cmd: 'skip', no_target: true }, { cmd: 'shoot', targets: [1, 2, 3, 4, 5, 7, 8, 9] }],
};
const step = { kind: 'step', step: 'night_shot', seat: 6, mask: [6] };

describe('the shot inside the night', () => {
  test('the shooter is offered the shot and the pass, as in the skill window', () => {
    const html = panel(game(6, shooter, [...night, step]));
    const ids = testids(html);
    expect(ids).toContain('action-shoot');
    for (const s of [1, 2, 3, 4, 5, 7, 8, 9]) expect(ids).toContain('target-shoot-' + s);
    expect(ids).not.toContain('target-shoot-6');
    expect(ids).toContain('confirm-shoot');
    expect(ids).toContain('act-skip');
    expect(html).toContain('data-pending="1"');
    expect(html).toContain('You died tonight: shoot a player now, or pass.');
    expect(html).toContain('Do not shoot');
    // the same panel as the skill window's, the prompt aside
    const day = panel(game(6, { ...shooter, night: false, day: 1, step: 'skill' }));
    const strip = (h) => testids(h).filter((x) => x !== 'action-panel');
    expect(strip(day)).toEqual(strip(html));
  });

  test('the ring offers his targets; at a table his phone\'s ring is a sleeper\'s', () => {
    const g = game(6, shooter, [...night, step]);
    const ring = tableRing(actionsOf(g.state.choices), '', true);
    // at a table a phone's ring is the same by night woken or asleep: the panel holds the shot
    const phone = render(SeatRing, { props: { g, players: 9, names: {}, ring, onpick: () => {}, atTable: true } }).body;
    const sleeper = render(SeatRing, { props: { g: game(6, { ...shooter, pending: false, step: undefined, turn: 0, choices: [] }, night), players: 9, names: {}, ring: null, onpick: () => {}, atTable: true } }).body;
    expect(phone).toBe(sleeper);
    const html = render(SeatRing, { props: { g, players: 9, names: {}, ring, onpick: () => {} } }).body;
    expect(html).toContain('Whom to shoot?');
    const tag = (n) => new RegExp(`<button[^>]*data-testid="seat-${n}"[^>]*>`).exec(html)[0];
    expect(tag(1)).not.toContain('disabled');
    expect(tag(6)).toContain('disabled'); // not himself
  });

  test('any other seat sees the night as before: no panel, no step, no shot', () => {
    // what seat 3 (the seer, done for the night) holds while 6 decides: the night's state, unchanged
    const other = { role: 'seer', day: 0, night: true, alive, pending: false, deadline: 1 };
    const g = game(3, other, night);
    const html = panel(g);
    expect(html).not.toContain('action-panel');
    const ring = render(SeatRing, { props: { g, players: 9, names: {}, ring: null, onpick: () => {} } }).body;
    expect(ring).not.toMatch(/shoot|Last shot/i);
    const banner = render(PhaseBanner, { props: { g, room: { id: 'r' }, auth: {}, status: 'open', table: false } }).body;
    expect(banner).not.toMatch(/Last shot|shoot/i);
  });

  test('his shot in the night is his: a private line, never said aloud (lib/game.js marks it)', () => {
    const g = game(6, { ...shooter, pending: false, choices: [] }, [...night, step, { kind: 'shoot', seat: 6, target: 1 }]);
    expect(g.events.find((e) => e.kind === 'shoot').secret).toBe(true);
    expect(g.events.find((e) => e.kind === 'step').secret).toBe(true);
  });
});

describe('the panel offers only what the choices list', () => {
  test('the thief facing two wolf cards: the cards, no pass', () => {
    const thief = {
      role: 'thief', day: 0, night: true, step: 'thief', alive, pending: true, deadline: 1,
      choices: [{ cmd: 'take', no_target: true, value: 1 }, { cmd: 'take', no_target: true, value: 2 }],
    };
    const html = panel(game(4, thief, [{ kind: 'extra_cards', seat: 4, role: 'werewolf', value: 1 }]));
    const ids = testids(html);
    expect(ids).toContain('act-take-1');
    expect(ids).toContain('act-take-2');
    expect(ids).not.toContain('act-skip');
    expect(html).not.toContain('Keep my card');
    // with the pass listed, it is offered
    const free = panel(game(4, { ...thief, choices: [{ cmd: 'skip', no_target: true }, ...thief.choices] }));
    expect(free).toContain('Keep my card');
  });

  test('every button is one of the choices', () => {
    const cases = [
      shooter,
      { ...shooter, choices: [{ cmd: 'shoot', targets: [1, 2] }] },
      { role: 'witch', night: true, step: 'witch', alive, pending: true, choices: [{ cmd: 'heal', targets: [3], no_target: true }, { cmd: 'poison', targets: [1, 2] }] },
    ];
    for (const st of cases) {
      const ids = testids(panel(game(6, st)));
      const cmds = new Set(st.choices.map((c) => c.cmd));
      for (const id of ids) {
        const m = id === 'action-panel' ? null : /^(?:act|action|confirm|none|target)-([a-z_]+)/.exec(id);
        if (m) expect(cmds.has(m[1]), id).toBe(true);
      }
    }
  });
});

// The dance (舞者, 假面): the dancer's three-seat pick says how many seats
// it needs; the masquerade, in his own stage, is offered his question and
// his mask, and a pass that says "no mask".
describe('the dance', () => {
  test("the dancer's pick: the dance's seats, a confirm and the line asking for three", () => {
    const st = {
      role: 'dancer', day: 1, night: true, step: 'night', alive, pending: true, deadline: 1,
      choices: [{ cmd: 'dance', targets: [1, 2, 3, 4, 5, 6, 7, 8, 9], pick: 3 }],
    };
    const html = panel(game(4, st, [{ kind: 'night', value: 2 }]));
    const ids = testids(html);
    for (const s of alive) expect(ids).toContain('target-dance-' + s);
    expect(ids).toContain('confirm-dance');
    expect(ids).not.toContain('act-skip'); // he must dance
    expect(ids).toContain('multi-hint-dance');
    expect(html).toContain('Choose the 3 dancers');
    expect(html).toContain('Choose exactly 3 seats: 0 chosen.');
  });
  test('the masquerade: the question, the mask and the pass', () => {
    const st = {
      role: 'masquerade', day: 1, night: true, step: 'masquerade', alive, pending: true, deadline: 1,
      choices: [{ cmd: 'skip', no_target: true }, { cmd: 'ask', targets: alive }, { cmd: 'mask', targets: alive }],
    };
    const html = panel(game(9, st, [{ kind: 'night', value: 2 }, { kind: 'step', step: 'masquerade', mask: [9] }]));
    const ids = testids(html);
    expect(ids).toContain('action-ask');
    expect(ids).toContain('action-mask');
    expect(ids).toContain('target-ask-9'); // himself too
    expect(ids).toContain('act-skip');
    expect(html).toContain('You are the masquerade');
    expect(html).toContain('No mask tonight');
  });
});
