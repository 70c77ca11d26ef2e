// What the phase banner (PhaseBanner) and the table device's bar
// (TableDevice) both say: the phase's title, who has the floor, the time
// left. Pure: t and stepName are the catalogue's (i18n.svelte.js), passed in
// so that this is tested without a component. Each screen keeps its own
// choice of what to show when: the device says no step by night (it speaks
// to the whole table) and counts to night_end; a seat's banner counts to
// its own deadline.

import { SPEECH_STEPS } from './enums.js';

// phaseTitle: "Night 2", "Day 3", before the first day, over, starting.
export function phaseTitle(st, night, nightNo, t) {
  if (!st) return t('ui.banner.starting');
  if (st.over) return t('ui.banner.over');
  if (night) return t('ui.phase.night', { n: nightNo || 1 });
  if (!st.day) return t('ui.phase.before_day');
  return t('ui.phase.day', { n: st.day });
}

// stepLine names the step, and the seat whose turn it is (speaking in a
// speech step, else "his turn"). st.step must be set.
export function stepLine(st, t, stepName) {
  const name = stepName(st.step);
  if (!st.turn) return name;
  return t(SPEECH_STEPS.has(st.step) ? 'ui.banner.speaking' : 'ui.banner.turn', { step: name, seat: st.turn });
}

// secondsLeft until end (the server's clock, ms) at now (this device's),
// skew the server's lead on it: whole seconds rounded up, never below 0;
// null without an end.
export function secondsLeft(end, skew, now) {
  if (!end) return null;
  return Math.max(0, Math.ceil((end - (skew || 0) - now) / 1000));
}

// clockText shows seconds as m:ss ('' for null).
export function clockText(left) {
  return left === null ? '' : `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
}

// LONG: from this many seconds left a deadline is said as a time of day
// and what is left in hours and minutes ("截止 20:00（还剩 1 小时）"), as a
// forum game's steps of hours want, not as a count of m:ss.
export const LONG = 600;

// leftText says seconds left in hours and minutes, the minutes rounded up.
export function leftText(left, t) {
  const mins = Math.ceil(left / 60);
  const h = Math.floor(mins / 60);
  const m = mins % 60;
  if (h && m) return t('ui.left.hours_minutes', { h, m });
  if (h) return t('ui.left.hours', { h });
  return t('ui.left.minutes', { m });
}

// deadlineText: "截止 20:00（还剩 1 小时）", end on the server's clock
// (skew its lead on this device's), said on this device's clock in locale,
// with the date when it is not today; '' without an end.
export function deadlineText(end, skew, now, t, locale) {
  const left = secondsLeft(end, skew, now);
  if (left === null) return '';
  const at = new Date(end - (skew || 0));
  const today = at.toDateString() === new Date(now).toDateString();
  const opts = today ? { hour: 'numeric', minute: '2-digit' } : { month: 'numeric', day: 'numeric', hour: 'numeric', minute: '2-digit' };
  const time = new Intl.DateTimeFormat(locale, opts).format(at);
  return t('ui.banner.deadline', { time, left: leftText(left, t) });
}

// noticeText says the last reminder or extension (game.js g.notice), or
// '' when there is none to show now: a reminder until its deadline — at
// night only to a seat whose own state says it owes an action (the frame
// is the same for every seat), and never on a table's phones, which look
// alike by night —, an extension for a minute after it came.
export function noticeText(n, st, { skew, now, t, locale, same }) {
  if (!n || !st || st.over) return '';
  if (n.type === 'extend') return now - n.came < 60000 ? t('ui.extended', { left: leftText(n.by / 1000, t) }) : '';
  if (n.type !== 'remind' || secondsLeft(n.deadline, skew, now) === 0) return '';
  if (n.night && (same || !st.night || !st.pending)) return '';
  const deadline = deadlineText(n.deadline, skew, now, t, locale);
  return n.seats && n.seats.length ? t('ui.remind.seats', { seats: n.seats.join(', '), deadline }) : t('ui.remind', { deadline });
}
