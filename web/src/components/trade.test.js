// The warden's two-seat pick, the traders' trade/betray, the miracle
// merchant's player and gift, the lucky one's gift (ROLES-MORE-2.md): the
// panel offers what the state's choices name, in the player's words.
import { beforeAll, describe, expect, test } from 'vitest';
import { render } from 'svelte/server';
import { setLanguage } from '../lib/i18n.svelte.js';
import { actionsOf, frameOf, multiReady, toggle } from '../lib/choices.js';
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
const panel = (g, extra = {}) => {
  const actions = actionsOf(g.state.choices);
  const ring = actions.find((a) => a.key === extra.chosen) || null; // the action whose seats are being picked
  return render(ActionPanel, { props: { g, actions, ring, onact: () => {}, onsay: () => 0, names: {}, ...extra } }).body;
};

describe("the warden's pick", () => {
  const warden = {
    role: 'warden', day: 1, night: true, step: 'warden', alive, pending: true, deadline: 1,
    choices: [{ cmd: 'skip', no_target: true }, { cmd: 'pair', targets: alive, pick: 2 }],
  };
  test('two seats, sent as seats', () => {
    const [, pair] = actionsOf(warden.choices);
    expect(pair.kind).toBe('multi');
    const seats = toggle(pair, toggle(pair, [], 6), 3);
    expect(multiReady(pair, seats)).toBe(true);
    expect(frameOf(pair, { seats })).toEqual({ type: 'act', cmd: 'pair', seats: [3, 6] });
  });
  test('the panel: the seats, the pass, the prompt', () => {
    const g = game(warden, [{ kind: 'night', value: 2 }, { kind: 'step', step: 'warden', role: 'warden', mask: [4] }]);
    const html = panel(g);
    const ids = testids(html);
    for (const s of alive) expect(ids).toContain('target-pair-' + s);
    expect(ids).toContain('confirm-pair');
    expect(html).toContain('Choose the 2 players to trade');
    expect(html).toContain('Name nobody tonight');
    expect(html).toContain('You are the warden');
    expect(panel(g, { chosen: 'pair:0', picked: [3, 6] })).toContain('Seats 3, 6 trade tonight');
  });
});

describe("the traders' choice", () => {
  const trader = {
    role: 'villager', day: 1, night: true, step: 'trade', alive, pending: true, deadline: 1,
    choices: [{ cmd: 'skip', no_target: true }, { cmd: 'trade', no_target: true }, { cmd: 'betray', no_target: true }],
  };
  test('trade and betray are two buttons, sent bare', () => {
    const [, trade, betray] = actionsOf(trader.choices);
    expect(frameOf(trade, {})).toEqual({ type: 'act', cmd: 'trade' });
    expect(frameOf(betray, {})).toEqual({ type: 'act', cmd: 'betray' });
    const g = game(trader, [{ kind: 'night', value: 2 }, { kind: 'traders', to: [4, 7], mask: [4, 7] }, { kind: 'step', step: 'trade', mask: [4, 7] }]);
    const html = panel(g);
    expect(html).toContain('>Trade<');
    expect(html).toContain('>Betray<');
    expect(html).toContain('trade or betray?');
  });
});

describe("the merchant's gift and the lucky one's use", () => {
  const merchant = {
    role: 'miracle_merchant', day: 0, night: true, step: 'merchant', alive, pending: true, deadline: 1,
    choices: [{ cmd: 'skip', no_target: true }, { cmd: 'gift_check', targets: [1, 2, 3] }, { cmd: 'gift_poison', targets: [1, 2, 3] },
      { cmd: 'gift_shield', targets: [1, 2, 3] }],
  };
  test('three gifts, each a player to pick and confirm', () => {
    const g = game(merchant, [{ kind: 'night', value: 1 }, { kind: 'step', step: 'merchant', role: 'miracle_merchant', mask: [4] }]);
    for (const [cmd, label, act] of [['gift_check', 'Give a check', 'Seat 2 gets a check'], ['gift_poison', 'Give a poison', 'Seat 2 gets a poison'],
      ['gift_shield', 'Give a shield', 'Seat 2 gets a shield']]) {
      const html = panel(g, { chosen: cmd + ':0', picked: [2] });
      expect(testids(html)).toContain('confirm-' + cmd);
      expect(html).toContain('>' + label + '</h3>');
      expect(html).toContain(act);
    }
    expect(panel(g)).toContain('You are the miracle merchant');
    const [, check] = actionsOf(merchant.choices);
    expect(frameOf(check, { target: 3 })).toEqual({ type: 'act', cmd: 'gift_check', target: 3 });
  });
  test('the lucky one is told his gift and offered its command, or to keep it', () => {
    const lucky = { role: 'villager', day: 0, night: true, step: 'lucky', alive, pending: true, deadline: 1,
      choices: [{ cmd: 'skip', no_target: true }, { cmd: 'poison', targets: [1, 2, 3] }] };
    const g = game(lucky, [{ kind: 'night', value: 1 }, { kind: 'lucky', to: [4], seat: 4, value: 2 }, { kind: 'step', step: 'lucky', mask: [4] }]);
    const html = panel(g, { chosen: 'poison:0', picked: [3] });
    expect(testids(html)).toContain('confirm-poison');
    expect(html).toContain('Keep the gift');
    expect(html).toContain('You are the lucky one');
  });
});
