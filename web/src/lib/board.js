// The text of a board file (docs/boards.md), built from the card picker,
// and the checks the picker shows before the server is asked.

import { REPEATABLE, WOLF_ROLES } from './enums.js';

export const MIN_PLAYERS = 3;
export const MAX_PLAYERS = 20;

// cardsNeeded: one card per player, two more with a thief.
export function cardsNeeded(players, cards) {
  return players + ((cards.thief || 0) > 0 ? 2 : 0);
}

export function cardCount(cards) {
  return Object.values(cards).reduce((n, c) => n + (c > 0 ? c : 0), 0);
}

// boardProblems lists what is wrong with a board, as codes the UI names
// (ui.board.problem.<code>): an empty list means the server should accept it.
export function boardProblems({ players, cards }) {
  const out = [];
  if (!Number.isInteger(players) || players < MIN_PLAYERS || players > MAX_PLAYERS) out.push('players');
  const n = cardCount(cards);
  if (n !== cardsNeeded(players, cards)) out.push('count');
  const roles = Object.keys(cards).filter((r) => cards[r] > 0);
  if (!roles.some((r) => WOLF_ROLES.has(r))) out.push('no_wolf');
  if (!roles.some((r) => !WOLF_ROLES.has(r))) out.push('no_good');
  if (roles.some((r) => !REPEATABLE.has(r) && cards[r] > 1)) out.push('unique');
  return out;
}

// A YAML scalar: a JSON string is a valid YAML double-quoted scalar.
const scalar = (s) => JSON.stringify(String(s));

// buildBoard writes a board file: name and description if given, players,
// the cards as a map in the order of `order` (the catalogue's role order),
// and the options that differ from `defaults`.
export function buildBoard({ name, description, players, cards, options, defaults, order }) {
  const lines = [];
  if (name && name.trim()) lines.push(`name: ${scalar(name.trim())}`);
  if (description && description.trim()) lines.push(`description: ${scalar(description.trim())}`);
  lines.push(`players: ${players}`);
  lines.push('cards:');
  const roles = order ? order.filter((r) => r in cards) : Object.keys(cards);
  for (const r of Object.keys(cards)) if (!roles.includes(r)) roles.push(r);
  for (const r of roles) {
    if (cards[r] > 0) lines.push(`  ${r}: ${cards[r]}`);
  }
  const changed = Object.keys(options || {}).filter((k) => !defaults || defaults[k] !== options[k]).sort();
  if (changed.length) {
    lines.push('options:');
    for (const k of changed) lines.push(`  ${k}: ${scalar(options[k])}`);
  }
  return lines.join('\n') + '\n';
}

// changedOptions is the part of options that differs from defaults: what
// a room's creation request needs to name.
export function changedOptions(options, defaults) {
  const out = {};
  for (const k of Object.keys(options).sort()) {
    if (!defaults || defaults[k] !== options[k]) out[k] = options[k];
  }
  return out;
}

// A preset's cards as a map role → count.
export function countCards(list) {
  const out = {};
  for (const r of list || []) out[r] = (out[r] || 0) + 1;
  return out;
}

// The options that matter only with some cards: an option shows when the
// board holds every card of one of its sets (a witch for the witch's, a
// guard and a witch for a guarded and healed player…). An option not named
// here is the whole table's and always shows. Some follow another option's
// value instead (the angry mob's draw only with that vote).
export const OPTION_CARDS = {
  seer_sees: [['seer']],
  witch_informed: [['witch']],
  witch_self_heal: [['witch']],
  witch_both_same_night: [['witch']],
  guard_repeat: [['guard']],
  guard_heal_same_target: [['guard', 'witch']],
  hunter_shoots_when_poisoned: [['hunter', 'witch']],
  hunter_shoots_on_heartbreak: [['hunter', 'cupid'], ['hunter', 'wolf_beauty'], ['hunter', 'ghost_bride']],
  win_check_before_shot: [['hunter'], ['wolf_king']],
  action_feedback: [['witch'], ['hunter'], ['wolf_king']],
  thief_must_take_wolf: [['thief']],
  lovers_see_roles: [['cupid']],
  cupid_camp: [['cupid']],
  black_lovers: [['cupid']],
  little_girl_spy: [['little_girl']],
  elder_heal_consumes_life: [['elder', 'witch']],
  idiot_dies_with_elder: [['idiot', 'elder']],
  exploded_sheriff_badge: [['werewolf'], ['white_wolf_king'], ['wolf_beauty'], ['wolf_king'], ['gargoyle'], ['nightmare'],
    ['blood_moon']], // a wolf who may explode, with a sheriff
  night_shot: [['hunter'], ['wolf_king']],
  knight_duel_in_campaign: [['knight']],
  knight_duel_ends_day: [['knight']],
  dreamcatcher_must_dream: [['dreamcatcher']],
  magician_swap_once: [['magician']],
  spirit_knight_reflect: [['spirit_knight']],
  silence_covers_last_words: [['silence_elder']],
  bear_reads: [['bear_tamer']],
  sequence_prince_extra_speech: [['sequence_prince']],
  dancer_once_per_player: [['dancer']],
  night_order: [['seer'], ['psychic']], // it moves only the checkers
  // wolf_no_target and first_night_attack are the whole table's: not named, they show on any board
};
// A board with a sheriff: any value of the option but "none".
const sheriffed = (o) => o.sheriff !== 'none';
export const OPTION_AFTER = {
  mob_random_after: (o) => o.day_vote === 'angry_mob',
  sheriff_vote_weight: sheriffed,
  double_explode: sheriffed,
  exploded_sheriff_badge: sheriffed,
};

