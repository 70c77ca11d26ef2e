import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULTS, nightSlots, slotTimes, timerMs } from './slots.js';

const clockGo = () => fs.readFileSync(path.resolve(import.meta.dirname, '../../../internal/game/clock.go'), 'utf8');

// A std-12 room (预女猎白: the wolves, seer, witch, hunter, idiot) with the
// e2e test's fast timers.
const room = {
  cards: ['werewolf', 'werewolf', 'werewolf', 'werewolf', 'seer', 'witch', 'hunter', 'idiot',
    'villager', 'villager', 'villager', 'villager'],
  options: {},
  timers: { setup: '2s', night: '6s', witch: '4s', other: '15s', tick: '500ms' },
};

describe('nightSlots', () => {
  it('lays out a std-12 night as the server does: everyone at once, then the witch', () => {
    expect(nightSlots(room, 1)).toEqual([{ step: 'night', dur: 6000 }, { step: 'witch', dur: 4000 }]);
    const slow = { ...room, options: { first_phase: 'night', night_shot: 'dawn' }, timers: { setup: '20s', night: '40s', witch: '20s', other: '20s', speech: '1m30s' } };
    expect(nightSlots(slow, 1)).toEqual([{ step: 'night', dur: 40000 }, { step: 'witch', dur: 20000 }]);
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
  it('has the nightmare, the eclipse wolf queen and the magician before everyone each night', () => {
    const r = { cards: ['nightmare', 'magician', 'werewolf', 'villager'], options: {}, timers: {} };
    expect(nightSlots(r, 3).map((s) => s.step)).toEqual(['nightmare', 'magician', 'night']);
    const q = { cards: ['nightmare', 'eclipse_wolf_queen', 'magician', 'werewolf', 'villager'], options: {}, timers: {} };
    expect(nightSlots(q, 1).map((s) => s.step)).toEqual(['nightmare', 'eclipse', 'magician', 'night']);
    const b = { cards: ['thief', 'cupid', 'nightmare', 'hunter', 'villager'], options: { night_shot: 'in_night' }, timers: { setup: '5s', night: '10s', other: '3s' } };
    expect(nightSlots(b, 1).map((s) => s.step)).toEqual(['nightmare', 'thief', 'cupid', 'night', 'night_shot']);
    expect(nightSlots(b, 2).map((s) => s.step)).toEqual(['nightmare', 'night', 'night_shot']);
    expect(nightSlots({ ...b, options: { first_phase: 'day' } }, 0).map((s) => s.step)).toEqual(['thief', 'cupid']);
    expect(nightSlots({ ...b, options: { first_phase: 'day' } }, 1).map((s) => s.step)).toEqual(['nightmare', 'night']);
  });
  it('has the merchant and the lucky one each night, the warden and the traders from night 2 (ROLES-MORE-2.md)', () => {
    const m = { cards: ['miracle_merchant', 'werewolf', 'seer', 'villager'], options: {}, timers: {} };
    expect(nightSlots(m, 1).map((s) => s.step)).toEqual(['merchant', 'lucky', 'night']);
    expect(nightSlots(m, 4).map((s) => s.step)).toEqual(['merchant', 'lucky', 'night']);
    const w = { cards: ['warden', 'werewolf', 'seer', 'villager'], options: {}, timers: {} };
    expect(nightSlots(w, 1).map((s) => s.step)).toEqual(['night']);
    expect(nightSlots(w, 2).map((s) => s.step)).toEqual(['warden', 'trade', 'night']);
  });
  it('has the checkers wake after the witch under night_order=wolves_first, as long as the witch unless check is set', () => {
    const wf = { ...room, options: { night_order: 'wolves_first' } };
    expect(nightSlots(wf, 1)).toEqual([{ step: 'night', dur: 6000 }, { step: 'witch', dur: 4000 }, { step: 'check', dur: 4000 }]);
    expect(nightSlots({ ...wf, timers: { ...room.timers, check: '7s' } }, 2).at(-1)).toEqual({ step: 'check', dur: 7000 });
    expect(nightSlots({ ...wf, cards: ['werewolf', 'psychic', 'villager'] }, 2).map((s) => s.step)).toEqual(['night', 'check']);
    expect(nightSlots({ ...wf, cards: ['werewolf', 'witch', 'villager'] }, 2).map((s) => s.step)).toEqual(['night', 'witch']);
    expect(nightSlots({ ...room, options: { night_order: 'seer_first' } }, 2).map((s) => s.step)).toEqual(['night', 'witch']);
  });
  it("has the masquerade's stage from night 2, after the checkers, as long as the witch's", () => {
    const m = { ...room, cards: [...room.cards, 'masquerade'], options: { night_order: 'wolves_first' } };
    expect(nightSlots(m, 1).map((s) => s.step)).toEqual(['night', 'witch', 'check']);
    expect(nightSlots(m, 2)).toEqual([{ step: 'night', dur: 6000 }, { step: 'witch', dur: 4000 }, { step: 'check', dur: 4000 }, { step: 'masquerade', dur: 4000 }]);
  });
  it('has the ghost bride after cupid on the first night only (鬼魂新娘: her groom and witness in her slot)', () => {
    const r = { cards: ['cupid', 'ghost_bride', 'werewolf', 'witch', 'villager'], options: {}, timers: {} };
    expect(nightSlots(r, 1).map((s) => s.step)).toEqual(['cupid', 'bride', 'night', 'witch']);
    expect(nightSlots(r, 2).map((s) => s.step)).toEqual(['night', 'witch']);
    expect(nightSlots({ ...r, options: { first_phase: 'day' } }, 0).map((s) => s.step)).toEqual(['cupid', 'bride']);
  });
  it('is the same whoever is alive: it reads the board, never the state', () => {
    const r = { cards: ['werewolf', 'seer', 'witch', 'hunter', 'villager'], options: { night_shot: 'in_night' }, timers: {} };
    expect(nightSlots(r, 2).map((s) => s.step)).toEqual(['night', 'witch', 'night_shot']);
  });
  // The layout is the server's (internal/game/clock.go nightSlots): a slot
  // added there and not here would put the table device's calls and the
  // phones' tasks out of step.
  it('names the slots in the order of the server', () => {
    const src = clockGo();
    const body = src.slice(src.indexOf('func nightSlots('), src.indexOf('\n}\n', src.indexOf('func nightSlots(')));
    const steps = [...body.matchAll(/slot\{rules\.Step(\w+),/g)].map((m) => m[1].replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase());
    expect(steps).toEqual(['nightmare', 'eclipse', 'magician', 'merchant', 'lucky', 'thief', 'cupid', 'bride', 'warden', 'trade', 'night', 'witch', 'check', 'masquerade', 'night_shot']);
  });
});

describe('timerMs', () => {
  it('reads the timers as Go durations', () => {
    expect(timerMs({ timers: { night: '1m30s' } }, 'night')).toBe(90000);
    expect(timerMs({ timers: {} }, 'tick')).toBe(500);
  });
  // A room without a timer runs the server's default: a default here other
  // than clock.go's would move every slot of such a room.
  it('falls back on the defaults of internal/game/clock.go DefaultTimers', () => {
    const src = clockGo();
    const body = src.slice(src.indexOf('var DefaultTimers = Timers{'), src.indexOf('\n}\n', src.indexOf('var DefaultTimers')));
    const unit = { Second: 1000, Millisecond: 1 };
    const server = Object.fromEntries([...body.matchAll(/(\w+): (\d+) \* time\.(Second|Millisecond)/g)].map(([, k, n, u]) => [k.toLowerCase(), Number(n) * unit[u]]));
    expect(Object.keys(server).length).toBe(8);
    expect(DEFAULTS).toEqual(server);
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
