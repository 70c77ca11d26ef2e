import { describe, expect, it, vi } from 'vitest';
import { callText, countdown, createNarrator, dayLine, nightPlan } from './narrate.js';

const std12 = {
  cards: ['werewolf', 'werewolf', 'werewolf', 'werewolf', 'seer', 'witch', 'hunter', 'idiot', 'villager', 'villager', 'villager', 'villager'],
  options: { first_phase: 'night', night_shot: 'dawn', narrate_absent_roles: 'on' },
  timers: { setup: '20s', night: '40s', witch: '20s', other: '20s', speech: '1m30s' },
};
const calls = (...who) => [
  { key: 'night.falls' },
  ...who.flatMap((w) => {
    const c = ['wolves', 'lovers', 'charmed'].includes(w) ? { group: w } : { role: w };
    return [{ key: 'role.open', ...c }, { key: 'role.close', ...c }];
  }),
  { key: 'day.breaks' },
];
const END = 1764489660000;
const night = (over) => ({ type: 'state', seat: 0, night: true, day: 1, step: '', alive: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
  night_end: END, deadline: END, calls: calls('seer', 'wolves', 'witch'), ...over });

describe('nightPlan', () => {
  it('calls every role of the night in order, each in the slot where it acts, from nightfall', () => {
    const p = nightPlan(std12, night(), 1);
    expect(p.start).toBe(END - 60000);
    expect(p.lines.map((l) => `${l.kind}:${l.who}`)).toEqual(['falls:', 'open:seer', 'close:seer', 'open:wolves', 'close:wolves', 'open:witch', 'close:witch']);
    const at = Object.fromEntries(p.lines.map((l) => [l.id, l.at - p.start]));
    expect(at['n1:falls']).toBe(0);
    // the seer and the wolves share the night's slot (40 s) after nightfall's line, the witch has hers (20 s)
    expect(at['n1:seer:open']).toBe(2500);
    expect(at['n1:wolves:open']).toBe(21250);
    expect(at['n1:wolves:close']).toBeLessThan(40000);
    expect(at['n1:witch:open']).toBe(40000);
    expect(at['n1:witch:close']).toBe(57500);
    for (let i = 1; i < p.lines.length; i++) expect(p.lines[i].at).toBeGreaterThan(p.lines[i - 1].at);
  });

  it('is the same whatever the roles alive: a night with the seer and the witch dead says the same lines at the same instants', () => {
    const all = nightPlan(std12, night(), 2);
    const fewer = nightPlan(std12, night({ alive: [1, 2, 3, 4, 9, 10] }), 2);
    expect(fewer).toEqual(all);
  });

  it('is the same for a woken seat, a sleeping one and the spectator: it reads night_end, never the seat\'s deadline', () => {
    const seer = night({ seat: 5, role: 'seer', pending: true, deadline: END - 20000, choices: [{ cmd: 'check', targets: [1, 2] }] });
    const villager = night({ seat: 9, role: 'villager', deadline: END });
    expect(nightPlan(std12, seer, 1)).toEqual(nightPlan(std12, night(), 1));
    expect(nightPlan(std12, villager, 1)).toEqual(nightPlan(std12, night(), 1));
  });

  it('puts the piper with the night\'s actors (he charms in the night step) and the gravekeeper after the witch', () => {
    const b = { cards: ['werewolf', 'seer', 'witch', 'piper', 'gravekeeper', 'villager'], options: {}, timers: { night: '30s', witch: '12s' } };
    const p = nightPlan(b, night({ calls: calls('seer', 'wolves', 'witch', 'gravekeeper', 'piper', 'charmed') }), 2);
    const opens = p.lines.filter((l) => l.kind === 'open');
    expect(opens.map((l) => `${l.who}@${l.slot}`)).toEqual(['seer@night', 'wolves@night', 'piper@night', 'witch@witch', 'gravekeeper@witch', 'charmed@witch']);
  });

  it('under night_order=wolves_first calls the guard and the wolves, the witch, then the seer in a slot of his own', () => {
    const b = { ...std12, cards: [...std12.cards.slice(0, 7), 'guard', ...std12.cards.slice(8)], options: { ...std12.options, night_order: 'wolves_first' },
      timers: { night: '25s', witch: '15s' } };
    const p = nightPlan(b, night({ calls: calls('guard', 'wolves', 'witch', 'seer') }), 2);
    expect(p.start).toBe(END - 55000); // 25 + 15 + the seer's 15 (the witch's timer)
    const opens = p.lines.filter((l) => l.kind === 'open');
    expect(opens.map((l) => `${l.who}@${l.slot}`)).toEqual(['guard@night', 'wolves@night', 'witch@witch', 'seer@check']);
    expect(opens.at(-1).at - p.start).toBe(40000);
    for (let i = 1; i < p.lines.length; i++) expect(p.lines[i].at).toBeGreaterThan(p.lines[i - 1].at);
  });

  it('paces every night of a board alike, whatever instant it falls at: the offsets from nightfall are rounded', () => {
    const offsets = (end) => {
      const p = nightPlan(std12, night({ night_end: end }), 2);
      return p.lines.map((l) => l.at - p.start);
    };
    expect(offsets(END + 137)).toEqual(offsets(END));
    expect(new Set(offsets(END).map((x) => x % 250))).toEqual(new Set([0]));
  });

  it('has nothing to plan by day, or without night_end', () => {
    expect(nightPlan(std12, { ...night(), night: false }, 1)).toBeNull();
    expect(nightPlan(std12, { ...night(), night_end: 0 }, 1)).toBeNull();
  });
});