// optionShown tells whether the create page shows an option for a board's
// cards (a map role → count, or a list) and the options as chosen.
export function optionShown(name, cards, options = {}) {
  const held = new Set(Array.isArray(cards) ? cards : Object.keys(cards || {}).filter((r) => cards[r] > 0));
  const sets = OPTION_CARDS[name];
  if (sets && !sets.some((s) => s.every((r) => held.has(r)))) return false;
  const after = OPTION_AFTER[name];
  return !after || !!after(options || {});
}

// parseBoard reads the text of a board file (docs/boards.md: name,
// description, players, cards as a map or a list, options) into
// {name, description, players, cards, options}, or {error, line}: the
// picker shows what a pasted file sets up, and the server checks it again.
export function parseBoard(text) {
  const out = { name: '', description: '', players: 0, cards: {}, options: {} };
  let section = '';
  const unquote = (v) => {
    v = v.trim();
    if (/^".*"$/.test(v)) {
      try {
        return JSON.parse(v);
      } catch {
        return v.slice(1, -1);
      }
    }
    if (/^'.*'$/.test(v)) return v.slice(1, -1).replace(/''/g, "'");
    return v;
  };
  const strip = (l) => {
    // a comment starts at a # outside quotes
    let q = '';
    for (let i = 0; i < l.length; i++) {
      const c = l[i];
      if (q) {
        if (c === q) q = '';
      } else if (c === '"' || c === "'") q = c;
      else if (c === '#' && (i === 0 || /\s/.test(l[i - 1]))) return l.slice(0, i);
    }
    return l;
  };
  const addCard = (r, n, line) => {
    if (!/^[a-z_]+$/.test(r)) return { error: 'role', line, value: r };
    out.cards[r] = (out.cards[r] || 0) + n;
    return null;
  };
  const lines = String(text || '').split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = strip(lines[i]).replace(/\s+$/, '');
    if (!raw.trim()) continue;
    const line = i + 1;
    const indented = /^\s/.test(raw);
    const item = /^\s*-\s+(.+)$/.exec(raw);
    if (item && section === 'cards') {
      const e = addCard(unquote(item[1]), 1, line);
      if (e) return e;
      continue;
    }
    const kv = /^\s*([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(raw);
    if (!kv) return { error: 'syntax', line };
    const [, key, value] = kv;
    if (indented && (section === 'cards' || section === 'options')) {
      if (section === 'cards') {
        const n = Number(value);
        if (!Number.isInteger(n) || n < 1) return { error: 'count', line, value: key };
        const e = addCard(key, n, line);
        if (e) return e;
      } else out.options[key] = unquote(value);
      continue;
    }
    if (indented) return { error: 'syntax', line };
    section = '';
    switch (key) {
      case 'name':
      case 'description':
        out[key] = unquote(value);
        break;
      case 'players':
        out.players = Number(value);
        if (!Number.isInteger(out.players)) return { error: 'players', line };
        break;
      case 'cards':
        if (/^\[.*\]$/.test(value.trim())) {
          for (const r of value.trim().slice(1, -1).split(',').map((x) => unquote(x)).filter(Boolean)) {
            const e = addCard(r, 1, line);
            if (e) return e;
          }
        } else if (value.trim()) return { error: 'syntax', line };
        else section = 'cards';
        break;
      case 'options':
        if (value.trim()) return { error: 'syntax', line };
        section = 'options';
        break;
      default:
        return { error: 'key', line, value: key };
    }
  }
  if (!out.players) return { error: 'players', line: 0 };
  if (!Object.keys(out.cards).length) return { error: 'cards', line: 0 };
  return out;
}

// Boards kept on this device: [{name, text, at}], the newest first; one
// name holds one board (saved again, it is replaced).
export function keepBoard(list, name, text, at = Date.now()) {
  const n = String(name || '').trim();
  return [{ name: n, text, at }, ...(list || []).filter((b) => b.name !== n)].slice(0, 30);
}
