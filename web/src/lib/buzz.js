// A phone's vibration when its seat must act (issue 16). Around a table a
// buzz is heard, so it must tell nothing: every living player's phone buzzes
// the same pattern at the same instants, whatever his card. By night that is
// the opening of each task of the public schedule (lib/decoy.js: the real
// tasks and the decoys open together); by day the public instants every
// seat is told at once: daybreak and each vote's call. Never on a private
// instant (a wake-up, a check's result, the witch told her victim), and
// never on the arrival of this seat's own state.

import { VOTE_STEPS } from './enums.js';

// The one pattern, on every phone: two short pulses (ms on, off, on).
export const PATTERN = [120, 80, 120];

// dayBuzz says whether an event is a public instant at which every living
// seat is buzzed: the day breaking, or a vote called by day. A step told by
// night, or a secret one, is never one.
export function dayBuzz(e, night) {
  if (!e || e.secret || night) return false;
  if (e.kind === 'day') return true;
  return e.kind === 'step' && VOTE_STEPS.has(e.step);
}

// nightInstants are the instants of tonight's tasks (lib/decoy.js
// nightTasks), the same list on every living seat: {at, until}.
export function nightInstants(tasks) {
  return (tasks || []).map((t) => ({ at: t.at, until: t.until }));
}

// vibrate buzzes once, where the device can (navigator.vibrate is missing
// on iOS and on desktops: nothing happens there, and nothing breaks). A
// page nobody has touched yet may not vibrate: Chromium refuses the call
// and logs it as an error, so it is not made.
export function vibrate(nav = globalThis.navigator) {
  try {
    if (nav && nav.userActivation && !nav.userActivation.hasBeenActive) return false;
    if (nav && typeof nav.vibrate === 'function') return nav.vibrate(PATTERN);
  } catch {
    // a browser that refuses (no user gesture yet) refuses quietly
  }
  return false;
}

// Buzzer buzzes at instants of the server's clock, each once: a schedule
// set again (a new state, a reconnection) does not buzz twice for one
// instant, and an instant already past is not buzzed late. now() is the
// server's clock; timers are injected for tests.
export class Buzzer {
  // (the timers are wrapped: a browser's setTimeout called as a method of
  // another object throws "Illegal invocation")
  constructor({ now, buzz = () => vibrate(), set = (f, ms) => setTimeout(f, ms), clear = (id) => clearTimeout(id) } = {}) {
    this.nowFn = now || (() => Date.now());
    this.buzz = buzz;
    this.set = set;
    this.clear = clear;
    this.timers = new Map(); // instant → timer
    this.fired = new Set();
  }

  // plan schedules the instants not yet planned or fired; instants no
  // longer listed are dropped. An instant is a time, or {at, until}: one
  // already past but not its until (a phone that joined the night late)
  // buzzes at once, never one whose window is over.
  plan(instants) {
    const want = new Map(instants.map((x) => (typeof x === 'number' ? [x, x] : [x.at, x.until])));
    for (const [at, id] of this.timers) {
      if (!want.has(at)) {
        this.clear(id);
        this.timers.delete(at);
      }
    }
    const now = this.nowFn();
    for (const [at, until] of want) {
      if (this.fired.has(at) || this.timers.has(at) || (at < now && until <= now)) continue;
      this.timers.set(
        at,
        this.set(() => {
          this.timers.delete(at);
          this.fired.add(at);
          this.buzz();
        }, Math.max(0, at - now)),
      );
    }
  }

  // now buzzes at once for an instant every seat shares (a public event,
  // received by all at once), keyed so that it is buzzed once.
  now(key) {
    if (this.fired.has(key)) return;
    this.fired.add(key);
    this.buzz();
  }

  stop() {
    for (const id of this.timers.values()) this.clear(id);
    this.timers.clear();
  }
}
