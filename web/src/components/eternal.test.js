// std-12-eternal's buttons (ROLES-MORE-2.md 蚀时狼妃, 定序王子): the eclipse
// wolf queen picks one seat to shelter in her own stage, told to her alone;
// the prince's window after the first exile vote is the same public step for
// every living seat, and only the prince's screen holds the rewind button.
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

const alive = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
const testids = (html) => [...html.matchAll(/data-testid="([^"]+)"/g)].map((m) => m[1]);

function game(seat, state, events) {
  const g = newGame('r');
  applyFrame(g, { type: 'welcome', room: 'r', seat, players: 12 });
  events.forEach((e, i) => applyFrame(g, { type: 'event', seq: i + 1, ...e }));
  applyFrame(g, { type: 'state', seat, ...state });
  return g;
}

function panel(g, extra = {}) {
  const actions = actionsOf(g.state.choices);
  const ring = tableRing(actions, '', true);
  return { actions, html: render(ActionPanel, { props: { g, actions, ring, onact: () => {}, onsay: () => 0, names: {}, ...extra } }).body };
}

describe("the eclipse wolf queen's shelter", () => {
  const queen = {
    role: 'eclipse_wolf_queen', day: 0, night: true, step: 'eclipse', alive, pending: true, deadline: 1,
    choices: [{ cmd: 'skip', no_target: true }, { cmd: 'shelter', targets: alive.filter((s) => s !== 3) }],
  };
  const events = [{ kind: 'night', value: 2 }, { kind: 'step', step: 'eclipse', role: 'eclipse_wolf_queen', seat: 0, mask: [12] }];

  test('one seat of the choice, last night\'s left out, then the frame names it', () => {
    const g = game(12, queen, events);
    const { actions, html } = panel(g);
    const ids = testids(html);
    expect(ids).toContain('action-shelter');
    for (const s of alive) expect(ids.includes('target-shelter-' + s), String(s)).toBe(s !== 3);
    expect(ids).toContain('act-skip');
    expect(html).toContain('>Shelter</h3>');
    expect(html).toContain('Shelter nobody tonight');
    expect(html).toContain('You are the eclipse wolf queen');
    const shelter = actions.find((a) => a.cmd === 'shelter');
    expect(frameOf(shelter, { target: 7 })).toEqual({ type: 'act', cmd: 'shelter', target: 7 });
    const chosen = render(ActionPanel, { props: { g, actions, ring: tableRing(actions, '', true), chosen: shelter.key, picked: [7], onact: () => {}, onsay: () => 0, names: {} } }).body;
    expect(chosen).toContain('Shelter seat 7');
  });

  test('her stage is marked as told to her alone', () => {
    const g = game(12, queen, events);
    expect(g.events.find((e) => e.kind === 'step' && e.step === 'eclipse').secret).toBe(true);
  });
});

describe("the sequence prince's window", () => {
  const window = (role, choices) => ({ role, day: 1, night: false, step: 'rewind', alive, pending: true, deadline: 1, choices });
  const events = [{ kind: 'day', value: 1 }, { kind: 'vote_result', value: 15, mask: [5], target: 5 },
    { kind: 'step', step: 'rewind', seat: 0, mask: alive }];

  test('the prince: the rewind button and the pass', () => {
    const g = game(4, window('sequence_prince', [{ cmd: 'skip', no_target: true }, { cmd: 'rewind', no_target: true }]), events);
    const { actions, html } = panel(g);
    expect(testids(html)).toContain('act-rewind');
    expect(html).toContain('Reveal the prince and void this vote');
    expect(html).toContain('Let the vote stand');
    expect(frameOf(actions.find((a) => a.cmd === 'rewind'))).toEqual({ type: 'act', cmd: 'rewind' });
  });

  test('any other seat: the same prompt and the pass, no rewind', () => {
    const prince = panel(game(4, window('sequence_prince', [{ cmd: 'skip', no_target: true }, { cmd: 'rewind', no_target: true }]), events)).html;
    const html = panel(game(7, window('villager', [{ cmd: 'skip', no_target: true }]), events)).html;
    expect(testids(html)).not.toContain('act-rewind');
    expect(html).toContain('Let the vote stand');
    const prompt = (h) => (h.match(/The vote is published[^<]*/) || [''])[0];
    expect(prompt(html)).not.toBe('');
    expect(prompt(html)).toBe(prompt(prince));
  });

  test('no rewind button in any other step', () => {
    const g = game(4, { role: 'sequence_prince', day: 1, night: false, step: 'vote', alive, pending: true, deadline: 1,
      choices: [{ cmd: 'abstain', no_target: true }, { cmd: 'vote', targets: alive }] }, events.slice(0, 1));
    expect(testids(panel(g).html)).not.toContain('act-rewind');
  });
});
