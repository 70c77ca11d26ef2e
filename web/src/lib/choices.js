// What the action panel offers, from a state's choices (docs/server.md):
// each choice becomes an action of one kind, and each action the frame
// that carries it out.

import { SPEECH_STEPS } from './enums.js';

// kinds: 'target' one seat of targets (and maybe none), 'multi' several
// seats (pick > 0 exactly that many, −1 any number), 'button' no seat,
// 'claim' a structured claim in a speech.
export function actionsOf(choices) {
  const out = [];
  for (const c of choices || []) {
    const targets = c.targets || [];
    const a = {
      key: c.cmd + ':' + (c.value || 0),
      cmd: c.cmd,
      value: c.value || 0,
      targets,
      noTarget: !!c.no_target,
      pick: c.pick || 0,
      roles: c.roles || [],
    };
    if (c.cmd === 'claim') a.kind = 'claim';
    else if (a.pick !== 0) a.kind = 'multi';
    else if (c.cmd === 'heal') a.kind = 'button'; // heals the attack target, named or not
    else if (targets.length > 0) a.kind = 'target';
    else a.kind = 'button';
    out.push(a);
  }
  return out;
}

// The frame of an action: target is a seat (0: none), seats a list, role a
// role id.
export function frameOf(a, { target = 0, seats = [], role = '' } = {}) {
  if (a.kind === 'claim') {
    if (a.value === 2) return { type: 'act', cmd: 'accuse', target };
    if (a.value === 3) return { type: 'act', cmd: 'vouch', target };
    return { type: 'act', cmd: 'claim', role };
  }
  if (a.kind === 'multi') return { type: 'act', cmd: a.cmd, seats: [...seats].sort((x, y) => x - y) };
  const f = { type: 'act', cmd: a.cmd };
  if (target) f.target = target;
  if (a.value) f.value = a.value;
  return f;
}

// ready tells whether a multi action has the seats it needs.
export function multiReady(a, seats) {
  if (a.pick < 0) return true;
  return seats.length === a.pick;
}

// multiHint is the line under a multi action of a fixed count above one
// (the magician's two, the dancer's three): {key, args} of the catalogue,
// or null. over: the last tap was a seat beyond the count, which toggle
// refused; otherwise the count still missing is said until it is met.
export function multiHint(a, seats, over) {
  if (a.pick <= 1) return null;
  if (over && seats.length >= a.pick) return { key: 'ui.act.multi.too_many', args: { n: a.pick } };
  if (seats.length === a.pick) return null;
  return { key: 'ui.act.multi.need', args: { n: a.pick, k: seats.length } };
}

// toggle adds or removes a seat of a multi selection, never beyond pick.
export function toggle(a, seats, s) {
  if (seats.includes(s)) return seats.filter((x) => x !== s);
  if (a.pick > 0 && seats.length >= a.pick) return a.pick === 1 ? [s] : seats;
  return [...seats, s];
}

// The action whose targets the seat ring offers: the one chosen, else the
// first that takes seats.
export function ringAction(actions, chosenKey) {
  const seated = actions.filter((a) => a.kind === 'target' || a.kind === 'multi');
  return seated.find((a) => a.key === chosenKey) || seated[0] || null;
}

// passesOf lists the passes the panel offers (skip, abstain), each meaning
// once: a pass where abstaining or tearing the badge says the same is not
// offered twice, and a wolf's skip at night is his pick of nobody (rules:
// skip picks NoSeat), which "attack nobody" already offers.
export function passesOf(actions) {
  const has = (cmd) => actions.some((a) => a.cmd === cmd);
  const attackNone = actions.some((a) => a.cmd === 'attack' && a.noTarget);
  const others = actions.filter((a) => !['skip', 'attack', 'explode', 'claim'].includes(a.cmd) && a.kind !== 'claim');
  return actions.filter((a) => {
    if (a.cmd === 'abstain') return true;
    if (a.cmd !== 'skip') return false;
    if (has('abstain') || has('tear')) return false;
    if (attackNone && others.length === 0) return false;
    return true;
  });
}

// skipKey is the catalogue key of a pass's label: its step's
// (ui.act.skip.night …), or, by night beside a pick of the wolves', the
// one saying it is neither the attack nor the other action
// (ui.act.skip.night.all: the wolf beauty's charm).
export function skipKey(actions, step, has) {
  if (step === 'night' && actions.some((a) => a.cmd === 'attack')) return 'ui.act.skip.night.all';
  return has('ui.act.skip.' + step) ? 'ui.act.skip.' + step : 'ui.act.skip';
}

// healOf is the witch's heal with its victim named, if she may heal.
export function healOf(actions) {
  return actions.find((a) => a.cmd === 'heal' && a.targets[0]) || null;
}

// tableRing is what the ring offers for a state: the targets of what the
// moderator waits for (and the wolves' pick, which may change while the
// night lasts), never a self-explosion (the panel asks it twice). The
// witch's victim is on it too, beside the poison's targets: tapping him
// offers the heal (ringTap), not the poison.
export function tableRing(actions, chosen, pending) {
  const heal = healOf(actions);
  const pool = actions.filter((a) => a.cmd !== 'explode' && (pending || a.cmd === 'attack'));
  const r = ringAction(pool, chosen === 'heal:0' ? '' : chosen);
  if (heal && pending) {
    if (chosen === heal.key) return { ...heal, kind: 'target', targets: [...new Set([...(r ? r.targets : []), heal.targets[0]])] };
    if (r) return { ...r, targets: [...new Set([...r.targets, heal.targets[0]])] };
    return { ...heal, kind: 'target' };
  }
  return r;
}

// ringTap is what a tap on seat n does: {chosen, picked}. The witch's
// victim chooses the heal (its button confirms it), a second tap undoes it;
// another seat picks for the ring's action.
export function ringTap(ring, actions, chosen, picked, n) {
  if (!ring || !ring.targets.includes(n)) return { chosen, picked };
  const heal = healOf(actions);
  if (heal && n === heal.targets[0] && ring.kind !== 'multi') {
    const c = chosen === heal.key ? '' : heal.key;
    return { chosen: c, picked: c ? [n] : [] };
  }
  const c = heal && ring.key === heal.key ? '' : ring.key;
  if (ring.kind === 'multi') return { chosen: c, picked: toggle(ring, picked, n) };
  return { chosen: c, picked: picked[0] === n ? [] : [n] };
}

// idle tells when a seat is told it has nothing to do: the floor is its
// own by day (a dying villager's or wolf's turn: shot, badge, ally…) but
// its card gives it nothing, so the panel would be empty. A speech is never
// idle (its box is there), nor the night. The public step stays the same
// for every seat: only this seat's own screen says so.
export function idle(st, seat, actions) {
  if (!st || st.night || st.over || !seat || st.turn !== seat) return false;
  if (SPEECH_STEPS.has(st.step)) return false;
  return (actions || []).length === 0;
}
