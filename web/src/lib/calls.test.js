import { describe, expect, it } from 'vitest';
import { SPOKEN, callLines, nightSchedule, repeats, voiced } from './calls.js';
import { spoken } from './events.js';

const cat = {
  'role.open': '{role}请睁眼。',
  'role.close': '{role}请闭眼。',
  'role.seer': '预言家',
  'group.wolves': '狼人',
};
const tr = (k, p) => (cat[k] || k).replace('{role}', p ? p.role : '');

describe('callLines', () => {
  it('says each role call with the role or group name, leaving nightfall and dawn to their events', () => {
    const calls = [{ key: 'night.falls' }, { key: 'role.open', role: 'seer' }, { key: 'role.close', role: 'seer' },
      { key: 'role.open', group: 'wolves' }, { key: 'day.breaks' }];
    expect(callLines(calls, tr)).toEqual(['预言家请睁眼。', '预言家请闭眼。', '狼人请睁眼。']);
  });
  it('capitalizes an English line', () => {
    const en = (k, p) => ({ 'role.open': '{role}, open your eyes.', 'role.seer': 'seer' })[k].replace('{role}', p ? p.role : '');
    expect(callLines([{ key: 'role.open', role: 'seer' }], en)).toEqual(['Seer, open your eyes.']);
  });
  it('has nothing to say without calls', () => {
    expect(callLines(undefined, tr)).toEqual([]);
  });
});

// Two seats of one night: the seer is woken (its deadline is its own step's
// end, choices to check), the villager sleeps (its deadline is the dawn).
const calls = [{ key: 'night.falls' }, { key: 'role.open', group: 'wolves' }, { key: 'role.close', group: 'wolves' },
  { key: 'role.open', role: 'seer' }, { key: 'role.close', role: 'seer' }, { key: 'day.breaks' }];
const start = 1764489600000;
const nightEnd = start + 62000;
const seer = {
  type: 'state', seat: 3, role: 'seer', night: true, step: 'night', pending: true, alive: [1, 2, 3, 4, 5, 6],
  choices: [{ cmd: 'check', targets: [1, 2, 4, 5, 6] }], deadline: start + 40000, night_end: nightEnd, calls,
};
const villager = {
  type: 'state', seat: 5, role: 'villager', night: true, pending: false, alive: [1, 2, 3, 4, 5, 6],
  deadline: nightEnd, night_end: nightEnd, calls,
};

describe('the night\'s schedule', () => {
  it('is the same for a woken seat and a sleeping one: it follows night_end, not the seat\'s deadline', () => {
    const a = nightSchedule(seer, callLines(seer.calls, tr), start);
    const b = nightSchedule(villager, callLines(villager.calls, tr), start);
    expect(a).toHaveLength(4);
    expect(a).toEqual(b);
    // spread over the whole night, ending a little before the dawn
    expect(a[0].at).toBeGreaterThanOrEqual(start + 1000);
    expect(a.at(-1).at).toBeLessThan(nightEnd - 2000);
    expect(a.at(-1).at).toBeGreaterThan(start + 40000);
  });
  it('does not move with a few milliseconds of network between two devices', () => {
    const lines = callLines(calls, tr);
    expect(nightSchedule(seer, lines, start + 37)).toEqual(nightSchedule(villager, lines, start));
  });
  it('falls back on the deadline only for a server that sends no night_end', () => {
    const old = { ...villager, night_end: undefined };
    const lines = callLines(calls, tr);
    expect(nightSchedule(old, lines, start)).toEqual(nightSchedule(villager, lines, start));
    expect(nightSchedule({}, lines, start).at(-1).at).toBeLessThan(start + 30000);
  });
  it('keeps the calls apart when the night is short', () => {
    const s = nightSchedule({ night_end: start + 3000 }, ['a', 'b'], start);
    expect(s[1].at - s[0].at).toBe(1500);
  });
  it('has nothing to schedule without calls', () => {
    expect(nightSchedule(villager, [], start)).toEqual([]);
  });
});

