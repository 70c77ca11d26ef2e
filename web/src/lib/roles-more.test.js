// The roles of ROLES-MORE.md in the client: the name lists of the Go
// sources (rules/*.go) are the client's, every command a state's choices may
// name has a label, every step a name (and the new night stages a prompt),
// every event kind a line, in the three languages.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe as group, expect, test } from 'vitest';
import { LANGUAGES } from './catalog.js';
import { CAUSES, COMMANDS, EVENTS, PRIVATE_STEPS, ROLES, STEPS, WOLF_ROLES } from './enums.js';
import { describe, variants } from './events.js';
import { optionShown } from './board.js';

const rules = new URL('../../../rules/', import.meta.url).pathname;
const locales = new URL('../../../internal/i18n/locales/', import.meta.url).pathname;
const go = (f) => readFileSync(join(rules, f), 'utf8');
const read = (p) => JSON.parse(readFileSync(join(locales, p), 'utf8'));
const dicts = Object.fromEntries(LANGUAGES.map((l) => [l, { ...read(l + '.json'), ...read('ui/' + l + '.json') }]));

// the strings of a Go array literal `var name = [...]string{...}`
function goNames(src, name) {
  const m = new RegExp('var ' + name + ' = \\[\\w+\\]string\\{([^}]*)\\}').exec(src);
  if (!m) throw new Error('no ' + name);
  return [...m[1].matchAll(/"([^"]*)"/g)].map((x) => x[1]);
}
// rules/role.go roleTable: [id, camp]
const roleTable = [...go('role.go').matchAll(/^\s*\w+:\s*\{"([a-z_]+)", "[^"]*", (\w+),/gm)].map((m) => [m[1], m[2]]);

const CMDS = goNames(go('command.go'), 'cmdNames');
const STEP_NAMES = goNames(go('step.go'), 'stepNames');
const KINDS = goNames(go('event.go'), 'eventNames');

// the commands that name one seat (a target), and those naming several (pick)
const TARGET_CMDS = ['attack', 'poison', 'protect', 'check', 'shoot', 'vote', 'badge', 'charm', 'ally', 'duel', 'curse',
  'dream', 'hunt', 'fear', 'model', 'gift_check', 'gift_poison', 'gift_shield'];
const MULTI_CMDS = ['link', 'charm', 'voters', 'swap', 'pair'];

group('the name lists of the Go sources', () => {
  test('commands, steps, events, roles, causes', () => {
    expect(COMMANDS).toEqual(CMDS);
    expect(STEPS).toEqual(STEP_NAMES);
    expect(EVENTS).toEqual(KINDS);
    expect(ROLES).toEqual(roleTable.map((r) => r[0]));
    expect(CAUSES).toEqual(goNames(go('event.go'), 'causeNames'));
  });
  test("the wolves' cards are the camp wolves of rules/role.go", () => {
    expect([...WOLF_ROLES].sort()).toEqual(roleTable.filter((r) => r[1] === 'Wolves').map((r) => r[0]).sort());
  });
});

group('labels in every language', () => {
  for (const l of LANGUAGES) {
    const d = dicts[l];
    test(l + ': every command has a label, a target command its confirmation and prompt', () => {
      const missing = [];
      for (const c of CMDS.slice(1)) {
        if (c === 'claim') continue; // the claim box, its own labels
        if (!('ui.cmd.' + c in d) && !('ui.act.' + c + '.none' in d)) missing.push('ui.cmd.' + c);
      }
      for (const c of TARGET_CMDS) for (const k of ['ui.cmd.' + c, 'ui.act.' + c, 'ui.prompt.' + c]) if (!(k in d)) missing.push(k);
      for (const c of MULTI_CMDS)
        for (const k of ['ui.cmd.' + c + '.multi', 'ui.act.' + c + '.multi', 'ui.act.' + c + '.empty', 'ui.prompt.' + c + '.multi'])
          if (!(k in d)) missing.push(k);
      expect(missing).toEqual([]);
    });
    test(l + ': every step has a name, the new night stages a prompt and a pass', () => {
      const missing = STEP_NAMES.slice(1).filter((s) => !('step.' + s in d)).map((s) => 'step.' + s);
      for (const s of ['nightmare', 'magician', 'merchant', 'lucky', 'warden', 'trade']) for (const k of ['ui.prompt.step.' + s, 'ui.act.skip.' + s]) if (!(k in d)) missing.push(k);
      expect(missing).toEqual([]);
    });
    test(l + ': every event kind has a line, every variant picked for the new ones too', () => {
      expect(KINDS.slice(1).filter((k) => !('event.' + k in d))).toEqual([]);
      const samples = [
        { kind: 'duel', seat: 3, target: 5, value: 1 }, { kind: 'duel', seat: 3, target: 5, value: 0 },
        { kind: 'grave', seat: 2, target: 4, value: 1 }, { kind: 'grave', seat: 2, target: 4 }, { kind: 'grave', seat: 2 }, { kind: 'grave', seat: 2, value: 1 },
        { kind: 'curse', seat: 1, target: 2 }, { kind: 'cursed_vote', target: 2, value: 1 }, { kind: 'dream', seat: 1, target: 2 },
        { kind: 'magic', seat: 1, mask: [2, 3] }, { kind: 'hunt', seat: 1, target: 2 }, { kind: 'fear', seat: 1, target: 2 },
        { kind: 'feared', seat: 2 }, { kind: 'no_attack', to: [4, 5], value: 1 }, { kind: 'reflect', seat: 1, target: 2 },
        { kind: 'model', seat: 1, target: 2 }, { kind: 'wild_wolf', seat: 1, target: 2 }, { kind: 'blood_moon', seat: 1, value: 2 },
        { kind: 'death', seat: 2, value: 13 }, { kind: 'death', seat: 2, value: 16 },
        { kind: 'pair', seat: 1, mask: [2, 3] }, { kind: 'traders', to: [2, 3], mask: [2, 3] },
        { kind: 'trade_choice', seat: 2 }, { kind: 'trade_choice', seat: 2, value: 1 },
        ...[0, 1, 2, 3].map((value) => ({ kind: 'trade_result', seat: 2, target: 3, value })),
        ...[1, 2, 3].flatMap((value) => [{ kind: 'gift', seat: 1, target: 4, value }, { kind: 'lucky', seat: 4, value },
          { kind: 'gift_use', seat: 4, target: 5, value }]),
        { kind: 'death', seat: 2, value: 19 }, { kind: 'death', seat: 2, value: 20 },
      ];
      for (const e of samples) {
        const v = variants(e);
        if (v.length) expect('event.' + e.kind + '.' + v[0] in d, `event.${e.kind}.${v[0]}`).toBe(true);
        for (const third of [false, true]) {
          const line = describe(d, e, { third });
          expect(line, JSON.stringify(e)).not.toMatch(/^event\.|\{\w+\}/);
          if (e.target) expect(line).toContain(String(e.target));
        }
      }
    });
  }
  test('the duel and the grave read their result', () => {
    const d = dicts.en;
    expect(describe(d, { kind: 'duel', seat: 3, target: 5, value: 1 })).toMatch(/wolf/);
    expect(describe(d, { kind: 'duel', seat: 3, target: 5, value: 0 })).toMatch(/knight dies/);
    expect(describe(d, { kind: 'grave', seat: 2, target: 4, value: 1 })).toMatch(/wolf/);
    expect(describe(d, { kind: 'grave', seat: 2, target: 4, value: 0 })).toMatch(/good/);
    expect(describe(d, { kind: 'grave', seat: 2 })).toMatch(/Nobody/);
    expect(describe(d, { kind: 'grave', seat: 2, value: 1 })).toMatch(/No exile yet/);
    expect(describe(d, { kind: 'magic', seat: 1, mask: [2, 7] })).toContain('2, 7');
  });
  test('the replay names the seat told, never "you", for the private powers', () => {
    for (const kind of ['curse', 'dream', 'magic', 'hunt', 'fear', 'feared', 'model', 'wild_wolf', 'grave', 'pair', 'trade_choice', 'gift', 'lucky', 'gift_use']) {
      const e = { kind, seat: 3, target: 5, mask: [5, 6], to: [3], value: 1 };
      expect(describe(dicts.en, e, { third: true }), kind).not.toMatch(/\byou\b/i);
      for (const l of ['zh-Hans', 'zh-Hant']) expect(describe(dicts[l], e, { third: true }), l + ' ' + kind).not.toMatch(/你/);
    }
  });
});

group('the new stages and options', () => {
  test("the nightmare's and the magician's stages are told to their seat alone", () => {
    expect(PRIVATE_STEPS.has('nightmare')).toBe(true);
    expect(PRIVATE_STEPS.has('magician')).toBe(true);
  });
  test('the options of the new cards show with their card, the wolves\' ones on any board', () => {
    const plain = ['werewolf', 'seer', 'villager'];
    for (const [o, r] of [['knight_duel_in_campaign', 'knight'], ['knight_duel_ends_day', 'knight'],
      ['dreamcatcher_must_dream', 'dreamcatcher'], ['magician_swap_once', 'magician'], ['spirit_knight_reflect', 'spirit_knight']]) {
      expect(optionShown(o, plain), o).toBe(false);
      expect(optionShown(o, [...plain, r]), o).toBe(true);
    }
    for (const o of ['wolf_no_target', 'first_night_attack']) expect(optionShown(o, plain)).toBe(true);
  });
});
