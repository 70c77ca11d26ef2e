// The UI's strings (internal/i18n/locales/ui/*.json): the same keys in every
// language, sorted, each used key present, and the catalogue shared with the
// server holding every key the client builds.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { LANGUAGES } from './catalog.js';
import { CAMPS, CAUSES, CHANNELS, EVENTS, ROLES, STEPS, TIMERS } from './enums.js';
import { CHANGE_KINDS, VERDICTS } from './balance.js';

const root = new URL('../../../internal/i18n/locales/', import.meta.url).pathname;
const read = (p) => JSON.parse(readFileSync(join(root, p), 'utf8'));
const ui = Object.fromEntries(LANGUAGES.map((l) => [l, read('ui/' + l + '.json')]));
const domain = Object.fromEntries(LANGUAGES.map((l) => [l, read(l + '.json')]));

function sources(dir) {
  const out = [];
  for (const f of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, f.name);
    if (f.isDirectory()) out.push(sources(p)); // its text, one string (spread, its characters overflow the stack)
    else if (/\.(svelte|js)$/.test(f.name) && !f.name.endsWith('.test.js')) out.push(readFileSync(p, 'utf8'));
  }
  return out.join('\n');
}
const code = sources(new URL('../', import.meta.url).pathname);

describe('the UI catalogue', () => {
  test('same keys in every language, all ui.*, sorted, none empty', () => {
    const keys = Object.keys(ui.en);
    expect(keys.length).toBeGreaterThan(100);
    expect([...keys].sort()).toEqual(keys);
    for (const l of LANGUAGES) {
      expect(Object.keys(ui[l])).toEqual(keys);
      for (const k of keys) {
        expect(k.startsWith('ui.'), k).toBe(true);
        expect(ui[l][k].trim(), `${l} ${k}`).not.toBe('');
      }
    }
  });

  test('a translation keeps the placeholders of the English', () => {
    const ph = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const l of LANGUAGES) for (const k of Object.keys(ui.en)) expect(ph(ui[l][k]), `${l} ${k}`).toEqual(ph(ui.en[k]));
  });

  test('the files are written as the Go test reads them: 2-space indent, a final newline', () => {
    for (const l of LANGUAGES) {
      const text = readFileSync(join(root, 'ui', l + '.json'), 'utf8');
      expect(text).toBe(JSON.stringify(ui[l], null, 2) + '\n');
    }
  });

  test('every key the code names is there', () => {
    const used = new Set([...code.matchAll(/'(ui\.[a-zA-Z0-9_.-]*[a-zA-Z0-9_])'/g)].map((m) => m[1]));
    const missing = [...used].filter((k) => !(k in ui.en));
    expect(missing).toEqual([]);
  });

  test('the keys the code builds are there', () => {
    const want = [];
    for (const l of LANGUAGES) want.push('ui.lang.name.' + l);
    for (const [k] of TIMERS) want.push('ui.timer.' + k, 'ui.timer.' + k + '.hint');
    for (const c of CHANNELS) want.push('ui.channel.' + c);
    for (const b of ['smart', 'random']) want.push('ui.bots.' + b);
    for (const p of ['players', 'count', 'no_wolf', 'no_good', 'unique']) want.push('ui.board.problem.' + p);
    for (const c of ['good', 'wolf', 'not_village']) want.push('ui.check.' + c);
    for (const c of ['token', 'not_started', 'not_running', 'hello']) want.push('ui.conn.closed.' + c);
    for (const c of ['target', 'dead', 'rule', 'not_now', 'over', 'seat', 'busy', 'rate', 'spectator', 'paused', 'channel', 'offline', 'text'])
      want.push('ui.error.code.' + c);
    // target commands: a heading, a confirmation naming the seat, a prompt
    for (const c of ['attack', 'poison', 'protect', 'check', 'shoot', 'vote', 'badge', 'charm', 'ally', 'duel', 'curse', 'dream', 'hunt', 'fear', 'model', 'ask', 'mask'])
      want.push('ui.cmd.' + c, 'ui.act.' + c, 'ui.prompt.' + c);
    for (const c of ['attack', 'vote', 'explode']) want.push('ui.act.' + c + '.none');
    for (const c of ['link', 'charm', 'voters', 'swap', 'dance']) want.push('ui.cmd.' + c + '.multi', 'ui.act.' + c + '.multi', 'ui.act.' + c + '.empty', 'ui.prompt.' + c + '.multi');
    for (const c of ['abstain', 'run', 'withdraw', 'tear', 'skip']) want.push('ui.cmd.' + c);
    want.push('ui.act.order.0', 'ui.act.order.1');
    for (const k of CHANGE_KINDS) want.push('ui.balance.change.' + k);
    for (const v of VERDICTS) want.push('ui.balance.verdict.' + v);
    expect(want.filter((k) => !(k in ui.en))).toEqual([]);
  });
});

