// Rooms before the game: the create request's seed, practice rooms, the
// seats the host closed. Pure, for tests.

// seedFields is what the create request says of the form's seed field: a
// fixed seed makes a practice room (its deal can be known, from the seed),
// which the server must be told (it refuses a seed without it).
export function seedFields(seed) {
  const s = String(seed ?? '').trim();
  if (!s) return {};
  return { seed: Number(s), practice: true };
}

// placeFields is what the create request says of where the game is played
// and its pace (issue 23): a room for a table waits for the cards to be
// seen; the pace goes only when it is not the server's default for the
// place (quick at a table, standard online), so that a server without
// paces, which refuses a field it does not know, makes such rooms still.
export function placeFields(where, pace, defaults) {
  const out = {};
  if (where === 'table') out.card_seen = true;
  if (pace && pace !== defaults[where]) out.pace = pace;
  return out;
}

// isPractice: the room info (or the lobby's row) or the game's welcome says
// the room is a practice room.
export function isPractice(room, g) {
  return !!((room && room.practice) || (g && g.practice));
}

// seatState is what a seat of the waiting room is: 'closed' (the host
// emptied it: nobody may join it until he reopens it, though a bot may
// still take it), 'empty', 'bot' or 'player'.
export function seatState(s) {
  if (!s) return 'empty';
  if (s.nick) return 'player';
  if (s.bot) return 'bot';
  if (s.closed) return 'closed';
  return 'empty';
}

// freeSeats counts the seats a player may still join (empty, not closed);
// bots take closed seats too (room.players - room.taken).
export function freeSeats(room) {
  if (!room) return 0;
  if (!Array.isArray(room.seats) || !room.seats.length) return Math.max(0, (room.players || 0) - (room.taken || 0));
  return room.seats.filter((s) => seatState(s) === 'empty').length;
}

// timerSecs reads a timer field of the create page: seconds ("90", "1.5"),
// or a duration as the server writes them ("24h", "90m", "1h30m", "45s");
// NaN for anything else, '' left to the caller (the pace's).
export function timerSecs(v) {
  const s = String(v ?? '').trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Math.round(Number(s) * 1000) / 1000;
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+(?:\.\d+)?)s)?$/.exec(s);
  if (!s || !m) return NaN;
  return (Number(m[1] || 0) * 3600) + (Number(m[2] || 0) * 60) + Math.round(Number(m[3] || 0) * 1000) / 1000;
}

// timerLabel writes a pace's seconds as the field's placeholder: "20h",
// "90m" for whole hours and minutes past an hour, else the seconds.
export function timerLabel(secs) {
  if (secs >= 3600 && secs % 3600 === 0) return secs / 3600 + 'h';
  if (secs >= 3600 && secs % 60 === 0) return secs / 60 + 'm';
  return String(secs);
}