const cat = {
  'night.falls': '天黑请闭眼。',
  'role.open': '{role}请睁眼。',
  'role.close': '{role}请闭眼。',
  'role.seer': '预言家',
  'role.hunter': '猎人',
  'group.wolves': '狼人',
  'ui.table.call.seer': '预言家请睁眼，你要查验谁？',
};
const tr = (k, p) => (cat[k] || k).replace(/\{(\w+)\}/g, (m, x) => (p && p[x] !== undefined ? p[x] : m));
const has = (k) => k in cat;

describe('callText', () => {
  it('says the customary line where the catalogue has one, else the plain call', () => {
    expect(callText({ kind: 'open', who: 'seer' }, tr, has)).toBe('预言家请睁眼，你要查验谁？');
    expect(callText({ kind: 'close', who: 'seer' }, tr, has)).toBe('预言家请闭眼。');
    expect(callText({ kind: 'open', who: 'wolves' }, tr, has)).toBe('狼人请睁眼。');
    expect(callText({ kind: 'falls' }, tr, has)).toBe('天黑请闭眼。');
  });
});

describe('dayLine', () => {
  it('names the speaker, calls the vote, says the public results', () => {
    expect(dayLine({ seq: 40, kind: 'step', step: 'speech', seat: 5 }, [])).toEqual({ id: 'e40', key: 'ui.table.say.speech', params: { seat: 5 } });
    expect(dayLine({ seq: 41, kind: 'step', step: 'last_words', seat: 2 }, []).key).toBe('ui.table.say.last_words');
    expect(dayLine({ seq: 42, kind: 'step', step: 'vote' }, []).key).toBe('ui.table.say.vote');
    expect(dayLine({ seq: 43, kind: 'vote_result', step: 'vote', mask: [3] }, []).key).toBe('event');
    expect(dayLine({ seq: 44, kind: 'shoot', seat: 7, target: 3 }, []).key).toBe('event');
    expect(dayLine({ seq: 45, kind: 'badge', seat: 7, target: 3 }, []).key).toBe('event');
  });
  it('keeps quiet on what is not every seat\'s: a check, a woken role, a shot inside the night, a secret step', () => {
    expect(dayLine({ seq: 1, kind: 'check', seat: 5, target: 3, value: 1 }, [])).toBeNull();
    expect(dayLine({ seq: 2, kind: 'step', step: 'night', role: 'seer' }, [], true)).toBeNull();
    expect(dayLine({ seq: 3, kind: 'shoot', seat: 7, target: 3 }, [], true)).toBeNull();
    expect(dayLine({ seq: 4, kind: 'step', step: 'night_shot', seat: 7, secret: true }, [])).toBeNull();
    expect(dayLine({ seq: 5, kind: 'camp_lost', value: 1 }, [])).toBeNull();
  });
  it('does not say a death its exile has just told', () => {
    const exile = { seq: 50, kind: 'exile', seat: 4 };
    expect(dayLine({ seq: 51, kind: 'death', seat: 4, value: 3 }, [exile])).toBeNull();
  });
});

