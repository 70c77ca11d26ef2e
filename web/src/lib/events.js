// An event of the game in words: the catalogue's template for its kind
// (event.<kind>, or a suffixed variant such as event.dawn.none) filled with
// its fields. Pure; the dictionary is passed in.

import { first, lookup } from './catalog.js';
import { CAMPS, CAUSES, CHECK_RESULTS, CLAIMS, EVENT_CARDS, ROLES, STEPS } from './enums.js';

// rules/game.go: the moderator's tasks after a death (a task event's value).
const TASKS = [null, 'skill', 'badge', 'last_words', 'voters', 'ally'];

// rules/warden.go: who betrayed (a trade_result's value, bit 0 the seat, bit 1 the target).
const TRADES = [null, 'seat_betrays', 'target_betrays', 'both_betray'];

// rules/flow.go: why the badge went nowhere (a sheriff event's value).
const SHERIFF = [null, 'no_candidate', 'no_voter', 'tie', 'explosion', 'idiot', 'red_card'];

// The step an event names: frames carry its name, the replay its number.
export function stepOf(e) {
  return e.step || STEPS[e.value] || '';
}

// variants lists the suffixes to try for an event, most specific first;
// the plain key comes after them.
export function variants(e) {
  const some = (m) => m && m.length > 0;
  switch (e.kind) {
    case 'attack':
      if (e.drawn && e.target) return ['drawn'];
      return e.target ? [] : ['none'];
    case 'attack_pick':
    case 'spy':
    case 'witch_told':
      return e.target ? [] : ['none'];
    case 'attack_result':
      return e.value === 1 ? [] : ['survived'];
    case 'feedback':
      return e.value === 1 ? [] : ['missed'];
    case 'badge':
    case 'ballot':
      return e.target ? [] : ['none'];
    case 'check':
      return e.role ? [] : [CHECK_RESULTS[e.value || 0]];
    case 'duel':
      return e.value === 1 ? ['wolf'] : []; // rules: ResultWolf, the wolf dies; else the knight
    case 'growl':
      return e.value === 1 ? [] : ['silent'];
    case 'ask':
      return e.value === 1 ? [] : ['no'];
    case 'trade_choice':
      return e.value === 1 ? ['betray'] : [];
    case 'trade_result':
      return TRADES[e.value] ? [TRADES[e.value]] : [];
    case 'gift':
    case 'lucky':
    case 'gift_use':
      return e.value === 2 ? ['poison'] : e.value === 3 ? ['shield'] : []; // rules.GiftPoison, GiftShield; the base key: the check
    case 'grave':
      if (!e.target) return e.value === 1 ? ['none_yet'] : ['none']; // rules.GraveNoDayYet: night 1
      return e.value === 1 ? ['wolf'] : [];
    case 'claim':
      return CLAIMS[e.value] && CLAIMS[e.value] !== 'role' ? [CLAIMS[e.value]] : [];
    case 'dawn':
      return some(e.mask) ? [] : ['none'];
    case 'event_card':
      return EVENT_CARDS[e.value] ? [EVENT_CARDS[e.value]] : [];
    case 'exile':
      return e.seat ? [] : ['none'];
    case 'explode': {
      const kept = e.value === 1;
      if (e.target) return kept ? ['target.kept', 'target'] : ['target'];
      return kept ? ['kept'] : [];
    }
    case 'game_over':
      return CAMPS[e.value] === 'draw' ? ['draw'] : [];
    case 'order':
      return e.value === 1 ? ['ccw'] : [];
    case 'reveal':
      return e.value === 1 ? ['idiot'] : []; // the idiot shows his card and lives
    case 'sheriff':
      return SHERIFF[e.value] ? [SHERIFF[e.value]] : [];
    case 'step':
      if (e.role) return ['role'];
      return e.seat ? ['turn'] : [];
    case 'vote_result': {
      const n = (e.mask || []).length;
      if (n === 0) return ['none'];
      if (n === 1) return [];
      if (e.target || e.drawn) return ['drawn'];
      return stepOf(e) === 'mob_vote' ? ['candidates', 'tie'] : ['tie'];
    }
    case 'voters':
      return some(e.mask) ? [] : ['none'];
    case 'task':
      return e.target === 1 ? ['first'] : [];
  }
  return [];
}

// params are an event's fields in words, for its template.
export function params(dict, e) {
  const name = (k) => (k ? lookup(dict, k) : '');
  const sep = dict['ui.list.sep'] || ', ';
  const p = {
    seat: e.seat || 0,
    target: e.target || 0,
    value: e.value || 0,
    mask: (e.mask || []).join(sep),
    role: e.role ? name('role.' + e.role) : '',
    step: e.kind === 'step' || e.kind === 'vote_result' ? name('step.' + stepOf(e)) : '',
    to: (e.to || []).join(sep), // the seats told (the replay's)
    who: e.seat || (e.to || [])[0] || 0, // the seat it is about: the actor, else the one told
  };
  switch (e.kind) {
    case 'step':
      if (e.role === 'werewolf') p.role = name('group.wolves'); // the wolves wake together
      break;
    case 'death':
      p.cause = name('cause.' + (CAUSES[e.value] || 'none'));
      break;
    case 'game_over':
    case 'camp_lost':
      p.camp = name('camp.' + (CAMPS[e.value] || 'none'));
      break;
    case 'extra_cards':
      p.value = ROLES[e.value] ? name('role.' + ROLES[e.value]) : e.value;
      break;
    case 'event_card':
      p.value = EVENT_CARDS[e.value] || e.value;
      break;
    case 'resume':
      p.step = name('step.' + (STEPS[e.value] || ''));
      break;
    case 'task':
      p.step = name('step.' + (TASKS[e.value] || ''));
      break;
  }
  return p;
}

// describe is the event in words.
// third: in the third person, the seat told named ("seat 5 checked seat
// 3: a wolf", not "your check"), as the replay reads: its own templates
// (ui.replay.event.…) first where the plain one says "you".
export function describe(dict, e, { third = false } = {}) {
  const base = 'event.' + e.kind;
  let keys = variants(e).map((v) => base + '.' + v);
  keys.push(base);
  // one seat reads in the singular ("seat 10 died"), where the UI says so
  if ((e.mask || []).length === 1) keys = keys.flatMap((k) => ['ui.' + k + '.one', k]);
  if (e.kind === 'skip' && e.speech) keys.unshift('ui.event.skip.speech'); // the end of a speech is no pass
  if (third) keys = keys.flatMap((k) => (k.startsWith('event.') ? ['ui.replay.' + k, k] : [k]));
  const p = params(dict, e);
  return first(dict, keys, p) ?? base;
}

// spoken is the event as the moderator says it aloud: the dawn's line
// without its "Day breaks", which daybreak's own call has just said
// (ui.say.dawn…); any other as it reads.
export function spoken(dict, e) {
  if (e.kind === 'dawn') {
    const n = (e.mask || []).length;
    const key = n === 0 ? 'ui.say.dawn.none' : n === 1 ? 'ui.say.dawn.one' : 'ui.say.dawn';
    const line = first(dict, [key], params(dict, e));
    if (line != null) return line;
  }
  return describe(dict, e);
}
