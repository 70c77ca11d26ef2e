// The crow's curse (乌鸦) in the vote result: the vote it adds is counted in
// the cursed seat's total and shown beside the ballots, without the crow's
// seat, on the table, in the log and in the replay.
import { beforeAll, describe, expect, test } from 'vitest';
import { render } from 'svelte/server';
import { setLanguage } from '../lib/i18n.svelte.js';
import { applyFrame, newGame, tally } from '../lib/game.js';
import { phases } from '../lib/replay.js';
import { STEPS } from '../lib/enums.js';
import VoteResult from './VoteResult.svelte';

beforeAll(async () => {
  globalThis.document ??= { documentElement: {} };
  await setLanguage('en', false);
});

// day 1's exile vote: 2 and 3 vote for 6, 6 for 2; the crow (seat 1) cursed 6
const frames = [
  { kind: 'day', value: 1 },
  { kind: 'step', step: 'vote' },
  { kind: 'ballot', seat: 2, target: 6, value: 1 },
  { kind: 'ballot', seat: 3, target: 6, value: 1 },
  { kind: 'ballot', seat: 6, target: 2, value: 1 },
  { kind: 'cursed_vote', target: 6, value: STEPS.indexOf('vote') },
  { kind: 'vote_result', step: 'vote', value: STEPS.indexOf('vote'), mask: [6], target: 6 },
];

function seen(seat) {
  const g = newGame('r');
  applyFrame(g, { type: 'welcome', room: 'r', seat, players: 12 });
  frames.forEach((f, i) => applyFrame(g, { type: 'event', seq: i + 1, ...f }));
  return g;
}

describe("the crow's curse in the vote result", () => {
  test('the reducer gives the vote its curse, and the next vote none', () => {
    const g = seen(4);
    expect(g.lastVote.curse).toBe(6);
    applyFrame(g, { type: 'event', seq: 8, kind: 'step', step: 'pk_vote' });
    applyFrame(g, { type: 'event', seq: 9, kind: 'ballot', seat: 2, target: 6, value: 1 });
    applyFrame(g, { type: 'event', seq: 10, kind: 'vote_result', step: 'pk_vote', mask: [6], target: 6 });
    expect(g.lastVote.curse).toBe(0);
  });

  test('tally counts the curse as one vote more, without a voter', () => {
    expect(tally([{ seat: 2, target: 6 }, { seat: 3, target: 6 }, { seat: 6, target: 2 }], 0, 1, 6)).toEqual([
      { target: 6, voters: [2, 3], total: 3, curse: true },
      { target: 2, voters: [6], total: 1 },
    ]);
    // nobody voted for the cursed seat: his row is the curse alone
    expect(tally([{ seat: 2, target: 5 }], 0, 1, 7)).toEqual([
      { target: 5, voters: [2], total: 1 },
      { target: 7, voters: [], total: 1, curse: true },
    ]);
    // with the sheriff's weight
    expect(tally([{ seat: 2, target: 6 }], 2, 1.5, 6)[0].total).toBe(2.5);
  });

  test('the vote result shows it beside the ballots, no seat named, the same for every seat', () => {
    const html = (seat) => render(VoteResult, { props: { vote: seen(seat).lastVote, names: {} } }).body;
    const h = html(4);
    const row = /<li[^>]*data-target="6"[^>]*>([\s\S]*?)<\/li>/.exec(h)[1];
    expect(row).toContain('data-testid="vote-curse"');
    expect(row).toContain("the crow's curse");
    expect(row).toMatch(/3 votes/);
    const chip = /data-testid="vote-curse"[^>]*>([^<]*)</.exec(row)[1];
    expect(chip).not.toMatch(/\d/);
    expect(html(1)).toBe(h); // the crow's own screen shows the same
  });

  test('the replay folds the curse into its vote', () => {
    const events = frames.map((f) => ({ ...f, public: true, step: undefined }));
    const day = phases(events).find((p) => p.kind === 'day');
    const vote = day.items.find((it) => it.e.kind === 'vote_result').e;
    expect(vote.curse).toBe(6);
    expect(vote.ballots).toHaveLength(3);
  });
});