describe('countdown', () => {
  it('warns the speaker 30 and 10 seconds before his turn ends, on the day\'s deadline', () => {
    const st = { night: false, day: 1, step: 'speech', turn: 5, deadline: END };
    expect(countdown(st).map((w) => [w.secs, w.at])).toEqual([[30, END - 30000], [10, END - 10000]]);
    expect(countdown({ ...st, step: 'vote', turn: 0 })).toEqual([]);
    expect(countdown({ ...st, paused: true })).toEqual([]);
  });
});

// a fake clock: the timers run when the test moves the time
function fakeClock(t0) {
  let now = t0;
  let q = [];
  let id = 0;
  return {
    now: () => now,
    setTimeout: (f, ms) => {
      q.push({ id: ++id, at: now + ms, f });
      return id;
    },
    clearTimeout: (x) => (q = q.filter((t) => t.id !== x)),
    run(to) {
      for (;;) {
        q.sort((a, b) => a.at - b.at);
        const t = q[0];
        if (!t || t.at > to) break;
        q.shift();
        now = t.at;
        t.f();
      }
      now = to;
    },
  };
}

describe('createNarrator', () => {
  it('says night 1 from its state, though its nightfall came in the catch-up: every call, once, at its instant', () => {
    const clock = fakeClock(END - 60000 + 400);
    const out = [];
    const n = createNarrator({ say: (l) => out.push([l.id, l.at - (END - 60000)]), text: (l) => l.key, clock });
    n.event({ seq: 3, kind: 'night', value: 1 }, false, true); // history: not said
    n.state(night(), std12, 1);
    n.state(night(), std12, 1); // the same night again: nothing twice
    clock.run(END);
    expect(out.map((x) => x[0])).toEqual(['n1:falls', 'n1:seer:open', 'n1:seer:close', 'n1:wolves:open', 'n1:wolves:close', 'n1:witch:open', 'n1:witch:close']);
    expect(out[0][1]).toBe(0);
  });

  it('does not say the lines a late device missed, nor say a line twice over a reconnection', () => {
    const clock = fakeClock(END - 30000);
    const out = [];
    const n = createNarrator({ say: (l) => out.push(l.id), text: (l) => l.key, clock });
    n.state(night(), std12, 1);
    clock.run(END - 15000);
    n.state(night({ night_end: END }), std12, 1);
    clock.run(END);
    expect(out).toEqual(['n1:wolves:close', 'n1:witch:open', 'n1:witch:close']);
  });

  it('plans again when a pause moves the dawn, saying nothing already said', () => {
    const clock = fakeClock(END - 60000);
    const out = [];
    const n = createNarrator({ say: (l) => out.push(l.id), text: (l) => l.key, clock });
    n.state(night(), std12, 1);
    clock.run(END - 50000);
    n.state(night({ paused: true, night_end: 0 }), std12, 1);
    clock.run(END - 30000); // twenty seconds of pause: nothing said
    expect(out).toEqual(['n1:falls', 'n1:seer:open']);
    n.state(night({ night_end: END + 20000 }), std12, 1);
    clock.run(END + 20000);
    expect(out).toEqual(['n1:falls', 'n1:seer:open', 'n1:seer:close', 'n1:wolves:open', 'n1:wolves:close', 'n1:witch:open', 'n1:witch:close']);
  });

  it('says the speaker\'s time left by day, and live public events at once', () => {
    const clock = fakeClock(END - 60000);
    const out = [];
    const n = createNarrator({ say: (l) => out.push(l.params && l.params.secs ? `left ${l.params.secs}` : l.key), text: () => '', clock });
    n.event({ seq: 9, kind: 'step', step: 'speech', seat: 3 }, true, false);
    n.state({ night: false, day: 1, step: 'speech', turn: 3, deadline: END }, std12, 1);
    clock.run(END);
    expect(out).toEqual(['ui.table.say.speech', 'left 30', 'left 10']);
  });

  it('never says an event of the catch-up', () => {
    const clock = fakeClock(0);
    const say = vi.fn();
    const n = createNarrator({ say, text: () => '', clock });
    n.event({ seq: 9, kind: 'exile', seat: 3 }, false, false);
    clock.run(10000);
    expect(say).not.toHaveBeenCalled();
  });
});