describe('what is said aloud', () => {
  it('says nightfall, daybreak and the public announcements', () => {
    expect(voiced({ kind: 'night', value: 1 })).toBe('night');
    expect(voiced({ kind: 'day', value: 1 })).toBe('day');
    for (const kind of ['dawn', 'exile', 'vote_result', 'sheriff', 'badge', 'shoot', 'explode', 'reveal', 'game_over']) {
      expect(voiced({ kind }), kind).toBe('say');
    }
    expect(voiced({ kind: 'death', seat: 4, value: 3 }, { night: false })).toBe('say');
  });
  it('never says what only some seats are told', () => {
    for (const kind of ['camp_lost', 'check', 'role', 'wolf_team', 'attack_pick', 'attack', 'witch_told', 'heal',
      'poison', 'protect', 'extra_cards', 'swap', 'lovers', 'lover_role', 'spy', 'charmed', 'enchant', 'elder_life',
      'attack_result', 'feedback', 'no_shot', 'tails', 'kill_power', 'ally', 'black_lovers', 'task', 'resume',
      'pair', 'traders', 'trade_choice', 'trade_result', 'gift', 'lucky', 'gift_use']) {
      expect(voiced({ kind, seat: 1, value: 2 }, { table: true }), kind).toBe('');
      expect(voiced({ kind, seat: 1, value: 2 }, { night: true, table: true }), kind).toBe('');
      expect(SPOKEN.has(kind), kind).toBe(false);
    }
  });
  it('keeps quiet about a shot inside the night: the shooter alone is told it (night_shot=in_night)', () => {
    expect(voiced({ kind: 'shoot', seat: 6, target: 1 }, { night: true, table: true })).toBe('');
    expect(voiced({ kind: 'shoot', seat: 6, target: 1 }, { night: false })).toBe('say');
    expect(voiced({ kind: 'step', step: 'night_shot', seat: 6, mask: [6], secret: true }, { night: true, table: true })).toBe('');
    expect(voiced({ kind: 'shoot', seat: 6, target: 1, secret: true })).toBe('');
  });
  it('keeps quiet about a death or a lost power heard by night, and a role woken up', () => {
    expect(voiced({ kind: 'death', seat: 4, value: 1 }, { night: true })).toBe('');
    expect(voiced({ kind: 'powers_lost' }, { night: true })).toBe('');
    expect(voiced({ kind: 'step', step: 'night', role: 'seer', mask: [3] }, { night: true, table: true })).toBe('');
    expect(voiced({ kind: 'step', step: 'witch', mask: [3] }, { night: true, table: true })).toBe('');
  });
  it('calls whose turn it is by day, at a table device only', () => {
    const e = { kind: 'step', step: 'speech', seat: 4, mask: [4] };
    expect(voiced(e, { table: true })).toBe('say');
    expect(voiced(e, { table: false })).toBe('');
  });
});

describe('each announcement once', () => {
  it('does not say again a death the line before told', () => {
    const heard = [{ kind: 'vote_result', target: 4, mask: [4] }, { kind: 'exile', seat: 4 }];
    expect(repeats({ kind: 'death', seat: 4, value: 3 }, heard)).toBe(true);
    expect(repeats({ kind: 'death', seat: 6, value: 3 }, heard)).toBe(false);
    expect(repeats({ kind: 'death', seat: 7 }, [{ kind: 'shoot', seat: 2, target: 7 }])).toBe(true);
    expect(repeats({ kind: 'death', seat: 2 }, [{ kind: 'explode', seat: 2, target: 5 }])).toBe(true);
    expect(repeats({ kind: 'death', seat: 5 }, [{ kind: 'explode', seat: 2, target: 5 }])).toBe(true);
    expect(repeats({ kind: 'death', seat: 3 }, [{ kind: 'red_card', seat: 3 }])).toBe(true);
    expect(repeats({ kind: 'exile', seat: 4 }, heard)).toBe(false);
  });
  it('says the dawn without the "day breaks" daybreak has just said', () => {
    const dict = { 'event.dawn': 'Day breaks. Last night seats {mask} died.', 'event.dawn.none': 'Day breaks. Last night nobody died.',
      'ui.say.dawn': 'Last night seats {mask} died.', 'ui.say.dawn.one': 'Last night seat {mask} died.',
      'ui.say.dawn.none': 'Last night was a peaceful night.', 'event.exile': 'Seat {seat} is exiled.', 'ui.list.sep': ', ' };
    expect(spoken(dict, { kind: 'dawn', mask: [3] })).toBe('Last night seat 3 died.');
    expect(spoken(dict, { kind: 'dawn', mask: [3, 5] })).toBe('Last night seats 3, 5 died.');
    expect(spoken(dict, { kind: 'dawn', mask: [] })).toBe('Last night was a peaceful night.');
    expect(spoken(dict, { kind: 'exile', seat: 2 })).toBe('Seat 2 is exiled.');
    for (const d of ['ui.say.dawn', 'ui.say.dawn.one', 'ui.say.dawn.none']) expect(dict[d]).not.toMatch(/day breaks/i);
  });
});
