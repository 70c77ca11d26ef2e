// The game as one seat knows it, rebuilt from the server's frames. Pure:
// applyFrame mutates a plain object (or a Svelte $state proxy of one) and
// tells what the frame did; nothing here touches the network or the DOM.

import { CAUSES, EXILE_VOTES, OPEN_VOTES, PRIVATE_STEPS, SPEECH_STEPS, VOTE_STEPS } from './enums.js';

export function newGame(room = '') {
  return {
    room,
    seat: 0, // 0: a spectator
    players: 0,
    since: 0, // the last event number held
    chatSince: 0, // the last chat number held
    events: [],
    chats: [],
    state: null, // the last state frame
    skew: 0, // the server's clock minus ours, in ms
    caughtUp: false, // a state came after the last welcome: what follows is live
    step: '', // the last step announced to this seat
    ballots: [], // public ballots of the vote under way
    curse: 0, // the seat the crow's curse weighs on in the vote being closed (cursed_vote)
    lastVote: null, // the last vote_result, with its ballots
    deaths: {}, // seat → {cause, day} of the deaths this seat was told of
    revealed: {}, // seat → role turned face up for everyone
    checks: {}, // seat → 'good' | 'wolf' | 'not_village' | role: this seer's results
    picks: {}, // wolf seat → target: tonight's picks, for the wolves
    extra: null, // the thief's two extra cards
    day: 0, // the day number, as the state tells it
    nightNo: 0, // the number of the last night
    night: false,
    practice: false, // the welcome says the room is a practice room
    sheriff: 0, // the sheriff as the public events tell it
    sheriffWeight: 2, // what the sheriff's ballot counts in an exile vote (the room's sheriff_vote_weight)
    dawn: null, // {night, dead: [seats]}: the last dawn's announcement (public)
    exiled: null, // {day, seat}: the last exile vote's outcome (public; seat 0: nobody)
    seen: null, // {count, of, waiting}: a table's wait for the cards to be seen (docs/server.md)
    notice: null, // the last reminder ({type: 'remind', deadline, left, night, seats}) or extension ({type: 'extend', by, came})
    victim: 0, // the witch's: whom the wolves attacked tonight (witch_told)
    stamps: {}, // event seq → when it came (the server's clock), for the events that start or end a speech turn (turns.js)
    now: () => Date.now(),
  };
}

// applyFrame takes one frame from the server. It answers what happened:
// {event} a new event, {chat} a new message, {state}, {reply} an ack or an
// error, {dup} a frame already held, {gap} a frame after a missing one
// (reconnect from since to fill it), {welcome}, {filler} a night's tick or
// pad (the server sends one same-sized message per tick by night, so its
// size and timing tell nothing: they mean nothing and change nothing) or
// the day's keep-alive (the same to every connection). live
// is true once the catch-up that follows a (re)connection is over.
export function applyFrame(g, f) {
  switch (f && f.type) {
    case 'welcome':
      g.room = f.room || g.room;
      g.seat = f.seat || 0;
      g.players = f.players || g.players;
      g.practice = !!f.practice; // a practice room: its seed was fixed, so its deal can be known
      g.caughtUp = false;
      // the server's clock minus ours: deadlines are the server's times
      if (f.now) g.skew = f.now - Date.now();
      return { welcome: true };
    case 'event': {
      if (f.seq <= g.since) return { dup: true };
      if (f.seq !== g.since + 1) return { gap: true };
      g.since = f.seq;
      const e = { ...f };
      delete e.type;
      stamp(g, e);
      note(g, e);
      g.events.push(e);
      return { event: e, live: g.caughtUp };
    }
    case 'chat': {
      if (f.seq <= g.chatSince) return { dup: true };
      if (f.seq !== g.chatSince + 1) return { gap: true };
      g.chatSince = f.seq;
      const c = { seq: f.seq, channel: f.channel, seat: f.seat || 0, text: f.text, at: f.at };
      g.chats.push(c);
      return { chat: c, live: g.caughtUp };
    }
    case 'state': {
      const was = g.caughtUp;
      g.state = f;
      g.day = f.day;
      g.night = !!f.night;
      g.caughtUp = true;
      return { state: f, live: was };
    }
    case 'ack':
    case 'error':
    case 'pong':
      return { reply: f };
    case 'seen':
      // a table's wait for the cards to be seen: how many of how many
      // (never who), the same frame to every connection
      g.seen = { count: f.count || 0, of: f.of || 0, waiting: !!f.waiting };
      return { seen: g.seen };
    case 'remind': // a deadline is near (forum pace): the same frame to every seat at night
      g.notice = { type: 'remind', deadline: f.deadline, left: f.left, night: !!f.night, seats: f.seats || [] };
      return { notice: g.notice };
    case 'extend': // the host gave the running step more time, told to all
      g.notice = { type: 'extend', by: f.by, came: g.now ? g.now() : Date.now() };
      return { notice: g.notice };
    case 'tick':
    case 'pad':
    case 'alive': // the day's keep-alive: the same to every connection
      return { filler: true };
  }
  return {};
}

