// The board's simulated balance on the create page (lib/balance.js and
// BalanceInfo.svelte): the figure with its interval, the verdict, the
// suggestions and what applying one does. Rendered on the server
// (svelte/server) with the English catalogue.
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { render } from 'svelte/server';
import { setLanguage } from '../lib/i18n.svelte.js';
import { applyChange, balanceRequest, debounce, describeBalance, presetRow } from '../lib/balance.js';
import BalanceInfo from './BalanceInfo.svelte';

beforeAll(async () => {
  globalThis.document ??= { documentElement: {} };
  await setLanguage('en', false);
});

const rate = (games, n, rate, low, high) => ({ games, rate, low, high, n });
const std12 = {
  games: 10000,
  seed: 1,
  village: rate(5150, 0, 0.515, 0.505203, 0.524784),
  wolves: rate(4850, 0, 0.485, 0.475216, 0.494797),
  third: rate(0, 0, 0, 0, 0.000384),
  draw: rate(0, 0, 0, 0, 0.000384),
};
const newMoon = {
  games: 2000,
  village: rate(894, 0, 0.447, 0.4253, 0.4689),
  wolves: rate(438, 0, 0.219, 0.2013, 0.2378),
  third: rate(668, 0, 0.334, 0.3137, 0.3549),
  draw: rate(0, 0, 0, 0, 0.0019),
};

describe('describeBalance', () => {
  test('the village rate and its interval, in percent with one decimal', () => {
    const d = describeBalance(std12);
    expect(d).toMatchObject({ rate: '51.5%', low: '50.5%', high: '52.5%', wolves: '48.5%', third: null, draw: null, games: '10,000', verdict: 'balanced' });
    expect(d.bar.rate).toBeCloseTo(51.5);
  });
  test('a third party is shown when it won', () => {
    expect(describeBalance(newMoon)).toMatchObject({ third: '33.4%', verdict: 'wolves' });
  });
  test('verdicts beyond 45–55%', () => {
    expect(describeBalance({ ...std12, village: rate(0, 0, 0.648, 0.639, 0.657) }).verdict).toBe('village');
    expect(describeBalance({ ...std12, village: rate(0, 0, 0.434, 0.424, 0.443) }).verdict).toBe('wolves');
    expect(describeBalance(null)).toBe(null);
  });
});

describe('the create page asks for the board chosen', () => {
  const table = { presets: [{ preset: 'std-12', players: 12, ...std12 }, { preset: 'classic', players: 12, ...std12 }] };
  test('a preset at a size of the table', () => {
    expect(presetRow(table, 'classic', '12').village.rate).toBe(0.515);
    expect(presetRow(table, 'classic', 10)).toBe(null);
    expect(presetRow(null, 'std-12', 12)).toBe(null);
  });
  test('the request: a preset with its size and changed options, or a board', () => {
    const classic = { name: 'classic', min_players: 8, max_players: 18 };
    const std = { name: 'std-12', min_players: 12, max_players: 12 };
    expect(balanceRequest({ mode: 'preset', preset: classic, players: '10', changed: { wolf_win: 'kill_all' } })).toEqual({
      preset: 'classic', players: 10, options: { wolf_win: 'kill_all' },
    });
    expect(balanceRequest({ mode: 'preset', preset: std, players: 12, changed: {} })).toEqual({ preset: 'std-12' });
    expect(balanceRequest({ mode: 'custom', board: 'players: 3\n' })).toEqual({ board: 'players: 3\n' });
  });
  test('debounced: one call after the changes stop', () => {
    vi.useFakeTimers();
    const fn = vi.fn();
    const d = debounce(fn, 500);
    d(1);
    d(2);
    vi.advanceTimersByTime(499);
    expect(fn).not.toHaveBeenCalled();
    d(3);
    vi.advanceTimersByTime(500);
    expect(fn).toHaveBeenCalledExactlyOnceWith(3);
    d(4);
    d.cancel();
    vi.advanceTimersByTime(1000);
    expect(fn).toHaveBeenCalledTimes(1);
    vi.useRealTimers();
  });
});

describe('applyChange', () => {
  const cards = { werewolf: 3, seer: 1, witch: 1, villager: 4 };
  test('a card for another, one tap', () => {
    expect(applyChange(cards, {}, { kind: 'villager_to_god', from: 'villager', to: 'guard' }).cards).toEqual({
      werewolf: 3, seer: 1, witch: 1, villager: 3, guard: 1,
    });
    expect(applyChange(cards, {}, { kind: 'god_to_villager', from: 'seer', to: 'villager' }).cards).toEqual({
      werewolf: 3, witch: 1, villager: 5,
    });
    expect(cards.villager).toBe(4); // the input is left as it is
  });
  test('an option', () => {
    const r = applyChange(cards, { wolf_win: 'kill_side', sheriff: 'none' }, { kind: 'option', option: 'wolf_win', from: 'kill_side', to: 'kill_all' });
    expect(r.options).toEqual({ wolf_win: 'kill_all', sheriff: 'none' });
    expect(r.cards).toEqual(cards);
  });
});

describe('BalanceInfo', () => {
  test('a preset from the table: the figure, the interval, the verdict, no button', () => {
    const html = render(BalanceInfo, { props: { balance: std12, source: 'table' } }).body;
    expect(html).toContain('Village wins 51.5% (50.5%–52.5%)');
    expect(html).toContain('balanced');
    expect(html).toContain('10,000 games of smart bots, computed in advance');
    expect(html).not.toContain('Balance my board');
  });
  test('a custom board: the button and the suggestions, each with its figure', () => {
    const suggestions = [
      { kind: 'villager_to_god', from: 'villager', to: 'guard', balance: { ...std12, games: 1000, village: rate(0, 0, 0.498, 0.467, 0.529) } },
      { kind: 'wolf_less', from: 'werewolf', to: 'villager', balance: { ...std12, games: 1000, village: rate(0, 0, 0.532, 0.501, 0.563) } },
      { kind: 'option', option: 'wolf_win', from: 'kill_side', to: 'kill_all', balance: { ...std12, games: 1000, village: rate(0, 0, 0.461, 0.43, 0.492) } },
    ];
    const html = render(BalanceInfo, { props: { balance: newMoon, source: 'simulation', canSuggest: true, suggestions } }).body;
    expect(html).toContain('Balance my board');
    expect(html).toContain('2,000 games of smart bots, simulated for this board');
    expect(html).toContain('third party 33.4%');
    expect(html).toContain('A villager becomes the guard');
    expect(html).toContain('One wolf less (a werewolf becomes a villager)');
    expect(html).toContain('Village wins 49.8% (46.7%–52.9%)');
    expect(html).toContain("Wolves' win: Kill a side → Kill everyone");
    expect((html.match(/data-testid="balance-apply"/g) || []).length).toBe(3);
  });
  test('loading, an error, no suggestion', () => {
    expect(render(BalanceInfo, { props: { loading: true } }).body).toContain('Simulating…');
    expect(render(BalanceInfo, { props: { error: 'too many balance simulations' } }).body).toContain(
      'The balance could not be simulated: too many balance simulations',
    );
    expect(render(BalanceInfo, { props: { balance: std12, canSuggest: true, suggestions: [] } }).body).toContain('No edit of one change found.');
  });
});
