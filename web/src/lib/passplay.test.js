import { describe, expect, it } from 'vitest';
import { ballotFrame, calledSeats, dealQueue, handsVotes, nicknames, passDevice, passSeats, publicPrompt, savePassSeats, windowAt, waiting } from './passplay.js';
import { nightPlan } from './narrate.js';

const seats = [
  { seat: 1, st: { role: 'werewolf', wolves: [1, 4], alive: [1, 2, 3, 4, 5] } },
  { seat: 2, st: { role: 'seer', alive: [1, 2, 3, 4, 5] } },
  { seat: 3, st: { role: 'gargoyle', alive: [1, 2, 3, 4, 5] } },
  { seat: 4, st: { role: 'wolf_king', wolves: [1, 4], alive: [1, 2, 3, 4, 5] } },
  { seat: 5, st: { role: 'villager', lovers: [5, 2], alive: [1, 2, 3, 4, 5] } },
];

describe('calledSeats', () => {
  it('wakes the pack for the wolves (not the gargoyle, who wakes alone), the lovers together, a card\'s holder', () => {
    expect(calledSeats('wolves', seats)).toEqual([1, 4]);
    expect(calledSeats('gargoyle', seats)).toEqual([3]);
    expect(calledSeats('seer', seats)).toEqual([2]);
    expect(calledSeats('lovers', seats)).toEqual([5]);
    expect(calledSeats('witch', seats)).toEqual([]);
  });
  it('wakes the ghost bride and her groom for the newlyweds (鬼魂新娘), not the witness', () => {
    const wed = [
      { seat: 1, st: { role: 'ghost_bride', couple: [1, 3] } },
      { seat: 2, st: { role: 'villager', couple: [1, 3] } }, // the witness: told the couple
      { seat: 3, st: { role: 'werewolf', couple: [1, 3] } },
      { seat: 4, st: { role: 'villager' } },
    ];
    expect(calledSeats('newlyweds', wed)).toEqual([1, 3]);
  });
});

const room = { cards: ['werewolf', 'seer', 'witch', 'villager'], options: {}, timers: { night: '40s', witch: '20s' } };
const END = 1764489660000;
const st = (alive) => ({ night: true, night_end: END, alive, calls: [{ key: 'role.open', role: 'seer' }, { key: 'role.open', group: 'wolves' }, { key: 'role.open', role: 'witch' }] });

describe('windowAt', () => {
  it('is the call under way by the night\'s plan, the same whoever lives', () => {
    const a = nightPlan(room, st([1, 2, 3, 4]), 2);
    const b = nightPlan(room, st([1, 4]), 2);
    for (let t = a.start; t < END; t += 500) expect(windowAt(a, t)).toEqual(windowAt(b, t));
    expect(windowAt(a, a.start + 3000).who).toBe('seer');
    expect(windowAt(a, END - 10000).who).toBe('witch');
    expect(windowAt(a, a.start + 100)).toBeNull(); // nightfall: eyes closed
  });
});

describe('waiting', () => {
  it('lists the seats awaited by day, the one with the floor first', () => {
    const w = [{ seat: 2, st: { pending: true } }, { seat: 5, st: { pending: true } }, { seat: 3, st: { pending: false } }, { seat: 7, st: { pending: true } }];
    expect(waiting(w, 5)).toEqual([5, 2, 7]);
    expect(waiting([{ seat: 1, st: { pending: true, night: true } }])).toEqual([]);
  });
});

describe('dealQueue', () => {
  it('deals in seat order to those the table waits for, or those not yet shown here on a server without the wait', () => {
    expect(dealQueue([{ seat: 3, st: { see_card: true } }, { seat: 1, st: { see_card: true } }, { seat: 2, st: { see_card: false } }], [])).toEqual([1, 3]);
    expect(dealQueue([{ seat: 1, st: {} }, { seat: 2, st: {} }], [1])).toEqual([2]);
    // shown here, its confirmation not yet back: not dealt twice
    expect(dealQueue([{ seat: 1, st: { see_card: true } }, { seat: 2, st: { see_card: true } }], [1])).toEqual([2]);
    // a seat whose state has not come yet keeps its place in the order
    expect(dealQueue([{ seat: 2, st: null }, { seat: 3, st: { see_card: true } }], [])).toEqual([2, 3]);
  });

  it('never calls a later seat while an earlier one\'s state is on its way (his card would be shown to the one called)', () => {
    const slow = [{ seat: 2, st: null }, { seat: 3, st: { see_card: true } }, { seat: 4, st: { see_card: true } }];
    const pre = { night: false, day: 0, step: '' };
    expect(publicPrompt({ st: pre, seats: slow })).toEqual({ kind: 'wait' });
    const come = [{ seat: 2, st: { see_card: true } }, ...slow.slice(1)];
    expect(publicPrompt({ st: pre, seats: come })).toEqual({ kind: 'deal', seat: 2 });
    expect(publicPrompt({ st: pre, seats: come, shown: [2] })).toEqual({ kind: 'deal', seat: 3 });
  });
});

