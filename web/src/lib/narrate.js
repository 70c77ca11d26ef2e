// The judge's script at a table, from the first night to the end: what the
// device in the middle says, and when. Pure: it plans lines with their
// instants; TableDevice speaks them (or chimes) and shows them.
//
// Everyone at the table hears the device, so every line and every instant
// here is built from what every seat is told alike: the room's board,
// options and timers, the night's calls and night_end from the state (the
// same for every seat and the spectator), and the public events (calls.js
// says which). Nothing reads who is alive, who is woken, or a seat's own
// deadline: a dead or absent role is called like a living one, for as long.

import { SPEECH_STEPS } from './enums.js';
import { repeats, voiced } from './calls.js';
import { nightSlots } from './slots.js';

// secsOf reads a Go duration ("1m30s", "500ms") or a number of seconds.
export { secs as secsOf } from './turns.js';

// The slot a call is made in: where its role acts (rules: the role's step),
// so that on one device with no phones the called player can act while he
// is called. Those told something at the night step's end (the gravekeeper,
// the charmed, the fox's tails) come in the last stage of the night, and
// the siblings' later meetings, called near the end (ROLES-MORE-2.md §5). The
// checkers have a stage of their own under night_order=wolves_first.
const OWN_SLOT = { thief: 'thief', cupid: 'cupid', ghost_bride: 'bride', nightmare: 'nightmare', eclipse_wolf_queen: 'eclipse', magician: 'magician', witch: 'witch', seer: 'check', psychic: 'check',
  masquerade: 'masquerade', miracle_merchant: 'merchant', lucky: 'lucky', warden: 'warden', traders: 'trade' };
const AT_THE_END = new Set(['gravekeeper', 'sisters', 'brothers', 'newlyweds', 'charmed', 'nine_tailed_fox']);

function slotOfCall(c, slots) {
  const who = c.group || c.role;
  const has = (s) => slots.some((x) => x.step === s);
  let want = OWN_SLOT[who] || 'night';
  if (AT_THE_END.has(who)) want = has('check') ? 'check' : has('witch') ? 'witch' : 'night';
  if (has(want)) return want;
  return has('night') ? 'night' : slots.length ? slots[0].step : '';
}

const FIRST = 2500; // the first call follows nightfall's line by this much
const QUANTUM = 250; // offsets from nightfall are rounded to this: every night of a board is paced alike

// callWho is what a call names: a group (wolves, lovers, charmed) or a role.
export const callWho = (c) => c.group || c.role;

// nightPlan is the night's script: [{id, at, key, params, who, kind}] with
// at in the server's clock (unix ms). Nightfall at the night's start (its
// end less its slots), then each role called in the slot where it acts: a
// slot's roles share it evenly, each opening its eyes at the start of its
// share and closing them before the next. st is the night's state (calls,
// night_end); night the night's number.
export function nightPlan(room, st, night) {
  if (!st || !st.night || !st.night_end) return null;
  const slots = nightSlots(room, night);
  const total = slots.reduce((n, s) => n + s.dur, 0);
  const start = st.night_end - total;
  const lines = [{ id: `n${night}:falls`, at: start, key: 'night.falls', kind: 'falls', who: '' }];
  const calls = (st.calls || []).filter((c) => c.key === 'role.open');
  let at = start;
  for (const [i, s] of slots.entries()) {
    const mine = calls.filter((c) => slotOfCall(c, slots) === s.step);
    const lead = i === 0 ? Math.min(FIRST, s.dur / 4) : 0;
    const share = mine.length ? (s.dur - lead) / mine.length : 0;
    const rest = Math.min(2500, share / 4); // eyes closed this long before the next call
    for (const [j, c] of mine.entries()) {
      const open = start + round(at - start + lead + j * share);
      const close = start + round(at - start + lead + (j + 1) * share - rest);
      const who = callWho(c);
      lines.push({ id: `n${night}:${who}:open`, at: open, key: 'role.open', kind: 'open', who, slot: s.step, until: close });
      lines.push({ id: `n${night}:${who}:close`, at: close, key: 'role.close', kind: 'close', who, slot: s.step });
    }
    at += s.dur;
  }
  return { start, end: st.night_end, slots, lines };
}

function round(ms) {
  return Math.round(ms / QUANTUM) * QUANTUM;
}

// The customary line of a role's call ("预言家请睁眼，你要查验谁？"), where the
// catalogue has one; else the plain call ("{role}请睁眼。").
export function callText(line, tr, has) {
  if (line.kind === 'falls') return tr('night.falls');
  if (line.kind === 'day') return tr('day.breaks');
  const name = ['wolves', 'lovers', 'charmed', 'sisters', 'brothers', 'newlyweds'].includes(line.who) ? tr('group.' + line.who) : tr('role.' + line.who);
  if (line.kind === 'open' && has('ui.table.call.' + line.who)) return tr('ui.table.call.' + line.who);
  return capital(tr(line.kind === 'open' ? 'role.open' : 'role.close', { role: name }));
}

