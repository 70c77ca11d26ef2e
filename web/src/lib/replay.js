// A finished game's log (GET /api/rooms/ID/replay) as a timeline: night by
// night, day by day, every event with who was told it.

import { CAUSES, OPEN_VOTES, SPEECH_STEPS, STEPS, VOTE_STEPS } from './enums.js';

// Bookkeeping of the moderator, hidden unless asked for.
export const NOTES = new Set(['resume', 'task']);

// audience: 'public', 'moderator' (nobody was told), or the seats told.
export function audience(e) {
  if (e.public) return 'public';
  if (e.to && e.to.length) return e.to;
  return 'moderator';
}

// knew reports whether seat was told the event (seat 0: anyone, all).
export function knew(e, seat) {
  if (!seat) return true;
  return !!e.public || (e.to || []).includes(seat);
}

// phases splits the log at each night and day. Ballots are folded into the
// vote's result (e.ballots, the public ones; e.curse, the seat the crow's
// curse weighs on). Each phase lists its deaths.
export function phases(events, { notes = false, seat = 0 } = {}) {
  const out = [{ kind: 'setup', n: 0, items: [], deaths: [] }];
  let ballots = [];
  let curse = 0; // the crow's curse announced for the vote being closed
  let step = '';
  for (const raw of events || []) {
    const e = { ...raw };
    switch (e.kind) {
      case 'night':
      case 'day':
        out.push({ kind: e.kind, n: e.value, items: [], deaths: [] });
        break;
      case 'step': {
        const s = STEPS[e.value];
        if (VOTE_STEPS.has(s) && s !== step) ballots = [];
        step = s;
        break;
      }
      case 'ballot':
        if (e.public && (e.value === 1 || OPEN_VOTES.has(step))) ballots.push({ seat: e.seat || 0, target: e.target || 0 });
        break;
      case 'cursed_vote':
        curse = e.target || 0;
        break;
      case 'vote_result':
        e.ballots = ballots;
        e.curse = curse;
        ballots = [];
        curse = 0;
        break;
      case 'death':
        out[out.length - 1].deaths.push({ seat: e.seat, cause: CAUSES[e.value] || 'none' });
        break;
    }
    if (e.kind === 'ballot') continue;
    if (!notes && NOTES.has(e.kind)) continue;
    if (!knew(e, seat)) continue;
    out[out.length - 1].items.push({ e, audience: audience(e) });
  }
  return out.filter((p) => p.items.length > 0 || p.kind !== 'setup');
}

// winnerOf: the camp named by the game_over event, if any.
export function winnerOf(events, camps) {
  const over = (events || []).find((e) => e.kind === 'game_over');
  return over ? camps[over.value] || 'none' : '';
}

// deadOf: the seats the table saw die.
export function deadOf(events) {
  const out = new Set();
  for (const e of events || []) {
    if (e.kind === 'death' && e.public) out.add(e.seat);
    if (e.kind === 'dawn') for (const s of e.mask || []) out.add(s);
  }
  return out;
}

// explodedOf: the seats that self-exploded (自爆), in seat order. An
// explosion is public: the whole table knows the seat is of the wolf camp
// (the state's 'exposed' while the game runs).
export function explodedOf(events) {
  const out = new Set();
  for (const e of events || []) if (e.kind === 'explode' && e.seat) out.add(e.seat);
  return [...out].sort((a, b) => a - b);
}

// phaseKey names a phase of the timeline for as long as the replay is
// shown ('night-2'), so a night opened stays open when a filter changes.
export function phaseKey(p) {
  return p.kind + '-' + p.n;
}

// speeches matches the day channel's messages to the speech turns they were
// said in: {bySeq: Map(step event seq → [chats]), rest: [chats]}. The
// replay's events carry no time, so a message (in time order) goes to the
// next turn of its writer from the turn the last one went to: turns come in
// order, and a speaker speaks in his turn. What matches no turn (after the
// end, everyone talks) is left in rest, with the other channels.
export function speeches(events, chats) {
  const turns = (events || []).filter((e) => e.kind === 'step' && e.seat && !e.role && SPEECH_STEPS.has(STEPS[e.value] || e.step));
  const bySeq = new Map();
  const rest = [];
  let p = 0;
  const time = (c) => (typeof c.at === 'number' ? c.at : Date.parse(c.at) || 0);
  const day = (chats || []).filter((c) => (c.channel || c.ch) === 'day').sort((a, b) => time(a) - time(b));
  for (const c of day) {
    let q = p;
    while (q < turns.length && turns[q].seat !== c.seat) q++;
    if (q === turns.length) {
      rest.push(c);
      continue;
    }
    p = q;
    const k = turns[q].seq;
    if (!bySeq.has(k)) bySeq.set(k, []);
    bySeq.get(k).push(c);
  }
  return { bySeq, rest };
}
