// The claims board (整理): what each seat claimed, whom it accused or
// vouched for, how it voted, and what befell it, in the order made; and the
// day's speaking order. Built from public events only (the table device's
// spectator stream, or any seat's events filtered to the public kinds), so
// a board shown to the whole table says nothing a seat was told alone.
// Pure.

import { CAUSES, CLAIMS, SPEECH_STEPS } from './enums.js';

// The kinds every seat is told alike (rules: Public events). A ballot or a
// sheriff's hand is public only once open (game.js marks it).
const PUBLIC = new Set(['claim', 'ballot', 'exile', 'death', 'dawn', 'sheriff', 'run', 'withdraw', 'reveal', 'shoot',
  'explode', 'badge', 'red_card', 'duel', 'day', 'night', 'step']);

// A seat that has claimed the seer speaks of his checks: "8号金水" (gold
// water, cleared) and "查杀8号" (checked: a wolf), as players say them; anyone
// else vouches (保) or accuses (踩).
const CHECKERS = new Set(['seer']);
const CHECK_KINDS = { good: 'gold', wolf: 'kill' };

// claimsBoard reads a log: {seats: {n: [entry]}, order: [seats], day, speaker}.
// An entry is {kind, day, target?, role?, night?}; order is the speakers of
// the latest day in turn, speaker the one who has the floor now (0: nobody).
export function claimsBoard(events) {
  const seats = {};
  const add = (s, x) => {
    if (!s) return;
    (seats[s] = seats[s] || []).push(x);
  };
  let day = 0;
  let night = 0;
  let order = [];
  let speaker = 0;
  let step = '';
  const claimed = {}; // seat → the role it claimed last
  for (const e of events || []) {
    if (!PUBLIC.has(e.kind) || e.secret) continue;
    switch (e.kind) {
      case 'night':
        night = e.value || night + 1;
        speaker = 0;
        break;
      case 'day':
        day = e.value || day + 1;
        order = [];
        speaker = 0;
        break;
      case 'step':
        step = e.step || '';
        speaker = 0;
        if (e.seat && !e.role && SPEECH_STEPS.has(step)) {
          speaker = e.seat;
          if (step === 'speech' || step === 'pk' || step === 'discussion') order.push(e.seat);
        }
        break;
      case 'claim': {
        const what = CLAIMS[e.value] || 'role';
        if (what === 'role') {
          claimed[e.seat] = e.role;
          add(e.seat, { kind: 'role', day, role: e.role });
        } else {
          add(e.seat, { kind: (CHECKERS.has(claimed[e.seat]) && CHECK_KINDS[what]) || what, day, target: e.target });
        }
        break;
      }
      case 'ballot':
        if (e.open === false) break;
        add(e.seat, e.target ? { kind: 'vote', day, target: e.target, sheriff: step.startsWith('sheriff') || step.startsWith('elect') } : { kind: 'abstain', day });
        break;
      case 'run':
        if (e.open === false) break; // the seat's own hand: the board lists it when the signup closes
        add(e.seat, { kind: 'run', day });
        break;
      case 'withdraw':
        add(e.seat, { kind: 'withdraw', day });
        break;
      case 'sheriff':
        if (e.seat) add(e.seat, { kind: 'sheriff', day });
        break;
      case 'badge':
        add(e.seat, e.target ? { kind: 'badge', day, target: e.target } : { kind: 'tear', day });
        break;
      case 'exile':
        if (e.seat) add(e.seat, { kind: 'exiled', day });
        break;
      case 'dawn':
        for (const s of e.mask || []) add(s, { kind: 'dead_night', day, night });
        break;
      case 'death':
        // a death by day names its cause; the dawn's deaths are told without one
        if (e.value && CAUSES[e.value] !== 'exile') add(e.seat, { kind: 'dead_day', day, cause: CAUSES[e.value] || 'none' });
        break;
      case 'reveal':
        add(e.seat, { kind: 'revealed', day, role: e.role });
        break;
      case 'shoot':
        add(e.seat, { kind: 'shot', day, target: e.target });
        break;
      case 'explode':
        add(e.seat, { kind: 'exploded', day });
        break;
      case 'duel':
        add(e.seat, { kind: 'duel', day, target: e.target });
        break;
      case 'red_card':
        add(e.seat, { kind: 'red_card', day });
        break;
    }
  }
  return { seats, order, day, speaker };
}

// The catalogue key and parameters of an entry (ui.claims.<kind>).
export function entryText(x, tr) {
  const role = x.role ? tr('role.' + x.role) : '';
  const cause = x.cause ? tr('cause.' + x.cause) : '';
  return tr('ui.claims.' + x.kind, { target: x.target || 0, role, day: x.day, night: x.night || 0, cause });
}

// The kinds an entry may have, for the catalogue's test.
export const ENTRY_KINDS = ['role', 'wolf', 'good', 'gold', 'kill', 'vote', 'abstain', 'run', 'withdraw', 'sheriff', 'badge', 'tear', 'exiled',
  'dead_night', 'dead_day', 'revealed', 'shot', 'exploded', 'duel', 'red_card'];

// tone: how an entry reads on the board (a wolf accusation red, a vouch green).
export function tone(x) {
  if (x.kind === 'wolf' || x.kind === 'kill' || x.kind === 'exploded') return 'bad';
  if (x.kind === 'good' || x.kind === 'gold') return 'good';
  if (x.kind === 'role') return 'claim';
  if (x.kind.startsWith('dead') || x.kind === 'exiled' || x.kind === 'red_card') return 'gone';
  return '';
}
