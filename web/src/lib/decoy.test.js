import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FRAME, byteLength, padded } from './conn.js';
import { Decoys, decoyFrame, nightSlots, nightTasks, realNow, slotTimes, taskAt, timerMs } from './decoy.js';

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

describe('nightSlots', () => {
  it('lays out a std-12 night as the server does: everyone at once, then the witch', () => {
    expect(nightSlots(room, 1)).toEqual([{ step: 'night', dur: 6000 }, { step: 'witch', dur: 4000 }]);
  });
  it('puts the thief and cupid first on the first night only, and the in-night shot last', () => {
    const r = { cards: ['thief', 'cupid', 'werewolf', 'hunter', 'villager'], options: { night_shot: 'in_night' }, timers: {} };
    expect(nightSlots(r, 1).map((s) => s.step)).toEqual(['thief', 'cupid', 'night', 'night_shot']);
    expect(nightSlots(r, 2).map((s) => s.step)).toEqual(['night', 'night_shot']);
    expect(nightSlots(r, 1)[0].dur).toBe(20000); // the server's default setup timer
  });
  it('holds only the setup stages on night 0 (first_phase=day), and the thief on night 1 not', () => {
    const r = { cards: ['thief', 'werewolf', 'seer', 'villager'], options: { first_phase: 'day' }, timers: {} };
    expect(nightSlots(r, 0).map((s) => s.step)).toEqual(['thief']);
    expect(nightSlots(r, 1).map((s) => s.step)).toEqual(['night']);
  });
  it('has the nightmare and the magician before everyone each night', () => {
    const r = { cards: ['nightmare', 'magician', 'werewolf', 'villager'], options: {}, timers: {} };
    expect(nightSlots(r, 3).map((s) => s.step)).toEqual(['nightmare', 'magician', 'night']);
  });
  // The layout is the server's (internal/game/clock.go nightSlots): a slot
  // added there and not here would put the phones' tasks out of step.
  it('names the slots in the order of the server', () => {
    const src = fs.readFileSync(path.resolve(import.meta.dirname, '../../../internal/game/clock.go'), 'utf8');
    const body = src.slice(src.indexOf('func nightSlots('), src.indexOf('\n}\n', src.indexOf('func nightSlots(')));
    const steps = [...body.matchAll(/slot\{rules\.Step(\w+),/g)].map((m) => m[1].replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase());
    expect(steps).toEqual(['nightmare', 'magician', 'thief', 'cupid', 'night', 'witch', 'night_shot']);
  });
  it('reads the timers as Go durations', () => {
    expect(timerMs({ timers: { night: '1m30s' } }, 'night')).toBe(90000);
    expect(timerMs({ timers: {} }, 'tick')).toBe(500);
  });
});

describe('slotTimes', () => {
  it('counts the slots back from the night end', () => {
    expect(slotTimes([{ step: 'night', dur: 6000 }, { step: 'witch', dur: 4000 }], 10000)).toEqual([
      { step: 'night', start: 0, end: 6000 },
      { step: 'witch', start: 6000, end: 10000 },
    ]);
  });
});

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
