// The night's public schedule, as the server lays it out
// (internal/game/clock.go nightSlots): one slot per stage the board can have
// tonight, each as long as its timer, whatever happens in it and whoever is
// alive. The table device paces its calls on it (narrate.js) and the phones
// their decoy tasks (decoy.js); one copy, so the two cannot drift apart, and
// slots.test.js reads clock.go so that it cannot drift from the server.
//
// Pure. Everything here is built from what every seat is told alike (the
// room's cards, options and timers, the state's night_end).

import { secs } from './turns.js';

// The server's defaults (internal/game/clock.go DefaultTimers), in ms.
export const DEFAULTS = { setup: 20000, night: 40000, witch: 20000, speech: 90000, vote: 20000, other: 20000, bot: 1500, tick: 500 };

// timerMs reads a room's timer ("20s", "1m30s", "500ms") in ms, else its
// default; the checkers' (check) is the witch's unless the room names it.
export function timerMs(room, name) {
  const v = room && room.timers ? secs(room.timers[name]) : 0;
  if (v > 0) return Math.round(v * 1000);
  return name === 'check' ? timerMs(room, 'witch') : DEFAULTS[name];
}

// nightSlots is tonight's schedule: [{step, dur}] in order, dur in ms: the
// nightmare, the eclipse wolf queen, the magician, the miracle merchant and the
// lucky one each real night, the warden and the traders from night 2, the thief and cupid on the
// first night (night 0 with first_phase=day, which holds only those),
// everyone at once, the witch, the checkers (night_order=wolves_first: the
// seer, the psychic wake after the witch), the masquerade (from night 2),
// the in-night shot.
export function nightSlots(room, night) {
  const cards = new Set((room && room.cards) || []);
  const opt = (room && room.options) || {};
  const first = night === 0 || (night === 1 && (opt.first_phase || 'night') === 'night');
  const setup = timerMs(room, 'setup');
  const out = [];
  if (night > 0 && cards.has('nightmare')) out.push({ step: 'nightmare', dur: setup });
  if (night > 0 && cards.has('eclipse_wolf_queen')) out.push({ step: 'eclipse', dur: setup });
  if (night > 0 && cards.has('magician')) out.push({ step: 'magician', dur: setup });
  if (night > 0 && cards.has('miracle_merchant')) out.push({ step: 'merchant', dur: setup }, { step: 'lucky', dur: setup });
  if (first && cards.has('thief')) out.push({ step: 'thief', dur: setup });
  if (first && cards.has('cupid')) out.push({ step: 'cupid', dur: setup });
  if (first && cards.has('ghost_bride')) out.push({ step: 'bride', dur: setup });
  if (night === 0) return out;
  if (night >= 2 && cards.has('warden')) out.push({ step: 'warden', dur: setup }, { step: 'trade', dur: setup });
  out.push({ step: 'night', dur: timerMs(room, 'night') });
  if (cards.has('witch')) out.push({ step: 'witch', dur: timerMs(room, 'witch') });
  if (opt.night_order === 'wolves_first' && (cards.has('seer') || cards.has('psychic'))) {
    out.push({ step: 'check', dur: timerMs(room, 'check') });
  }
  if (night >= 2 && cards.has('masquerade')) out.push({ step: 'masquerade', dur: timerMs(room, 'witch') }); // 假面, from night 2
  if (opt.night_shot === 'in_night' && (cards.has('hunter') || cards.has('wolf_king'))) {
    out.push({ step: 'night_shot', dur: timerMs(room, 'other') });
  }
  return out;
}

// slotTimes places the slots on the clock, counted back from the night's
// end (the server's clock, unix ms): [{step, start, end}].
export function slotTimes(slots, nightEnd) {
  let end = nightEnd;
  const out = [];
  for (let i = slots.length - 1; i >= 0; i--) {
    out.unshift({ step: slots[i].step, start: end - slots[i].dur, end });
    end -= slots[i].dur;
  }
  return out;
}
