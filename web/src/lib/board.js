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