// Events carry no time: one that may start or end a speech turn gets the
// time it came, live (the server's clock), kept in g.stamps so a reload
// that restores them (Table) finds it again; one caught up gets its stamp.
const STAMPED = new Set(['step', 'skip', 'night', 'day', 'explode', 'game_over', 'red_card', 'exile', 'death', 'dawn']);
function stamp(g, e) {
  if (!STAMPED.has(e.kind)) return;
  if (g.stamps[e.seq]) e.at = g.stamps[e.seq];
  else if (g.caughtUp) {
    e.at = (g.now ? g.now() : Date.now()) + (g.skew || 0);
    g.stamps[e.seq] = e.at;
  }
}

// A ballot or a sheriff's hand everyone sees: the spectator sees only public
// ones; a seat's own is private (value 0) until its vote or the signup
// closes and publishes it (value 1), unless the vote is open.
function published(g, e) {
  return g.seat === 0 || e.value === 1 || e.seat !== g.seat || OPEN_VOTES.has(g.step);
}

// note keeps what the table view needs from each event, as it comes.
function note(g, e) {
  switch (e.kind) {
    case 'night':
      g.night = true;
      g.nightNo = e.value || g.nightNo + 1;
      g.picks = {};
      g.victim = 0;
      g.exiled = null;
      g.step = 'night';
      break;
    case 'day':
      g.night = false;
      g.day = e.value || g.day;
      g.picks = {}; // last night's picks leave the ring at dawn
      g.victim = 0;
      break;
    case 'step':
      if (VOTE_STEPS.has(e.step) && g.step !== e.step) g.ballots = [];
      g.step = e.step;
      if (PRIVATE_STEPS.has(e.step)) e.secret = true; // told to this seat alone: it says what his card is
      break;
    case 'shoot':
      if (g.night) e.secret = true; // a shot inside the night (night_shot=in_night) is told to the shooter alone
      break;
    case 'skip':
      if (SPEECH_STEPS.has(g.step)) e.speech = true; // the end of a speech, not a pass
      break;
    case 'sheriff':
      g.sheriff = e.seat || 0;
      break;
    case 'badge':
      g.sheriff = e.target || 0;
      break;
    case 'witch_told':
      g.victim = e.target || 0;
      break;
    case 'exile':
      g.exiled = { day: g.day, seat: e.seat || 0 };
      break;
    case 'ballot':
      e.open = published(g, e);
      if (e.open) g.ballots.push({ seat: e.seat || 0, target: e.target || 0 });
      break;
    case 'run': // a hand for sheriff (上警): the seat's own until the signup closes, then published (value 1) as a ballot is
      e.open = published(g, e);
      break;
    case 'cursed_vote':
      g.curse = e.target || 0;
      break;
    case 'vote_result':
      e.ballots = g.ballots;
      e.curse = g.curse || 0; // announced just before, without the crow: counted in this vote's totals
      g.curse = 0;
      // the sheriff's ballot counts more in an exile vote: this vote's sheriff and weight
      if (EXILE_VOTES.has(e.step || g.step) && g.sheriff) {
        e.sheriff = g.sheriff;
        e.weight = g.sheriffWeight;
      }
      g.ballots = [];
      g.lastVote = e;
      break;
    case 'death':
      g.deaths[e.seat] = { cause: CAUSES[e.value] || 'none', day: g.day, night: g.night };
      break;
    case 'dawn':
      for (const s of e.mask || []) if (!g.deaths[s]) g.deaths[s] = { cause: null, day: g.day, night: true };
      g.dawn = { night: g.nightNo, dead: [...(e.mask || [])].sort((a, b) => a - b) };
      break;
    case 'reveal':
      g.revealed[e.seat] = e.role;
      break;
    case 'imitate': // the mechanical wolf is told the card he imitated
    case 'check':
      if (e.role) g.checks[e.target] = e.role;
      else g.checks[e.target] = ['good', 'wolf', 'not_village'][e.value || 0] || 'good';
      break;
    case 'attack_pick':
      g.picks[e.seat] = e.target || 0;
      break;
    case 'extra_cards':
      g.extra = [e.role, e.value];
      break;
  }
}

