// Decoy night tasks (issue 16, phones at the table). Around a table people
// see who touches his phone at night; if only the woken roles did, the seer
// would be found in a night. So every living seat gets a task in every slot
// of the night's public schedule: its real one when it has one then, else a
// decoy of the same shape ("tap any seat"), shown at the same instant. The
// decoy changes nothing in the game.
//
// Pure, for tests. The instants come from the public schedule alone (the
// board's slots, slots.js, as internal/game/clock.go lays them out, counted
// back from the state's night_end, the same instant on every seat), never
// from when this seat's own state arrived: a woken seat's state comes at a
// tick of its own choosing of the server, a sleeper's never.

import { nightSlots, slotTimes, timerMs } from './slots.js';

// A task appears this many ticks after its slot opens. A woken seat's
// wake-up is told at the slot's first tick, which the server sends as the
// slot opens: its action panel lights up then. So the decoys appear then
// too (0), and every screen at the table lights up at one instant; a woken
// phone whose state comes a moment later shows the decoy that long, then
// its real task (Decoys turns the slot real).
const SHOW_TICKS = 0;

// nightTasks are a seat's tasks tonight: one a slot, [{slot, step, at,
// until, pick, targets}], at when it appears and until when it closes, pick
// seats to tap among targets (the living). Nothing in it depends on the
// seat's card: a wolf, a seer and a villager get the same list. A dead seat,
// a spectator (seat 0) and a night without its end get none.
export function nightTasks({ room, night, nightEnd, seat, alive }) {
  if (!seat || !nightEnd || !(alive || []).includes(seat)) return [];
  const show = SHOW_TICKS * timerMs(room, 'tick');
  const targets = [...alive].sort((a, b) => a - b);
  return slotTimes(nightSlots(room, night), nightEnd)
    .filter((s) => s.end - s.start > show)
    .map((s, i) => ({ slot: i, step: s.step, at: s.start + show, until: s.end, pick: 1, targets }));
}

// taskAt is the task open at now (the server's clock), or null.
export function taskAt(tasks, now) {
  return (tasks || []).find((t) => now >= t.at && now < t.until) || null;
}

// realNow says whether the seat has a real night task now: the state lists
// something it may send (by night the server lists choices only to a seat
// that is awake, or a person of a mixed wolf team who may change his pick).
export function realNow(st) {
  return !!(st && st.night && !st.over && (st.choices || []).length);
}

// Decoys keeps which of tonight's tasks are real and which decoys, and
// which decoys were answered. A task is real when the seat has a real task
// while it is open: once real it stays so (the seat that acted has no
// choices left, and must not be given a decoy after). Only this phone
// knows: nothing of it goes out but a decoy frame as big as a command.
export class Decoys {
  constructor() {
    this.night = -1;
    this.real = new Set(); // slots with a real task
    this.done = new Set(); // decoys answered
  }

  // now: the kind of the task open at now for the state, 'real', 'decoy'
  // or '' (none open), and the task.
  now(tasks, st, now, night) {
    if (night !== this.night) {
      this.night = night;
      this.real.clear();
      this.done.clear();
    }
    const task = taskAt(tasks, now);
    if (!task) return { kind: '', task: null };
    if (realNow(st)) this.real.add(task.slot);
    if (this.real.has(task.slot)) return { kind: 'real', task };
    return { kind: 'decoy', task, done: this.done.has(task.slot) };
  }

  answer(task) {
    if (task) this.done.add(task.slot);
  }
}

// decoyFrame is what a decoy sends: {"type":"decoy","target":T}, a frame
// the server answers with an ack like a command's and otherwise drops
// (docs/server.md, "Decoy tasks"); at night the connection holds it and
// pads it to the size of any other frame (lib/conn.js), so that a decoy
// and a real command look alike on the wire. target: the seat tapped.
export function decoyFrame(target) {
  return { type: 'decoy', target };
}
