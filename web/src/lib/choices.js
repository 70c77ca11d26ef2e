// What the action panel offers, from a state's choices (docs/server.md):
// each choice becomes an action of one kind, and each action the frame
// that carries it out.

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
