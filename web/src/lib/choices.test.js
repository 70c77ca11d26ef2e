import { describe, expect, it, test } from 'vitest';
import { actionsOf, frameOf, idle, multiHint, multiReady, passesOf, ringAction, ringTap, skipKey, tableRing, toggle } from './choices.js';

const choices = [
  { cmd: 'skip', no_target: true },
  { cmd: 'vote', targets: [2, 3, 5] },
  { cmd: 'abstain', no_target: true },
  { cmd: 'attack', targets: [1, 2], no_target: true },
  { cmd: 'heal', targets: [4], no_target: true },
  { cmd: 'link', targets: [1, 2, 3], pick: 2 },
  { cmd: 'voters', targets: [1, 2, 3], pick: -1 },
  { cmd: 'order', no_target: true, value: 1 },
  { cmd: 'take', no_target: true, value: 2 },
  { cmd: 'claim', value: 1, no_target: true, roles: ['seer', 'witch'] },
  { cmd: 'claim', value: 2, targets: [2, 3] },
  { cmd: 'claim', value: 3, targets: [2, 3] },
];

test('each choice becomes an action of its kind', () => {
  const a = actionsOf(choices);
  expect(a.map((x) => `${x.key} ${x.kind}`)).toEqual([
    'skip:0 button', 'vote:0 target', 'abstain:0 button', 'attack:0 target', 'heal:0 button', 'link:0 multi',
    'voters:0 multi', 'order:1 button', 'take:2 button', 'claim:1 claim', 'claim:2 claim', 'claim:3 claim',
  ]);
  expect(a[3].noTarget).toBe(true);
  expect(a[9].roles).toEqual(['seer', 'witch']);
  expect(actionsOf(undefined)).toEqual([]);
});

test('the frames', () => {
  const a = actionsOf(choices);
  expect(frameOf(a[0])).toEqual({ type: 'act', cmd: 'skip' });
  expect(frameOf(a[1], { target: 5 })).toEqual({ type: 'act', cmd: 'vote', target: 5 });
  expect(frameOf(a[3])).toEqual({ type: 'act', cmd: 'attack' });
  expect(frameOf(a[4])).toEqual({ type: 'act', cmd: 'heal' });
  expect(frameOf(a[5], { seats: [3, 1] })).toEqual({ type: 'act', cmd: 'link', seats: [1, 3] });
  expect(frameOf(a[6])).toEqual({ type: 'act', cmd: 'voters', seats: [] });
  expect(frameOf(a[7])).toEqual({ type: 'act', cmd: 'order', value: 1 });
  expect(frameOf(a[8])).toEqual({ type: 'act', cmd: 'take', value: 2 });
  expect(frameOf(a[9], { role: 'seer' })).toEqual({ type: 'act', cmd: 'claim', role: 'seer' });
  expect(frameOf(a[10], { target: 2 })).toEqual({ type: 'act', cmd: 'accuse', target: 2 });
  expect(frameOf(a[11], { target: 3 })).toEqual({ type: 'act', cmd: 'vouch', target: 3 });
});

test('multi selections', () => {
  const [link, voters] = actionsOf(choices).filter((x) => x.kind === 'multi');
  let s = toggle(link, [], 1);
  s = toggle(link, s, 2);
  expect(s).toEqual([1, 2]);
  expect(toggle(link, s, 3)).toEqual([1, 2]);
  expect(toggle(link, s, 1)).toEqual([2]);
  expect(multiReady(link, [1])).toBe(false);
  expect(multiReady(link, [1, 2])).toBe(true);
  expect(multiReady(voters, [])).toBe(true);
  expect(toggle({ pick: 1 }, [2], 3)).toEqual([3]);
});

test("the dancer's three: exactly three seats, a line saying how many more or that no more fit", () => {
  const [dance] = actionsOf([{ cmd: 'dance', targets: [1, 2, 3, 4, 5], pick: 3 }]);
  expect(dance.kind).toBe('multi');
  let s = [];
  for (const n of [1, 2, 3]) {
    expect(multiReady(dance, s)).toBe(false);
    expect(multiHint(dance, s, false)).toEqual({ key: 'ui.act.multi.need', args: { n: 3, k: s.length } });
    s = toggle(dance, s, n);
  }
  expect(multiReady(dance, s)).toBe(true);
  expect(multiHint(dance, s, false)).toBe(null);
  expect(toggle(dance, s, 4)).toEqual([1, 2, 3]); // a fourth is refused …
  expect(multiHint(dance, s, true)).toEqual({ key: 'ui.act.multi.too_many', args: { n: 3 } }); // … and said
  expect(frameOf(dance, { seats: [3, 1, 2] })).toEqual({ type: 'act', cmd: 'dance', seats: [1, 2, 3] });
  expect(multiHint({ pick: -1 }, [], false)).toBe(null); // any number: nothing to say
});

