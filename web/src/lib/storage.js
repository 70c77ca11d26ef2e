// What the browser remembers: the language, settings, the nickname, and
// for each room the tokens this device holds (a seat's, the host's).

const P = 'wolfden.';

function store() {
  try {
    return globalThis.localStorage || null;
  } catch {
    return null; // storage disabled
  }
}

export function load(key, fallback) {
  const s = store();
  if (!s) return fallback;
  try {
    const v = s.getItem(P + key);
    return v === null ? fallback : JSON.parse(v);
  } catch {
    return fallback;
  }
}

export function save(key, value) {
  const s = store();
  if (!s) return;
  try {
    if (value === undefined || value === null) s.removeItem(P + key);
    else s.setItem(P + key, JSON.stringify(value));
  } catch {
    // full or disabled: the session goes on without remembering
  }
}

// A room's tokens: {token, seat, host, nick, at}.
export function roomAuth(id) {
  return load('room.' + id, null) || {};
}

export function saveRoomAuth(id, patch) {
  const cur = roomAuth(id);
  const next = { ...cur, ...patch, at: Date.now() };
  for (const k of Object.keys(next)) if (next[k] === undefined || next[k] === null) delete next[k];
  save('room.' + id, next);
  return next;
}

export function forgetSeat(id) {
  const cur = roomAuth(id);
  delete cur.token;
  delete cur.seat;
  if (Object.keys(cur).filter((k) => k !== 'at').length === 0) save('room.' + id, null);
  else save('room.' + id, cur);
}

// The rooms this device holds a token for, the latest first.
export function myRooms() {
  const s = store();
  if (!s) return [];
  const out = [];
  for (let i = 0; i < s.length; i++) {
    const k = s.key(i);
    if (k && k.startsWith(P + 'room.')) {
      const id = k.slice(P.length + 5);
      out.push({ id, ...roomAuth(id) });
    }
  }
  return out.sort((a, b) => (b.at || 0) - (a.at || 0));
}

// The tab's memory (sessionStorage): what a reload of this page keeps, such
// as the times this tab received a game's events (turns.js).
export function loadSession(key, fallback) {
  try {
    const v = globalThis.sessionStorage && globalThis.sessionStorage.getItem(P + key);
    return v ? JSON.parse(v) : fallback;
  } catch {
    return fallback;
  }
}

// warmSession has the browser load the tab's memory now, while nothing
// waits on it: its first use blocks the page on the browser's own process
// (tens of ms on a busy machine), which at the table's first drawing, just
// after the start, it would otherwise be.
export function warmSession() {
  try {
    return globalThis.sessionStorage ? globalThis.sessionStorage.length : 0;
  } catch {
    return 0;
  }
}

export function saveSession(key, value) {
  try {
    if (globalThis.sessionStorage) globalThis.sessionStorage.setItem(P + key, JSON.stringify(value));
  } catch {
    // full or disabled: a reload will not judge the turns it cannot time
  }
}

// takeSeatLink keeps the seat a private link hands over (a chat group's
// judge sends each player /room/ID#seat=N&token=T, docs/chat.md): the
// fragment never reaches a server or its logs, and is dropped from the
// address bar once kept.
export function takeSeatLink(id, loc = globalThis.location, hist = globalThis.history) {
  const m = /^#seat=(\d{1,2})&token=([A-Za-z0-9_-]{16,128})$/.exec((loc && loc.hash) || '');
  if (!m) return false;
  saveRoomAuth(id, { seat: Number(m[1]), token: m[2] });
  if (hist && loc) hist.replaceState(hist.state, '', loc.pathname + loc.search);
  return true;
}
