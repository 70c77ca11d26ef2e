import { describe, expect, it } from 'vitest';
import { FRAME, byteLength, padded } from './conn.js';
import { Decoys, decoyFrame, nightTasks, realNow, taskAt } from './decoy.js';

// A std-12 room (预女猎白: the wolves, seer, witch, hunter, idiot) with the
// e2e test's fast timers.
const room = {
  cards: ['werewolf', 'werewolf', 'werewolf', 'werewolf', 'seer', 'witch', 'hunter', 'idiot',
    'villager', 'villager', 'villager', 'villager'],
  options: {},
  timers: { setup: '2s', night: '6s', witch: '4s', other: '15s', tick: '500ms' },
};
const alive = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
const nightEnd = 1764489610000;

// Three seats of night 1, as their state frames say it at the start of the
// wolves' slot and then of the witch's: the wolf and the seer are awake in
// the first (choices), the villager never; nobody of the three in the
// witch's.
const wolf = { seat: 1, role: 'werewolf', choices: [{ cmd: 'attack', targets: [5, 6, 7, 8, 9, 10, 11, 12] }] };
const seer = { seat: 5, role: 'seer', choices: [{ cmd: 'check', targets: [1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12] }] };
const villager = { seat: 9, role: 'villager', choices: undefined };
const stateOf = (s, awake) => ({ type: 'state', seat: s.seat, role: s.role, night: true, alive, night_end: nightEnd,
  pending: awake, choices: awake ? s.choices : undefined, deadline: awake ? nightEnd - 4000 : nightEnd });

describe('decoy tasks are the same for every card', () => {
  const tasks = (s) => nightTasks({ room, night: 1, nightEnd, seat: s.seat, alive });
  it('gives a wolf, a seer and a villager tasks at the same instants with the same shape', () => {
    const [w, s, v] = [wolf, seer, villager].map(tasks);
    expect(w).toEqual(s);
    expect(s).toEqual(v);
    expect(w.map((t) => [t.step, t.at - (nightEnd - 10000), t.until - (nightEnd - 10000), t.pick])).toEqual([
      ['night', 0, 6000, 1],
      ['witch', 6000, 10000, 1],
    ]);
    expect(w[0].targets).toEqual(alive);
  });
  it('shows each seat a task in every slot: the real one when awake, a decoy otherwise', () => {
    const inNight = nightEnd - 10000 + 1500;
    const inWitch = nightEnd - 4000 + 1500;
    const kinds = (s) => {
      const d = new Decoys();
      const t = tasks(s);
      return [d.now(t, stateOf(s, s !== villager), inNight, 1).kind, d.now(t, stateOf(s, false), inWitch, 1).kind];
    };
    expect(kinds(wolf)).toEqual(['real', 'decoy']);
    expect(kinds(seer)).toEqual(['real', 'decoy']);
    expect(kinds(villager)).toEqual(['decoy', 'decoy']);
  });
  it('keeps a slot real once the seat has acted in it (no decoy after the real task)', () => {
    const d = new Decoys();
    const t = tasks(seer);
    const at = t[0].at + 100;
    expect(d.now(t, stateOf(seer, true), at, 1).kind).toBe('real');
    expect(d.now(t, stateOf(seer, false), at + 2000, 1).kind).toBe('real');
  });
  it('turns a decoy real when the real task comes late in its slot', () => {
    const d = new Decoys();
    const t = tasks(wolf);
    expect(d.now(t, stateOf(wolf, false), t[0].at, 1).kind).toBe('decoy');
    expect(d.now(t, stateOf(wolf, true), t[0].at + 500, 1).kind).toBe('real');
  });
  it('remembers an answered decoy until the next night', () => {
    const d = new Decoys();
    const t = tasks(villager);
    const r = d.now(t, stateOf(villager, false), t[1].at, 1);
    d.answer(r.task);
    expect(d.now(t, stateOf(villager, false), t[1].at + 10, 1).done).toBe(true);
    expect(d.now(t, stateOf(villager, false), t[1].at + 10, 2).done).toBe(false);
  });
  it('gives the dead, a spectator and a state without night_end nothing', () => {
    expect(nightTasks({ room, night: 1, nightEnd, seat: 9, alive: [1, 2, 3] })).toEqual([]);
    expect(nightTasks({ room, night: 1, nightEnd, seat: 0, alive })).toEqual([]);
    expect(nightTasks({ room, night: 1, nightEnd: 0, seat: 9, alive })).toEqual([]);
  });
  it('has no task open before the first or after the last', () => {
    const t = tasks(villager);
    expect(taskAt(t, t[0].at - 1)).toBe(null);
    expect(taskAt(t, t[1].until)).toBe(null);
    expect(realNow({ night: false, choices: [{ cmd: 'vote' }] })).toBe(false);
  });
});

describe('decoyFrame', () => {
  it('is the server\'s decoy frame, which pads at night to the size of a real command', () => {
    expect(decoyFrame(5)).toEqual({ type: 'decoy', target: 5 });
    const real = padded({ type: 'act', id: 7, cmd: 'check', target: 5 });
    const decoy = padded({ ...decoyFrame(5), id: 7 });
    expect([byteLength(real), byteLength(decoy)]).toEqual([FRAME, FRAME]);
  });
});
