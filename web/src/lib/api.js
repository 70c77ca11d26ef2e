// The HTTP API of docs/server.md. A room of the device (lib/engine.js:
// pass-and-play with no server) is asked of the engine running in the
// page, which answers as the server would.

import { handle, isLocal } from './engine.js';

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code);
    this.status = status;
    this.code = code;
  }
}

async function call(method, path, body, token, signal) {
  if (isLocal(roomOf(path))) return local(method, path, body, token, signal);
  // The CSRF header (docs/accounts.md): another site's pages cannot send
  // it, so the server knows a request that changes an account is ours.
  const headers = { 'X-Wolfden-Csrf': '1' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = 'Bearer ' + token;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
  } catch (err) {
    throw new ApiError(0, 'network', err && err.message);
  }
  let data = null;
  if (res.status === 204) return null;
  try {
    data = await res.json();
  } catch {
    // an empty or non-JSON answer
  }
  if (!res.ok) {
    const e = (data && data.error) || {};
    throw new ApiError(res.status, e.code || 'http_' + res.status, e.message || res.statusText);
  }
  return data;
}

const room = (id) => '/api/rooms/' + encodeURIComponent(id);
const roomOf = (path) => (path.match(/^\/api\/rooms\/([^/?]+)/) || [])[1] || '';

// local asks the engine on the device; an abort (the wait for a change)
// is honoured at once, the engine's answer dropped.
async function local(method, path, body, token, signal) {
  let r;
  try {
    const asked = handle(method, path, body, token);
    r = signal ? await Promise.race([asked, aborted(signal)]) : await asked;
  } catch (err) {
    if (err && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'engine', err && err.message);
  }
  if (r.status >= 300) {
    const e = (r.data && r.data.error) || {};
    throw new ApiError(r.status, e.code || 'http_' + r.status, e.message);
  }
  return r.data;
}

const aborted = (signal) =>
  new Promise((_, reject) => {
    const no = () => reject(new DOMException('aborted', 'AbortError'));
    if (signal.aborted) no();
    else signal.addEventListener('abort', no, { once: true });
  });

// offline asks the server, and the engine on the device when the network
// fails: the lists a board is made from (the create page, offline).
async function offline(path) {
  try {
    return await call('GET', path);
  } catch (err) {
    if (err.status !== 0) throw err;
    return local('GET', path);
  }
}

// request is any request of the API (a room of the device's to the engine).
export const request = (method, path, body, token) => call(method, path, body, token);

export const api = {
  presets: () => offline('/api/presets'),
  options: () => offline('/api/options'),
  // a board's simulated balance (the create request's preset/players/options or board); suggest: one-change edits too
  balance: (req, suggest) => call('POST', '/api/balance' + (suggest ? '?suggest=1' : ''), req),
  balancePresets: () => call('GET', '/api/balance/presets'),
  arena: () => call('GET', '/api/arena'), // the programs' ratings of wolfden arena runs (docs/arena.md)
  rooms: (status = 'open') => call('GET', '/api/rooms?status=' + status),
  room: (id, token) => call('GET', room(id), undefined, token), // with a seat's token, "you" is its seat
  // the room once its version is above after: the server answers when it changes (up to 25 s)
  roomAfter: (id, token, after, signal) => call('GET', room(id) + '?after=' + after, undefined, token, signal),
  create: async (req) => {
    if (req.local) {
      // a game of the device: the engine holds the room (docs/device.md)
      const here = { ...req };
      delete here.local;
      return local('POST', '/api/rooms', here);
    }
    try {
      return await call('POST', '/api/rooms', req);
    } catch (err) {
      // a server from before practice rooms knows no such field: a seed alone is its practice room
      if (!req.practice || err.code !== 'bad_json' || !/practice/.test(err.message)) throw err;
      const older = { ...req };
      delete older.practice;
      return call('POST', '/api/rooms', older);
    }
  },
  join: (id, nickname) => call('POST', room(id) + '/join', { nickname }),
  leave: (id, token) => call('POST', room(id) + '/leave', undefined, token),
  bots: (id, host, req) => call('POST', room(id) + '/bots', req || {}, host),
  clearSeat: (id, host, seat) => call('DELETE', room(id) + '/seats/' + seat, undefined, host), // the seat is closed then
  openSeat: (id, host, seat) => call('POST', room(id) + '/seats/' + seat + '/open', undefined, host),
  agentSeat: (id, host, seat) => call('POST', room(id) + '/seats/' + seat + '/agent', undefined, host), // { seat, token, url } for an AIWolf agent (docs/aiwolf.md)
  order: (id, host, order) => call('POST', room(id) + '/order', { order }, host),
  start: (id, host) => call('POST', room(id) + '/start', undefined, host),
  redCard: (id, host, seat) => call('POST', room(id) + '/red-card', { seat }, host),
  extend: (id, host, by) => call('POST', room(id) + '/extend', { by }, host), // by: a Go duration, "2h"
  voiceOffer: (id, token) => call('POST', room(id) + '/voice', { token: token || '' }),
  voiceAnswer: (id, token, conn, sdp) => call('POST', room(id) + '/voice/answer', { token: token || '', id: conn, sdp }),
  voiceMute: (id, host, seat, on) => call('POST', room(id) + '/voice/mute', { seat, on }, host),
  abort: (id, host) => call('POST', room(id) + '/abort', undefined, host), // every player told; the room waits again
  pause: (id, host, on) => call('POST', room(id) + (on ? '/pause' : '/resume'), undefined, host),
  replay: (id) => call('GET', room(id) + '/replay'),
  again: (id, host) => call('POST', room(id) + '/again', undefined, host),
  replayURL: (id) => room(id) + '/replay?download=1',
  // the ledger (docs/accounts.md): a seat's own result and rating change once the game is over
  seatRating: (id, token) => call('GET', room(id) + '/rating', undefined, token),
  player: (name) => call('GET', '/api/players/' + encodeURIComponent(name)),
  leaderboard: (season, side) =>
    call('GET', '/api/leaderboard?' + new URLSearchParams({ ...(season ? { season } : {}), side: side || 'village' })),
  seasons: () => call('GET', '/api/seasons'),
  // accounts (docs/accounts.md): the session is an HttpOnly cookie
  me: () => call('GET', '/api/me'),
  signUp: (name, password) => call('POST', '/api/accounts', { name, password }),
  signIn: (name, password) => call('POST', '/api/session', { name, password }),
  signOut: () => call('DELETE', '/api/session'),
  setPublic: (pub) => call('PATCH', '/api/me', { public: pub }),
  deleteMe: () => call('DELETE', '/api/me'),
  claim: (seats) => call('POST', '/api/me/claim', { seats }), // [{room, token}]
  passkeyBegin: (kind, body) => call('POST', '/api/passkeys/' + kind + '/begin', body || {}), // kind: register | login
  passkeyFinish: (kind, ceremony, credential) => call('POST', '/api/passkeys/' + kind + '/finish', { ceremony, credential }),
};