describe('the catalogue shared with the server', () => {
  test('has every role, step, cause, camp and winner the client names', () => {
    const want = ['night.falls', 'day.breaks'];
    for (const r of ROLES.slice(1)) want.push('role.' + r, 'role.' + r + '.desc');
    for (const s of STEPS.slice(1)) want.push('step.' + s);
    for (const c of CAUSES.slice(1)) want.push('cause.' + c);
    for (const c of CAMPS.slice(1)) want.push('camp.' + c, 'winner.' + c);
    for (const l of LANGUAGES) expect(want.filter((k) => !(k in domain[l])), l).toEqual([]);
  });
  test("no key is both the server's and the UI's", () => {
    for (const l of LANGUAGES) expect(Object.keys(ui[l]).filter((k) => k in domain[l])).toEqual([]);
  });
});

// rules/event.go: every event kind a seat or the replay may show.
const KINDS = EVENTS.slice(1);

test('every event kind and every variant the client picks has a template', async () => {
  const { variants } = await import('./events.js');
  const samples = [
    { kind: 'attack' }, { kind: 'attack_pick' }, { kind: 'spy' }, { kind: 'witch_told' }, { kind: 'attack_result' },
    { kind: 'feedback' }, { kind: 'badge' }, { kind: 'ballot' }, { kind: 'check', value: 0 }, { kind: 'check', value: 1 },
    { kind: 'check', value: 2 }, { kind: 'claim', value: 2 }, { kind: 'claim', value: 3 }, { kind: 'dawn' },
    { kind: 'event_card', value: 1 }, { kind: 'exile' }, { kind: 'explode', target: 2, value: 1 },
    { kind: 'explode', target: 2 }, { kind: 'explode', value: 1 }, { kind: 'game_over', value: 5 }, { kind: 'order', value: 1 },
    { kind: 'reveal', role: 'idiot', value: 1 }, { kind: 'step', role: 'seer' }, { kind: 'step', seat: 1 },
    { kind: 'vote_result' }, { kind: 'vote_result', mask: [1, 2] }, { kind: 'vote_result', mask: [1, 2], target: 1 },
    { kind: 'vote_result', mask: [1, 2], step: 'mob_vote' }, { kind: 'voters' }, { kind: 'task', target: 1 },
    ...[1, 2, 3, 4, 5, 6].map((value) => ({ kind: 'sheriff', value })),
  ];
  for (const l of LANGUAGES) {
    expect(KINDS.filter((k) => !('event.' + k in domain[l])), l).toEqual([]);
    for (const e of samples) {
      const v = variants(e);
      expect(v.length, JSON.stringify(e)).toBeGreaterThan(0);
      expect('event.' + e.kind + '.' + v[0] in domain[l], `${l} event.${e.kind}.${v[0]}`).toBe(true);
    }
  }
});

test('the dawn said aloud does not say again the day breaking (each announcement once)', () => {
  for (const l of LANGUAGES) {
    for (const k of ['ui.say.dawn', 'ui.say.dawn.one', 'ui.say.dawn.none']) {
      expect(ui[l][k], l + ' ' + k).toBeTruthy();
      expect(ui[l][k]).not.toMatch(/天亮|day breaks/i);
    }
  }
});