describe('handsVotes', () => {
  it('gives each voter the candidate he raised his hand for, abstention for none, the first for two', () => {
    expect(handsVotes({ 3: [1, 2], 5: [2, 4] }, [1, 2, 4, 6])).toEqual([
      { seat: 1, target: 3 }, { seat: 2, target: 3 }, { seat: 4, target: 5 }, { seat: 6, target: 0 },
    ]);
    expect(ballotFrame(3)).toEqual({ type: 'act', cmd: 'vote', target: 3 });
    expect(ballotFrame(0)).toEqual({ type: 'act', cmd: 'abstain' });
  });
});

describe('nicknames', () => {
  it('names each seat as typed, else Player n', () => {
    const tr = (k, p) => `P${p.n}`;
    expect(nicknames([2, 3], { 2: ' Mei ' }, tr)).toEqual([{ seat: 2, nick: 'Mei' }, { seat: 3, nick: 'P3' }]);
  });
});

describe('publicPrompt: what the whole table sees of the device', () => {
  // one table, two deals: the seer at seat 2 alive, or the seer at seat 4 dead and the wolves elsewhere
  const pub = (over) => ({ night: true, night_end: END, day: 1, alive: [1, 2, 3], calls: st([]).calls, ...over });
  const dealA = [{ seat: 1, st: { role: 'werewolf', wolves: [1], night: true, pending: true, choices: [{ cmd: 'attack', targets: [2, 3] }] } },
    { seat: 2, st: { role: 'seer', night: true, pending: true, choices: [{ cmd: 'check', targets: [1, 3] }] } },
    { seat: 3, st: { role: 'villager', night: true } }, { seat: 4, st: { role: 'witch', night: true } }];
  const dealB = [{ seat: 1, st: { role: 'villager', night: true } }, { seat: 2, st: { role: 'witch', night: true } },
    { seat: 3, st: { role: 'werewolf', wolves: [3], night: true, pending: true, choices: [{ cmd: 'attack', targets: [1, 2] }] } },
    { seat: 4, st: { role: 'seer', night: true } }];

  it('is the same at every instant of a night whoever holds which card and whoever is dead', () => {
    const p = nightPlan(room, pub(), 2);
    const seen = [];
    for (let t = p.start; t < END; t += 250) {
      const a = publicPrompt({ st: pub(), plan: p, seats: dealA, now: t });
      expect(publicPrompt({ st: pub(), plan: p, seats: dealB, now: t })).toEqual(a);
      seen.push(a.kind === 'call' ? a.who : a.kind);
    }
    expect([...new Set(seen)]).toEqual(['sleep', 'seer', 'wolves', 'witch']);
  });

  it('deals in seat order to every seat of the device alike, then by day names those awaited (public by day)', () => {
    const waitingCards = (deal) => deal.map(({ seat, st: s }) => ({ seat, st: { ...s, night: false, pending: false, see_card: true } }));
    const day = { night: false, day: 0, step: '' };
    expect(publicPrompt({ st: day, seats: waitingCards(dealA), shown: [1] })).toEqual(publicPrompt({ st: day, seats: waitingCards(dealB), shown: [1] }));
    expect(publicPrompt({ st: day, seats: waitingCards(dealA), shown: [1] })).toEqual({ kind: 'deal', seat: 2 });
    const vote = { night: false, day: 1, step: 'vote' };
    const voters = (deal) => deal.map(({ seat, st: s }) => ({ seat, st: { ...s, night: false, pending: seat !== 4 } }));
    const a = publicPrompt({ st: vote, seats: voters(dealA), voteSteps: new Set(['vote']) });
    expect(a).toEqual({ kind: 'turns', seats: [1, 2, 3], voting: true });
    expect(publicPrompt({ st: vote, seats: voters(dealB), voteSteps: new Set(['vote']) })).toEqual(a);
  });
});

describe('passDevice', () => {
  it('marks a room this device began to seat, even with no seat of its own (all bots, the host playing none)', () => {
    const m = new Map();
    globalThis.localStorage = { getItem: (k) => (m.has(k) ? m.get(k) : null), setItem: (k, v) => m.set(k, String(v)), removeItem: (k) => m.delete(k) };
    expect(passDevice('r1')).toBe(false);
    expect(passSeats('r1')).toEqual({});
    savePassSeats('r1', {});
    expect(passDevice('r1')).toBe(true);
    expect(passDevice('r2')).toBe(false);
    savePassSeats('r2', { 1: { token: 't', nick: 'Host' } });
    expect(passDevice('r2')).toBe(true);
    expect(passSeats('r2')[1].nick).toBe('Host');
    delete globalThis.localStorage;
  });
});