// tally groups a vote's ballots by target: [{target, voters, total}], the
// most votes first, abstentions (target 0) last. total counts the sheriff's
// ballot as weight (sheriff 0: nobody's counts more), and the crow's curse
// as one vote more for the seat it weighs on (curse: true on its row, which
// it makes if nobody voted for him; the crow is not among the voters).
export function tally(ballots, sheriff = 0, weight = 1, curse = 0) {
  const by = new Map();
  for (const b of ballots || []) {
    if (!by.has(b.target)) by.set(b.target, []);
    by.get(b.target).push(b.seat);
  }
  if (curse && !by.has(curse)) by.set(curse, []);
  return [...by.entries()]
    .map(([target, voters]) => {
      const row = {
        target,
        voters: voters.sort((a, b) => a - b),
        total: voters.reduce((n, v) => n + (sheriff && v === sheriff ? weight : 1), 0),
      };
      if (curse && target === curse) {
        row.curse = true;
        row.total += 1;
      }
      return row;
    })
    .sort((a, b) => (a.target === 0) - (b.target === 0) || b.total - a.total || a.target - b.target);
}

// campOfRole: the camp a card plays for at the start.
const WOLF_CARDS = new Set(['werewolf', 'white_wolf_king', 'wolf_beauty', 'wolf_king']);

// endReason says why the winner won, from the cards and who is alive at the
// end (every card is known then): 'gods' (屠神, the wolves killed every
// god), 'villagers' (屠民), 'all' (屠城), 'wolves_out' (every wolf is out),
// 'lovers', 'piper', 'angel' (he died as he wished: exiled on day 1 or
// eaten on night 1), 'fox' (the cursed fox lived when a camp won),
// 'newlyweds' (the last camp standing: the pack dead, the village out), or ''
// (a draw, or nothing to say).
export function endReason(winner, roles, alive) {
  const living = (alive || []).map((s) => roles[s]).filter(Boolean);
  if (['lovers', 'piper', 'angel', 'fox', 'newlyweds'].includes(winner)) return winner;
  if (winner === 'village') return 'wolves_out';
  if (winner !== 'wolves') return '';
  const cards = Object.values(roles || {});
  const good = (r) => !WOLF_CARDS.has(r) && r !== 'piper';
  const gods = cards.some((r) => good(r) && r !== 'villager') && !living.some((r) => good(r) && r !== 'villager');
  const villagers = cards.includes('villager') && !living.includes('villager');
  if (gods && villagers) return 'all';
  if (gods) return 'gods';
  if (villagers) return 'villagers';
  return '';
}

// seatsOf lists 1..n.
export function seatsOf(n) {
  return Array.from({ length: n }, (_, i) => i + 1);
}

// seatView is what the ring shows of one seat.
export function seatView(g, n) {
  const st = g.state || {};
  const alive = st.alive ? st.alive.includes(n) : true;
  let role = null;
  if (n === g.seat && st.role) role = st.role;
  else if (st.known && st.known[n]) role = st.known[n];
  else if (g.revealed[n]) role = g.revealed[n];
  return {
    seat: n,
    alive,
    me: n === g.seat,
    sheriff: st.sheriff === n,
    speaking: !!st.turn && st.turn === n,
    role,
    revealed: !!g.revealed[n],
    wolf: (st.wolves || []).includes(n),
    lover: (st.lovers || []).includes(n),
    // public: a self-exploded seat is known to all as of the wolf camp, its card hidden (state 'exposed')
    exposed: (st.exposed || []).includes(n),
    check: g.checks[n] || null,
    death: g.deaths[n] || null,
  };
}

// Chat channels for tabs: the ones the seat may write to now, then the
// read-only ones it has messages in, in the order of `order`.
export function chatTabs(g, order) {
  const can = new Set((g.state && g.state.channels) || []);
  const has = new Set(g.chats.map((c) => c.channel));
  return order.filter((ch) => can.has(ch) || has.has(ch)).map((ch) => ({ channel: ch, writable: can.has(ch) }));
}