test('the ring offers the chosen action, else the first with seats', () => {
  const a = actionsOf(choices);
  expect(ringAction(a, 'link:0').cmd).toBe('link');
  expect(ringAction(a, 'nope').cmd).toBe('vote');
  expect(ringAction(actionsOf([{ cmd: 'skip', no_target: true }]), '')).toBe(null);
});

describe('each meaning one button', () => {
  const has = (k) => ['ui.act.skip.night', 'ui.act.skip.speech'].includes(k);
  it('offers a wolf "attack nobody", not also "do nothing": his skip picks nobody', () => {
    const wolf = actionsOf([{ cmd: 'skip' }, { cmd: 'attack', targets: [1, 2, 3], no_target: true }]);
    expect(passesOf(wolf)).toEqual([]);
  });
  it('keeps the wolf beauty\'s pass, saying it is neither the attack nor the charm', () => {
    const beauty = actionsOf([{ cmd: 'skip' }, { cmd: 'attack', targets: [1, 2], no_target: true }, { cmd: 'charm', targets: [1, 2] }]);
    expect(passesOf(beauty).map((a) => a.cmd)).toEqual(['skip']);
    expect(skipKey(beauty, 'night', has)).toBe('ui.act.skip.night.all');
  });
  it('keeps the guard\'s pass and names it by its step', () => {
    const guard = actionsOf([{ cmd: 'skip' }, { cmd: 'protect', targets: [1, 2] }]);
    expect(passesOf(guard).map((a) => a.cmd)).toEqual(['skip']);
    expect(skipKey(guard, 'night', has)).toBe('ui.act.skip.night');
    expect(skipKey(guard, 'badge', has)).toBe('ui.act.skip');
  });
  it('offers abstain, not a pass that says the same', () => {
    expect(passesOf(actionsOf([{ cmd: 'skip' }, { cmd: 'abstain' }, { cmd: 'vote', targets: [1] }])).map((a) => a.cmd)).toEqual(['abstain']);
    expect(passesOf(actionsOf([{ cmd: 'skip' }, { cmd: 'tear' }, { cmd: 'badge', targets: [1] }]))).toEqual([]);
  });
});

describe('the witch on the ring', () => {
  // the witch: her victim is seat 4; she may poison 1..6 but herself (5)
  const witch = actionsOf([{ cmd: 'skip' }, { cmd: 'heal', targets: [4] }, { cmd: 'poison', targets: [1, 2, 3, 4, 6] }]);
  it('offers her victim on the ring, and tapping him chooses the heal, not the poison', () => {
    const ring = tableRing(witch, '', true);
    expect(ring.cmd).toBe('poison');
    expect(ring.targets).toContain(4);
    const tap = ringTap(ring, witch, '', [], 4);
    expect(tap).toEqual({ chosen: 'heal:0', picked: [4] });
    const healing = tableRing(witch, tap.chosen, true);
    expect(healing.cmd).toBe('heal');
    expect(ringTap(healing, witch, tap.chosen, tap.picked, 4)).toEqual({ chosen: '', picked: [] }); // tapped again: undone
  });
  it('poisons another seat tapped', () => {
    const ring = tableRing(witch, '', true);
    expect(ringTap(ring, witch, '', [], 2)).toEqual({ chosen: 'poison:0', picked: [2] });
    const fromHeal = tableRing(witch, 'heal:0', true);
    expect(ringTap(fromHeal, witch, 'heal:0', [4], 2)).toEqual({ chosen: '', picked: [2] });
  });
  it('offers the heal alone when the poison is used up', () => {
    const ring = tableRing(actionsOf([{ cmd: 'skip' }, { cmd: 'heal', targets: [4] }]), '', true);
    expect([ring.cmd, ring.kind, ring.targets]).toEqual(['heal', 'target', [4]]);
  });
  it('does nothing for a seat the ring does not offer', () => {
    expect(ringTap(tableRing(witch, '', true), witch, '', [], 5)).toEqual({ chosen: '', picked: [] });
  });
});

describe('nothing to do', () => {
  const day = { day: 2, night: false, step: 'skill', turn: 3 };
  it('is said to the seat holding the floor whose card gives it nothing', () => {
    expect(idle(day, 3, [])).toBe(true);
  });
  it('is not said to the others, to a seat with something to do, by night, in a speech or once over', () => {
    expect(idle(day, 4, [])).toBe(false);
    expect(idle(day, 3, actionsOf([{ cmd: 'shoot', targets: [1] }]))).toBe(false);
    expect(idle({ ...day, night: true }, 3, [])).toBe(false);
    expect(idle({ ...day, step: 'last_words' }, 3, [])).toBe(false);
    expect(idle({ ...day, over: true }, 3, [])).toBe(false);
    expect(idle(day, 0, [])).toBe(false); // a spectator
  });
});
