// Pass-and-play (one device, no phones): the device holds the tokens of
// every seat it took, deals the cards one player after the other, and by
// night is the judge who calls each role (lib/narrate.js) and lets the
// called player act on it in private; by day it takes each seat's turn and
// vote. Pure helpers; PassPlay*.svelte wires them.
//
// What the whole table sees of the device (the public screen, its sounds,
// its timing) comes from the public stream and the night's plan only: the
// same call windows whether the called role is alive, dead, absent or a
// bot. Only the private screen, opened by the called player, reads a seat.

import { WOLF_ROLES } from './enums.js';
import { load, save } from './storage.js';

// The wolves who wake together (the pack): the wolf camp less those who
// neither wake with it nor are named to it (rules/outsiders.go).
const LONE = new Set(['gargoyle', 'hidden_wolf', 'possessed', 'masquerade']);
export const PACK = new Set([...WOLF_ROLES].filter((r) => !LONE.has(r)));

// The seats this device holds in a room: {seat: {token, nick}}.
export function passSeats(room) {
  return load('pass.' + room, null) || {};
}
export function savePassSeats(room, seats) {
  save('pass.' + room, seats);
}

// passDevice: this device plays the room pass-and-play (it began to seat
// its players: the record of its seats exists, even empty). Such a device
// shows the room only through the pass-and-play screens, whatever the
// URL or the history says: the host's own token must not open his seat
// where the whole table can see it.
export function passDevice(room) {
  return load('pass.' + room, null) !== null;
}

// calledSeats lists the device's seats a call names: the pack for the
// wolves, the lovers, or the card's holder. seats: [{seat, st}] with each
// seat's own state. The dead are not left out: the device still shows the
// called player his screen (with nothing to do).
export function calledSeats(who, seats) {
  const out = [];
  for (const { seat, st } of seats || []) {
    if (!st) continue;
    let hit = false;
    if (who === 'wolves') hit = PACK.has(st.role) || (st.wolves || []).includes(seat);
    else if (who === 'lovers') hit = (st.lovers || []).includes(seat);
    else if (who === 'sisters' || who === 'brothers') hit = st.role === who.slice(0, -1);
    else if (who === 'newlyweds') hit = (st.couple || []).includes(seat);
    else hit = st.role === who;
    if (hit) out.push(seat);
  }
  return out;
}

// windowAt is the call under way at instant now (the server's clock): the
// last opening whose eyes are not yet closed, {who, open, until, slot}, or
// null between calls. plan is narrate.js nightPlan.
export function windowAt(plan, now) {
  if (!plan) return null;
  let cur = null;
  for (const l of plan.lines) {
    if (l.kind !== 'open' || l.at > now) continue;
    if (now < l.until) cur = { who: l.who, open: l.at, until: l.until, slot: l.slot };
  }
  return cur;
}

// waiting lists the device's seats the moderator waits for by day (a
// state's pending), the one with the floor first, then by seat.
export function waiting(seats, turn = 0) {
  return (seats || [])
    .filter(({ st }) => st && st.pending && !st.night && !st.over)
    .map(({ seat }) => seat)
    .sort((a, b) => (b === turn) - (a === turn) || a - b);
}

// dealQueue is who still has to see his card, in seat order: the device's
// seats not yet shown their card here whose state says the table waits for
// them (see_card; on a server without the wait, every seat once). A seat
// whose own state has not come yet keeps its place: were it left out, the
// deal would call a later seat and then, the state come, show the earlier
// seat's card to the player called (the mix test, tests/mix.mjs, saw seat 4
// called and seat 2's card shown).
export function dealQueue(seats, shown) {
  return (seats || [])
    .filter(({ seat, st }) => !shown.includes(seat) && (!st || st.see_card || !('see_card' in st)))
    .map(({ seat }) => seat)
    .sort((a, b) => a - b);
}

// handsVotes turns the judge's count of raised hands into each voter's
// ballot: hands is {candidate: [seats who raised a hand]}; a voter who
// raised his hand for no one abstains; one who raised it twice counts for
// the first candidate he is listed under. voters: the seats that may vote.
export function handsVotes(hands, voters) {
  const out = new Map();
  for (const [target, seats] of Object.entries(hands || {})) {
    for (const s of seats) if (voters.includes(s) && !out.has(s)) out.set(s, Number(target));
  }
  return voters.map((s) => ({ seat: s, target: out.get(s) || 0 }));
}

// The frame of a ballot: a vote for target, or an abstention.
export function ballotFrame(target) {
  return target ? { type: 'act', cmd: 'vote', target } : { type: 'act', cmd: 'abstain' };
}

// nicknames for the seats the device takes: the names typed, else "Player n".
export function nicknames(seats, typed, tr) {
  return seats.map((s) => ({ seat: s, nick: ((typed || {})[s] || '').trim() || tr('ui.pass.player', { n: s }) }));
}

// publicPrompt is what the device's public screen asks now, for the whole
// table to see: {kind: 'over' | 'deal' | 'call' | 'sleep' | 'turns' | 'wait',
// seat (deal), who (call), seats and voting (turns)}. st is the public
// (spectator's) state, plan the night's, seats the device's own seats with
// their states (only for what every seat is told: whose card is still to
// be seen, who is awaited by day), now the server's clock, seen the
// server's card-seen count, shown the seats shown their card here.
export function publicPrompt({ st, plan, seats, now, seen, shown = [], voteSteps }) {
  if (st && st.over) return { kind: 'over' };
  const deal = dealQueue(seats, shown);
  if (deal.length && (!seen || seen.waiting !== false) && !(st && st.day > 0)) {
    // the next in seat order is called only once his card can be shown
    const next = (seats || []).find((x) => x.seat === deal[0]);
    return next && next.st ? { kind: 'deal', seat: deal[0] } : { kind: 'wait' };
  }
  if (st && st.night) {
    const w = windowAt(plan, now);
    return w ? { kind: 'call', who: w.who } : { kind: 'sleep' };
  }
  const q = st ? waiting(seats, st.turn) : [];
  if (q.length) return { kind: 'turns', seats: q, voting: !!(voteSteps && voteSteps.has(st.step)) && q.length > 1 };
  return { kind: 'wait' };
}
