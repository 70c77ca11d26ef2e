// The mechanical wolf (机械狼): his imitation and each power he gains are
// target commands of the panel: imitate and the second attack have their
// own labelled groups; the check, the shield and the poison are the
// seer's, the guard's and the witch's buttons, sent as the same commands.
import { beforeAll, describe, expect, test } from 'vitest';
import { render } from 'svelte/server';
import { setLanguage } from '../lib/i18n.svelte.js';
import { actionsOf, frameOf, tableRing } from '../lib/choices.js';
import { applyFrame, newGame } from '../lib/game.js';
import ActionPanel from './ActionPanel.svelte';

beforeAll(async () => {
  globalThis.document ??= { documentElement: {} };
  await setLanguage('en', false);
});

const alive = [1, 2, 3, 4, 5, 6, 7, 8, 9];
function game(state, events) {
  const g = newGame('r');
  applyFrame(g, { type: 'welcome', room: 'r', seat: 4, players: 9 });
  events.forEach((e, i) => applyFrame(g, { type: 'event', seq: i + 1, ...e }));
  applyFrame(g, { type: 'state', seat: 4, ...state });
  return g;
}
const testids = (html) => [...html.matchAll(/data-testid="([^"]+)"/g)].map((m) => m[1]);

describe("the mechanical wolf's buttons", () => {
  test('each of his commands gets its labelled group and sends its command', () => {
    for (const [cmd, label] of [['imitate', 'Imitate'], ['check', 'Check'], ['protect', 'Protect'], ['poison', 'Poison'],
      ['double', 'Second attack']]) {
      const st = { role: 'mechanical_wolf', day: 1, night: true, step: 'night', turn: 0, alive, pending: true, deadline: 1,
        choices: [{ cmd: 'skip', no_target: true }, { cmd, targets: [1, 2, 3] }] };
      const g = game(st, [{ kind: 'night', value: 2 }, { kind: 'step', step: 'night', role: 'mechanical_wolf', seat: 0, mask: [] }]);
      const actions = actionsOf(g.state.choices);
      const act = actions.find((a) => a.cmd === cmd);
      expect(frameOf(act, { target: 2 }), cmd).toEqual({ type: 'act', cmd, target: 2 });
      const ring = tableRing(actions, '', true);
      const html = render(ActionPanel, { props: { g, actions, ring, chosen: cmd + ':1', picked: [2], onact: () => {}, onsay: () => 0, names: {} } }).body;
      expect(testids(html), cmd).toContain('confirm-' + cmd);
      expect(html, cmd).toContain('>' + label + '</h3>');
      expect(html, cmd).toMatch(/seat 2/);
    }
  });

  test('the imitated card is shown on the imitated seat, to him', () => {
    const g = game({ role: 'mechanical_wolf', day: 0, night: true, step: 'night', alive, pending: false },
      [{ kind: 'night', value: 1 }, { kind: 'imitate', seat: 4, target: 2, role: 'guard' }]);
    expect(g.checks[2]).toBe('guard');
  });
});
