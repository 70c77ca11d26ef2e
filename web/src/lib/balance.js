// Balance before play (docs/server.md, "Balance"): the board's simulated
// village win rate, from the presets' table or POST /api/balance, as the
// create page shows it, and the one-change edits it suggests.

// The kinds of suggested change (sim.Change); ui.balance.change.<kind>.
export const CHANGE_KINDS = ['villager_to_god', 'god_to_villager', 'special_wolf', 'plain_wolf', 'wolf_more', 'wolf_less', 'option'];
export const VERDICTS = ['balanced', 'village', 'wolves'];

// A board is called balanced when the village wins 45–55% of the games.
export const BALANCED = 0.05;

// presetRow finds a preset at a size in the table (GET /api/balance/presets).
export function presetRow(table, preset, players) {
  if (!table || !Array.isArray(table.presets)) return null;
  return table.presets.find((r) => r.preset === preset && r.players === Number(players)) || null;
}

const pct = (x) => (Math.round(x * 1000) / 10).toFixed(1) + '%';

// describeBalance is what the page shows of a balance (sim.Balance): the
// village's rate and interval as percentages, the others' rates when they
// won, the games and a verdict.
export function describeBalance(b) {
  if (!b || !b.village || !b.games) return null;
  const v = b.village.rate;
  const verdict = Math.abs(v - 0.5) <= BALANCED ? 'balanced' : v > 0.5 ? 'village' : 'wolves';
  return {
    rate: pct(v),
    low: pct(b.village.low),
    high: pct(b.village.high),
    wolves: pct(b.wolves ? b.wolves.rate : 0),
    third: b.third && b.third.games > 0 ? pct(b.third.rate) : null,
    draw: b.draw && b.draw.games > 0 ? pct(b.draw.rate) : null,
    games: b.games.toLocaleString('en'),
    verdict,
    // for a bar: the rate and the interval in percent of its width
    bar: { rate: v * 100, low: b.village.low * 100, high: b.village.high * 100 },
  };
}

// applyChange is a custom board after a suggestion: a card for another, or
// an option's new value. The inputs are left as they are.
export function applyChange(cards, options, change) {
  if (change.kind === 'option') return { cards: { ...cards }, options: { ...options, [change.option]: change.to } };
  const out = { ...cards };
  if (!out[change.from]) return { cards: out, options: { ...options } }; // no longer on the board
  out[change.from] -= 1;
  if (out[change.from] === 0) delete out[change.from];
  out[change.to] = (out[change.to] || 0) + 1;
  return { cards: out, options: { ...options } };
}

// balanceRequest is the body of POST /api/balance for the board chosen on
// the create page: a preset (with its size and changed options) or a
// custom board's text.
export function balanceRequest({ mode, preset, players, changed, board }) {
  if (mode !== 'preset') return { board };
  const req = { preset: preset.name };
  if (preset.max_players > preset.min_players) req.players = Number(players);
  if (changed && Object.keys(changed).length) req.options = changed;
  return req;
}

// debounce calls fn once calls have stopped for ms; cancel drops a pending call.
export function debounce(fn, ms) {
  let timer = null;
  const call = (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      fn(...args);
    }, ms);
  };
  call.cancel = () => {
    clearTimeout(timer);
    timer = null;
  };
  return call;
}
