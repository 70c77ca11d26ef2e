import { describe, expect, it } from 'vitest';
import { ENTRY_KINDS, claimsBoard, entryText, tone } from './claims.js';

let seq = 0;
const ev = (kind, f = {}) => ({ seq: ++seq, kind, ...f });

const log = [
  ev('night', { value: 1 }),
  ev('day', { value: 1 }),
  ev('dawn', { mask: [4] }),
  ev('step', { step: 'speech', seat: 5 }),
  ev('claim', { seat: 5, value: 1, role: 'seer' }),
  ev('claim', { seat: 5, value: 2, target: 8 }),
  ev('step', { step: 'speech', seat: 6 }),
  ev('claim', { seat: 6, value: 3, target: 5 }),
  ev('step', { step: 'vote' }),
  ev('ballot', { seat: 5, target: 8, open: true }),
  ev('ballot', { seat: 6, target: 0, open: true }),
  ev('vote_result', { step: 'vote', mask: [8] }),
  ev('exile', { seat: 8 }),
  ev('death', { seat: 8, value: 3 }),
  ev('reveal', { seat: 9, role: 'idiot', value: 1 }),
];

describe('claimsBoard', () => {
  it('lists each seat\'s claims, accusations, votes and fate in the order made', () => {
    const b = claimsBoard(log);
    expect(b.seats[5]).toEqual([{ kind: 'role', day: 1, role: 'seer' }, { kind: 'kill', day: 1, target: 8 }, { kind: 'vote', day: 1, target: 8, sheriff: false }]);
    expect(b.seats[6]).toEqual([{ kind: 'good', day: 1, target: 5 }, { kind: 'abstain', day: 1 }]);
    expect(b.seats[4]).toEqual([{ kind: 'dead_night', day: 1, night: 1 }]);
    expect(b.seats[8]).toEqual([{ kind: 'exiled', day: 1 }]); // the exile's death is not told twice
    expect(b.seats[9]).toEqual([{ kind: 'revealed', day: 1, role: 'idiot' }]);
  });

  it('says a claimed seer\'s results as players do: 金水 and 查杀; anyone else vouches and accuses', () => {
    const b = claimsBoard([
      ev('day', { value: 1 }),
      ev('claim', { seat: 2, value: 3, target: 7 }), // before his claim: a vouch
      ev('claim', { seat: 2, value: 1, role: 'seer' }),
      ev('claim', { seat: 2, value: 3, target: 4 }),
      ev('claim', { seat: 2, value: 2, target: 9 }),
      ev('claim', { seat: 3, value: 1, role: 'witch' }),
      ev('claim', { seat: 3, value: 3, target: 4 }),
    ]);
    expect(b.seats[2].map((x) => x.kind)).toEqual(['good', 'role', 'gold', 'kill']);
    expect(b.seats[3].map((x) => x.kind)).toEqual(['role', 'good']);
    const zh = { 'ui.claims.gold': '{target}号金水', 'ui.claims.kill': '查杀{target}号', 'ui.claims.good': '保{target}号' };
    const tr = (k, p) => (zh[k] || k).replace('{target}', p.target);
    expect(b.seats[2].slice(2).map((x) => entryText(x, tr))).toEqual(['4号金水', '查杀9号']);
    expect(tone(b.seats[2][2])).toBe('good');
    expect(tone(b.seats[2][3])).toBe('bad');
  });

  it('gives the day\'s speaking order and who has the floor', () => {
    const b = claimsBoard(log.slice(0, 8));
    expect(b.order).toEqual([5, 6]);
    expect(b.speaker).toBe(6);
    expect(claimsBoard(log).speaker).toBe(0);
    // a new day starts a new order
    expect(claimsBoard([...log, ev('night', { value: 2 }), ev('day', { value: 2 })]).order).toEqual([]);
  });

  it('leaves out what is not public: a check, a wake-up, a secret ballot, a private step', () => {
    const priv = [ev('check', { seat: 5, target: 8, value: 1 }), ev('witch_told', { target: 4 }), ev('ballot', { seat: 2, target: 3, open: false }),
      ev('step', { step: 'night_shot', seat: 7, secret: true }), ev('camp_lost', { value: 1 })];
    const b = claimsBoard(priv);
    expect(b.seats).toEqual({});
    expect(b.speaker).toBe(0);
  });

  it('is the same for two seats of different roles given the same public events', () => {
    // what a wolf and the seer receive differs only by private kinds: the board does not see them
    const pub = log;
    const wolf = [ev('wolf_team', { mask: [2, 3] }), ...pub, ev('attack_pick', { seat: 2, target: 5 })];
    const seer = [ev('check', { seat: 5, target: 2, value: 1 }), ...pub];
    expect(claimsBoard(wolf)).toEqual(claimsBoard(seer));
  });
});

describe('entryText', () => {
  it('reads every kind from the catalogue', () => {
    const tr = (k, p) => `${k}|${p ? Object.values(p).join(',') : ''}`;
    for (const k of ENTRY_KINDS) expect(entryText({ kind: k, day: 1, target: 3 }, tr)).toMatch('ui.claims.' + k);
    expect(tone({ kind: 'wolf' })).toBe('bad');
    expect(tone({ kind: 'good' })).toBe('good');
  });
});