const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);

// A table's call of whose turn it is by day, by step (ui.table.say.<step>):
// the speeches name the speaker; the votes and the sign-up call everyone.
const TURN_CALLS = new Set(['speech', 'campaign', 'pk', 'sheriff_pk', 'last_words', 'skill', 'badge', 'order', 'discussion']);
const ALL_CALLS = new Set(['vote', 'pk_vote', 'seq_vote', 'mob_vote', 'signup', 'sheriff_vote', 'sheriff_pk_vote', 'elect', 'elect_pk', 'withdraw']);

// dayLine is what the device says for one public event by day, or null:
// {id, key, params, event} where key is a catalogue key, or 'event' for the
// event's own spoken line (events.js spoken). heard is what was said since
// the last nightfall or daybreak (calls.js repeats).
export function dayLine(e, heard, night = false) {
  if (!e || e.secret) return null;
  if (e.kind === 'step' && !night && !e.role) {
    if (e.seat && TURN_CALLS.has(e.step)) return { id: `e${e.seq}`, key: 'ui.table.say.' + e.step, params: { seat: e.seat } };
    if (!e.seat && ALL_CALLS.has(e.step)) return { id: `e${e.seq}`, key: 'ui.table.say.' + e.step, params: {} };
  }
  const what = voiced(e, { night, table: true });
  if (what === 'day') return { id: `e${e.seq}`, key: 'day.breaks', params: {} };
  if (what !== 'say') return null;
  if (repeats(e, heard)) return null;
  return { id: `e${e.seq}`, key: 'event', event: e };
}

// The speaker is told aloud how long he has left, this far from the end.
export const WARN = [30, 10];

// countdown lists the warnings of a speech turn: [{id, at, secs}], by the
// day's deadline (the same for every seat by day) of the state's turn.
export function countdown(st) {
  if (!st || st.night || st.over || st.paused || !st.turn || !st.deadline || !SPEECH_STEPS.has(st.step)) return [];
  return WARN.map((s) => ({ id: `left:${st.day}:${st.step}:${st.turn}:${st.deadline}:${s}`, at: st.deadline - s * 1000, secs: s }));
}

// createNarrator runs the script on a clock: states and events in, lines
// out through say({id, text, at}) at their instants, each once. clock:
// {now() (the server's time), setTimeout, clearTimeout}. text(line) turns a
// planned line into words. A line whose instant passed more than STALE ago
// (a reload, a device that joined late) is not said.
export const STALE = 3000;
export function createNarrator({ say, text, clock }) {
  const said = new Set();
  let timers = [];
  let planned = ''; // the night plan under way: night number and night_end
  let warned = '';
  let heard = [];
  let plan = null;

  function now(line, when) {
    said.add(line.id);
    say({ ...line, at: when, text: text(line) });
  }
  // at says line at when: a planned line on a timer (stop() cancels it), one
  // due now at once.
  function at(line, when) {
    if (said.has(line.id)) return;
    const wait = when - clock.now();
    if (wait < -STALE) {
      said.add(line.id);
      return;
    }
    if (wait <= 0) return now(line, when);
    timers.push(
      clock.setTimeout(() => {
        if (!said.has(line.id)) now(line, when);
      }, wait),
    );
  }
  function stop() {
    timers.forEach((t) => clock.clearTimeout(t));
    timers = [];
  }

  return {
    get plan() {
      return plan;
    },
    // state: each state frame of the table's (spectator's) connection.
    state(st, room, night) {
      if (!st) return;
      if (st.night && st.night_end && !st.over && !st.paused) {
        const key = `${night}:${st.night_end}`;
        if (key === planned) return;
        stop();
        planned = key;
        warned = '';
        plan = nightPlan(room, st, night);
        for (const l of plan ? plan.lines : []) at(l, l.at);
        return;
      }
      if (st.night) {
        // paused (no night_end): nothing is said until the night resumes, planned anew
        stop();
        planned = '';
        return;
      }
      if (planned) {
        stop();
        planned = '';
      }
      const key = st.paused || st.over ? '' : `${st.turn}:${st.step}:${st.deadline}`;
      if (key === warned) return;
      stop();
      warned = key;
      for (const w of countdown(st)) at({ id: w.id, key: 'ui.table.say.left', params: { secs: w.secs } }, w.at);
    },
    // event: each event as it comes; live false for the catch-up of a
    // (re)connection, which is never said.
    event(e, live, night) {
      if (e.kind === 'night' || e.kind === 'day') heard = [];
      if (!live) return;
      const l = dayLine(e, heard, night);
      if (!l) return;
      if (l.event) heard.push(e);
      at(l, clock.now());
    },
    stop,
  };
}
