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
