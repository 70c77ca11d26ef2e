// Speech turns, from what every seat is told: a public step gives a seat
// the floor (a speech step), and the next step (or the night, an explosion,
// the end) takes it away. A seat's own end of speech (skip) is told to him
// alone, so nothing here needs it. Whether the speaker spoke is read from
// the day channel: a message of his written (its `at`, the server's clock)
// between his turn's start and end. Events carry no time: the client stamps
// each one it receives live (game.js), and keeps the stamps over a reload
// (the tab's sessionStorage); a turn with no stamp is not judged. Pure.

import { SPEECH_STEPS } from './enums.js';

// How far a message may fall outside the stamps (their delivery's lag).
export const SLACK = 1000;

// What takes the floor away from a speaker.
const ENDS = new Set(['step', 'skip', 'night', 'day', 'explode', 'game_over', 'red_card', 'exile', 'death', 'dawn']);

// What ends it only when it is the speaker's.
const MINE = new Set(['skip', 'death', 'red_card', 'exile']);

// speechTurns lists the speech turns of a log: [{seat, step, seq, start,
// endSeq, end}], start and end the stamps (0: not known), endSeq 0 while the
// turn lasts.
export function speechTurns(events) {
  const out = [];
  let cur = null;
  for (const e of events || []) {
    const other = MINE.has(e.kind) && cur && e.seat !== cur.seat; // another seat's red card does not end a speech
    if (cur && ENDS.has(e.kind) && !other) {
      cur.endSeq = e.seq;
      cur.end = e.at || 0;
      cur = null;
    }
    if (e.kind === 'step' && e.seat && !e.role && SPEECH_STEPS.has(e.step)) {
      cur = { seat: e.seat, step: e.step, seq: e.seq, start: e.at || 0, endSeq: 0, end: 0 };
      out.push(cur);
    }
  }
  return out;
}

// wordsOf lists the speaker's messages in the day channel during a turn
// (an open turn: from its start on). null when the turn's start is not known.
export function wordsOf(turn, chats, start = turn && turn.start) {
  if (!turn || !start) return null;
  return (chats || []).filter(
    (c) => c.channel === 'day' && c.seat === turn.seat && c.at >= start - SLACK && (!turn.endSeq || !turn.end || c.at <= turn.end + SLACK),
  );
}

// spoke tells whether the speaker wrote during his turn: true, false, or
// null (its stamps are not known, or it is not over).
export function spoke(turn, chats) {
  if (!turn || !turn.endSeq || !turn.start || !turn.end) return null;
  return wordsOf(turn, chats).length > 0;
}

// withTurnEnds is a log with a line where each speech turn ended, before
// the event that ended it: {kind: 'turn_end', seat, spoke, seq: 'end-N'}
// (spoke true, false or null). The speaker's own end of speech (a skip told
// to him alone) is left out: the line says it for every seat alike.
export function withTurnEnds(events, chats) {
  const turns = speechTurns(events);
  const at = new Map(turns.filter((t) => t.endSeq).map((t) => [t.endSeq, t]));
  const out = [];
  for (const e of events || []) {
    const t = at.get(e.seq);
    if (t) out.push({ kind: 'turn_end', seat: t.seat, step: t.step, spoke: spoke(t, chats), seq: 'end-' + t.seq });
    if (e.kind === 'skip' && e.speech) continue;
    out.push(e);
  }
  return out;
}

// secs reads a Go duration as the room lists its timers ("90s", "1m30s").
export function secs(d) {
  if (typeof d === 'number') return d;
  let n = 0;
  for (const [, v, u] of String(d || '').matchAll(/([\d.]+)(h|ms|m|s)/g)) n += Number(v) * { h: 3600, m: 60, s: 1, ms: 0.001 }[u];
  return n;
}

// currentTurn is the turn under way for a state, and when it began: its
// stamp, or (after a reload, with no stamp) its deadline less the speech
// timer. null when nobody has the floor for a speech.
export function currentTurn(events, st, speechSecs) {
  if (!st || st.night || !st.turn || !SPEECH_STEPS.has(st.step)) return null;
  const turns = speechTurns(events);
  const t = turns[turns.length - 1];
  if (!t || t.seat !== st.turn || t.step !== st.step) return null;
  let start = t.start;
  if (!start && st.deadline && speechSecs) start = st.deadline - speechSecs * 1000;
  return { ...t, start, endSeq: 0, end: 0 }; // the state says it lasts
}
