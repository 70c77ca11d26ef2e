// The moderator's voice at a table: which events are said aloud, and the
// role calls of a night ("预言家请睁眼" …), from the calls the server lists in
// the night's state frames. Pure, for tests: nothing here speaks.
//
// Whatever a device says aloud, everyone at the table hears. So a device
// says only what every seat is told, and at the same instant on every
// device: never a private event (camp_lost, a wake-up, a check…) and never
// on a clock that is the seat's own (its action deadline ends earlier for a
// woken role).

// callLines turns the night's calls into the lines to say between nightfall
// and dawn (those two are said on their events). tr is the catalogue lookup.
export function callLines(calls, tr) {
  const out = [];
  for (const c of calls || []) {
    if (c.key !== 'role.open' && c.key !== 'role.close') continue;
    const name = c.group ? tr('group.' + c.group) : tr('role.' + c.role);
    const line = tr(c.key, { role: name });
    out.push(line.charAt(0).toUpperCase() + line.slice(1));
  }
  return out;
}

const FIRST = 1100; // the first call follows nightfall's line by this much
const TAIL = 2000; // the last call ends this much before the dawn
const MIN_GAP = 1500; // two calls never closer
const QUANTUM = 250; // the pause is rounded down to this, so a few ms of network do not change it

// nightEnd is when the night's schedule ends (dawn), in the server's clock:
// the state's night_end, the same for every seat. Only a server that does
// not send it leaves the seat's own deadline (or half a minute) instead.
export function nightEnd(st, start) {
  if (st && st.night_end) return st.night_end;
  if (st && st.deadline) return st.deadline;
  return start + 30000;
}

// nightSchedule says when to speak each of the night's lines: [{at, line}],
// at in the server's clock (unix ms). start is when nightfall was heard
// (the night event, which every seat receives at once), in the server's
// clock. The lines are spread evenly up to a little before the dawn and
// counted back from it, so every device at the table that has the same
// night_end says each call at the same instant, whatever seat it holds.
export function nightSchedule(st, lines, start) {
  const n = (lines || []).length;
  if (!n) return [];
  const end = nightEnd(st, start);
  const gap = Math.floor((end - TAIL - (start + FIRST)) / n / QUANTUM) * QUANTUM;
  if (gap >= MIN_GAP) return lines.map((line, i) => ({ at: end - TAIL - (n - i) * gap, line }));
  // a night too short for its calls: one after the other from nightfall
  return lines.map((line, i) => ({ at: start + FIRST + i * MIN_GAP, line }));
}

// The kinds of event said aloud. Each is always public: the rules engine
// tells it to every seat and the spectator alike. A kind that is sometimes
// told to some seats only (camp_lost, check, step by night, a witch's or a
// thief's news…) is never said, even when this seat was told it.
export const SPOKEN = new Set(['dawn', 'exile', 'sheriff', 'vote_result', 'explode', 'badge', 'reveal',
  'red_card', 'event_card', 'game_over', 'order']);

// Said aloud only by day: by night the engine tells these to no one (a death
// is announced at dawn), so one heard then is not the table's. A shot by
// night is the shooter's alone (night_shot=in_night: he is woken to fire,
// his victim among the dawn's dead); by day it is the table's.
const SPOKEN_BY_DAY = new Set(['death', 'powers_lost', 'shoot']);

// voiced says what the moderator does with an event: 'night' (nightfall,
// then the night's calls), 'day' (daybreak), 'say' (its line), or '' (keep
// quiet). night: the table is in a night (after the event). table: a table
// device, which also calls whose turn it is.
export function voiced(e, { night = false, table = false } = {}) {
  if (!e || e.secret) return '';
  if (e.kind === 'night') return 'night';
  if (e.kind === 'day') return 'day';
  if (SPOKEN.has(e.kind)) return 'say';
  if (SPOKEN_BY_DAY.has(e.kind)) return night ? '' : 'say';
  // a public step gives a seat the floor by day; a role's wake-up names a role
  if (table && e.kind === 'step' && e.seat && !e.role && !night) return 'say';
  return '';
}

// A table hears each announcement once. heard is what was said since the
// last nightfall or daybreak. A death by day that the line before it
// already told (an exile, a shot, an explosion, a red card name the seat
// that dies of it) is not said again.
export function repeats(e, heard) {
  if (!e || e.kind !== 'death') return false;
  return (heard || []).some((h) => {
    switch (h.kind) {
      case 'exile':
      case 'red_card':
        return h.seat === e.seat;
      case 'shoot':
        return h.target === e.seat;
      case 'explode':
        return h.seat === e.seat || h.target === e.seat;
    }
    return false;
  });
}
