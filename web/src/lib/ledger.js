// The ledger as the client shows it (docs/accounts.md): rated boards,
// rating changes, win rates with their intervals.

// The simulated village rates between which a board is rated
// (internal/ledger: RatedLow, RatedHigh).
export const RATED_LOW = 0.4;
export const RATED_HIGH = 0.6;

// ratedBoard: whether the create page's board would be rated: a preset as
// it is (its figure from the balance table, never a simulation), no seed.
export function ratedBoard(balance, source, seed) {
  if (String(seed ?? '').trim() !== '' || source !== 'table' || !balance || !balance.village) return false;
  const r = balance.village.rate;
  return r >= RATED_LOW && r <= RATED_HIGH;
}

// signed: a change with its sign, one decimal.
export const signed = (x) => (x > 0 ? '+' : x < 0 ? '−' : '±') + Math.abs(x).toFixed(1);

// num: a rating, one decimal, with a true minus sign.
export const num = (x) => x.toFixed(1).replace('-', '−');

// pct: a rate as a whole percentage.
export const pct = (x) => Math.round(100 * x) + '%';

// change: a result's rating change in the ordinal the leaderboard sorts by.
export function change(before, after) {
  if (!before || !after) return null;
  return { from: before.ordinal, to: after.ordinal, delta: after.ordinal - before.ordinal, mu: after.mu - before.mu };
}
