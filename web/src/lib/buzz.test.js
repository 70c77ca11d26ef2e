import { describe, expect, it } from 'vitest';
import { Buzzer, PATTERN, dayBuzz, nightInstants, vibrate } from './buzz.js';
import { nightTasks } from './decoy.js';

// A fake clock: timers fire when advance() passes them.
function fakeClock(start = 1000) {
  let now = start;
  let timers = [];
  let id = 0;
  return {
    now: () => now,
    set: (f, ms) => {
      timers.push({ id: ++id, at: now + ms, f });
      return id;
    },
    clear: (x) => (timers = timers.filter((t) => t.id !== x)),
    advance(ms) {
      now += ms;
      const due = timers.filter((t) => t.at <= now).sort((a, b) => a.at - b.at);
      timers = timers.filter((t) => t.at > now);
      due.forEach((t) => t.f());
    },
  };
}

describe('the same vibration on every phone', () => {
  const room = { cards: ['werewolf', 'seer', 'witch', 'villager', 'villager', 'villager'], options: {}, timers: {} };
  const alive = [1, 2, 3, 4, 5, 6];
  const nightEnd = 1764489660000;
  it('buzzes a wolf, the seer, the witch and a villager at the same instants of the night', () => {
    const at = (seat) => nightInstants(nightTasks({ room, night: 2, nightEnd, seat, alive })).map((x) => x.at);
    const all = [1, 2, 3, 4].map(at);
    for (const a of all) expect(a).toEqual(all[0]);
    expect(all[0]).toHaveLength(2); // the wolves' slot (everyone at once) and the witch's
  });
  it('buzzes by day at daybreak and at each vote call, never at a step told by night or a secret one', () => {
    expect(dayBuzz({ kind: 'day', value: 2 }, false)).toBe(true);
    expect(dayBuzz({ kind: 'step', step: 'vote' }, false)).toBe(true);
    expect(dayBuzz({ kind: 'step', step: 'sheriff_vote' }, false)).toBe(true);
    expect(dayBuzz({ kind: 'step', step: 'speech', seat: 3 }, false)).toBe(false);
    expect(dayBuzz({ kind: 'step', step: 'witch' }, true)).toBe(false);
    expect(dayBuzz({ kind: 'step', step: 'night_shot', secret: true }, false)).toBe(false);
    expect(dayBuzz({ kind: 'check', target: 3 }, false)).toBe(false);
  });
});

describe('Buzzer', () => {
  it('buzzes each planned instant once, however often the plan is given again', () => {
    const c = fakeClock();
    let n = 0;
    const b = new Buzzer({ now: c.now, set: c.set, clear: c.clear, buzz: () => n++ });
    b.plan([2000, 3000]);
    b.plan([2000, 3000]);
    c.advance(1000);
    expect(n).toBe(1);
    b.plan([2000, 3000]); // a reconnection after the first
    c.advance(1000);
    expect(n).toBe(2);
    c.advance(5000);
    expect(n).toBe(2);
  });
  it('does not buzz an instant already past, nor one dropped from the plan', () => {
    const c = fakeClock(5000);
    let n = 0;
    const b = new Buzzer({ now: c.now, set: c.set, clear: c.clear, buzz: () => n++ });
    b.plan([4000, 6000, 7000]);
    b.plan([6000]);
    c.advance(5000);
    expect(n).toBe(1);
  });
  it('buzzes at once a task a late phone finds open, never one whose window is over', () => {
    const c = fakeClock(5000);
    let n = 0;
    const b = new Buzzer({ now: c.now, set: c.set, clear: c.clear, buzz: () => n++ });
    b.plan([{ at: 4000, until: 6000 }, { at: 1000, until: 3000 }]);
    c.advance(0);
    expect(n).toBe(1);
    b.plan([{ at: 4000, until: 6000 }]);
    c.advance(10);
    expect(n).toBe(1);
  });
  it('buzzes a public event once by its key', () => {
    let n = 0;
    const b = new Buzzer({ buzz: () => n++ });
    b.now('day:2');
    b.now('day:2');
    expect(n).toBe(1);
  });
  it('runs on the real timers when given none (a browser throws on setTimeout called as a method)', async () => {
    let n = 0;
    const b = new Buzzer({ buzz: () => n++ });
    const strict = globalThis.setTimeout;
    globalThis.setTimeout = function (f, ms) {
      if (this !== undefined && this !== globalThis) throw new TypeError('Illegal invocation');
      return strict(f, ms);
    };
    try {
      b.plan([Date.now() + 5]);
    } finally {
      globalThis.setTimeout = strict;
    }
    await new Promise((r) => setTimeout(r, 30));
    expect(n).toBe(1);
  });
  it('stops every planned buzz', () => {
    const c = fakeClock();
    let n = 0;
    const b = new Buzzer({ now: c.now, set: c.set, clear: c.clear, buzz: () => n++ });
    b.plan([2000]);
    b.stop();
    c.advance(5000);
    expect(n).toBe(0);
  });
});

describe('vibrate', () => {
  it('sends the one pattern where the device vibrates', () => {
    let got = null;
    vibrate({ vibrate: (p) => (got = p) });
    expect(got).toEqual(PATTERN);
  });
  it('does nothing where it cannot, and nothing breaks', () => {
    expect(vibrate({})).toBe(false);
    expect(vibrate(undefined)).toBe(false);
    expect(vibrate({ vibrate: () => { throw new Error('no gesture'); } })).toBe(false);
  });
  it('does not call the device before the page was touched (Chromium logs the refusal as an error), and does after', () => {
    let calls = 0;
    const nav = { vibrate: () => ++calls > 0, userActivation: { hasBeenActive: false } };
    expect(vibrate(nav)).toBe(false);
    expect(calls).toBe(0);
    nav.userActivation.hasBeenActive = true;
    expect(vibrate(nav)).toBe(true);
    expect(calls).toBe(1);
  });
});
