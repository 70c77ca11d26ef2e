// The game's WebSocket (docs/server.md): hello with the numbers already
// held, then frames; a dropped connection is dialled again with backoff and
// resumes where it stopped, so nothing is lost.
//
// By night (docs/server.md, "Night traffic") the server sends one message
// of 4096 bytes per tick to every connection, whatever happens; the client
// does the same upstream: while the beat runs it holds its commands and
// messages, and for each tick it receives it sends exactly one frame of
// FRAME bytes, the oldest held one padded, or a cover frame. So its
// traffic is the same whether its player acts or sleeps.

import { applyFrame } from './game.js';
import { isLocal, LocalSocket } from './engine.js';

// Delays before the nth retry, in ms; the last repeats.
export const BACKOFF = [300, 1000, 2000, 4000, 8000, 15000];

export function backoff(attempt) {
  const base = BACKOFF[Math.min(attempt, BACKOFF.length - 1)];
  return Math.round(base * (0.8 + 0.4 * Math.random()));
}

// Codes of a closing error frame that dialling again cannot mend.
// aborted: the host ended the game; lost: the game could not be restored
// after a restart (docs/server.md, "When the store fails").
const FINAL = new Set(['token', 'not_started', 'not_running', 'hello', 'aborted', 'lost']);

// The size of every frame sent at night: the most a client frame may be.
export const FRAME = 4096;

// Frames held at night; anything else (a ping, every client's alike) goes
// at once. A phone's decoy tap (lib/decoy.js) is held and padded as a
// command is, so that on the wire it is one.
const HELD = new Set(['act', 'chat', 'decoy']);

// The requests the server answers (ack or error). One written on a line
// that dropped before its answer came is named in the next hello
// (pending), and the server acks it there if the game took it: a command
// stored just before its server died or handed the game over is shown as
// received, not left unanswered (docs/server.md, "The WebSocket"). A
// decoy is stored nowhere: the next connection answers it itself, when a
// command's ack would come.
const ANSWERED = new Set(['act', 'chat', 'seen', 'decoy']);
// How many unanswered requests are remembered (the server takes 16).
export const MAX_PENDING = 16;

// freshId: the first id of a connection's requests. Ids must not repeat
// within the seat's game, across page loads too: a pending id names one
// request, and a reused one could be acked for an older request.
export const freshId = () => 1 + Math.floor(Math.random() * 2 ** 46);

// After dawn the server ticks on only until its queues are empty; frames
// still held then go when no tick has come for this long (or three ticks).
export const DRAIN_WAIT = 2000;

const utf8 = new TextEncoder();
export const byteLength = (s) => utf8.encode(s).length;

// padded is the frame's JSON with a pad of spaces making it size bytes
// long in UTF-8, or null when it is already longer.
export function padded(frame, size = FRAME) {
  const bare = JSON.stringify({ ...frame, pad: '' });
  const room = size - byteLength(bare);
  if (room < 0) return null;
  return JSON.stringify({ ...frame, pad: ' '.repeat(room) }); // a space is one byte, unescaped
}

// How often the client pings, and how long a line may stay silent before
// it is given up: two of the server's quiet periods missed and a second
// (internal/client's SilentAfter), or, from a server that does not say,
// 40 s (no pong to two pings).
export const PING_EVERY = 15000;
export function silentAfter(quiet) {
  return quiet > 0 ? 2 * quiet + 1000 : 40000;
}

// A message opens with a tick while the night's beat runs.
const isTick = (data) => data.startsWith('{"type":"tick"');
// A pong comes at once even by night (every client pings alike), and so
// does a connection's welcome: a message of those alone neither starts nor
// ends the beat.
const ASIDE = new Set(['pong', 'welcome']);
function isAside(data) {
  return data.split('\n').every((l) => {
    if (!l) return true;
    try {
      return ASIDE.has(JSON.parse(l).type);
    } catch {
      return false;
    }
  });
}

export class Connection {
  // game: the object applyFrame updates. on: {frame(result, frame),
  // status(s, detail)} with s one of connecting, open, retrying, closed.
  constructor({ room, token, game, on, firstId = freshId() }) {
    this.room = room;
    this.token = token || '';
    this.game = game;
    this.on = on;
    this.ws = null;
    this.attempt = 0;
    this.timer = 0;
    this.pinger = 0;
    this.stopped = false;
    this.nextId = firstId;
    this.unanswered = new Map(); // id → type of the requests written and not yet answered, oldest first
    this.decoys = []; // decoys a dropped line never answered: answered by the next connection
    this.lastHeard = 0;
    this.lastPing = 0;
    this.quiet = 0; // the welcome's alive: the longest the server stays silent, ms
    // the night's beat: on from a message that opens with a tick until one
    // without; frames held meanwhile, each already given its id
    this.beat = false;
    this.held = [];
    this.lastTick = 0;
    this.tickEvery = 0;
    this.drainTimer = 0;
    this.onOnline = () => this.redialNow();
    this.onVisible = () => {
      if (document.visibilityState === 'visible') this.redialNow();
    };
  }

  url() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    return `${proto}//${location.host}/ws/${encodeURIComponent(this.room)}`;
  }

  start() {
    addEventListener('online', this.onOnline);
    document.addEventListener('visibilitychange', this.onVisible);
    this.dial();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    this.resetBeat(false);
    removeEventListener('online', this.onOnline);
    document.removeEventListener('visibilitychange', this.onVisible);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      try {
        ws.close(1000, 'bye');
      } catch {
        // already closed
      }
    }
    this.on.status('closed');
  }

  get open() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN && this.welcomed;
  }

  dial() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.welcomed = false;
    this.resetBeat(true);
    // A connection dialled again at night holds its frames from the start:
    // the server's first message after the welcome (a state, always) tells
    // whether the night goes on (a tick) or is over (anything else).
    this.beat = !!this.game.night;
    this.on.status('connecting', { attempt: this.attempt });
    let ws;
    try {
      // a room of the device: the engine in the page, with the same frames
      ws = isLocal(this.room) ? new LocalSocket(this.room) : new WebSocket(this.url());
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    let finalCode = null;
    ws.onopen = () => {
      this.lastHeard = Date.now();
      const hello = { type: 'hello', token: this.token, since: this.game.since, chat_since: this.game.chatSince };
      const pending = [];
      for (const [id, type] of this.unanswered) {
        if (type === 'decoy') {
          this.decoys.push(id);
          this.unanswered.delete(id);
        } else pending.push(id);
      }
      if (pending.length) hello.pending = pending;
      // by night of one size, whether or not it names anything pending
      ws.send((this.game.night && padded(hello)) || JSON.stringify(hello));
    };
    ws.onmessage = (m) => {
      if (ws !== this.ws) return;
      this.lastHeard = Date.now();
      const data = String(m.data);
      // The beat's answer goes first, before anything is read, so that its
      // timing does not depend on what the message holds.
      clearTimeout(this.drainTimer);
      if (isTick(data)) this.tick(ws);
      else if (this.beat && !isAside(data)) this.endBeat(ws);
      // A message holds one or more frames, one JSON object per line. By
      // night it opens with a tick and closes with a pad: skipped unread.
      for (const line of data.split('\n')) {
        if (!line || line.startsWith('{"type":"pad"')) continue;
        let f;
        try {
          f = JSON.parse(line);
        } catch {
          continue;
        }
        if (f.type === 'error' && !f.id && FINAL.has(f.code)) finalCode = f;
        if ((f.type === 'ack' || f.type === 'error') && f.id) this.unanswered.delete(f.id);
        const r = applyFrame(this.game, f);
        if (r.filler) continue;
        if (r.welcome) {
          this.quiet = f.alive || 0;
          this.welcomed = true;
          this.attempt = 0;
          this.on.status('open');
        }
        if (r.gap) {
          // something was missed: ask again from the last number held
          ws.close(4000, 'gap');
          return;
        }
        this.on.frame(r, f);
      }
      // A decoy left unanswered is answered with the first message that
      // would carry a command's resumed ack: after the welcome, and at night
      // at a tick of the night's grid (not the joining message, tick -1).
      if (this.decoys.length && this.welcomed && !isAside(data) && !data.startsWith('{"type":"tick","n":-1')) {
        for (const id of this.decoys.splice(0)) this.on.frame({ reply: { type: 'ack', id } }, { type: 'ack', id, local: true });
      }
      if (this.beat && !this.game.night && ws === this.ws) {
        // the day has come: if the ticks stop, the beat ends and what is
        // still held goes
        const wait = Math.max(DRAIN_WAIT, 3 * this.tickEvery);
        this.drainTimer = setTimeout(() => ws === this.ws && this.endBeat(ws), wait);
      }
    };
    ws.onclose = () => {
      if (ws !== this.ws) return;
      this.ws = null;
      clearInterval(this.pinger);
      // what was held was never sent: as a command sent while away, it is
      // refused (offline), not carried to the next connection
      this.resetBeat(true);
      if (this.stopped) return;
      if (finalCode) {
        this.stopped = true;
        this.on.status('closed', finalCode);
        return;
      }
      this.retry();
    };
    ws.onerror = () => {
      // onclose follows
    };
    clearInterval(this.pinger);
    this.lastPing = Date.now();
    this.pinger = setInterval(() => this.keepAlive(), 1000);
  }

  // keepAlive runs every second: a line on which nothing came for much
  // longer than the server keeps quiet (its welcome's alive: the day's
  // keep-alive, the night's tick) is dead — its server frozen, a relay cut
  // — and is dropped and dialled again at once, without waiting for a
  // closing handshake that will not come. Every 15 s it pings.
  keepAlive() {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    const now = Date.now();
    if (now - this.lastHeard > silentAfter(this.quiet)) {
      try {
        ws.close(4001, 'silent');
      } catch {
        // already closing
      }
      if (ws === this.ws && ws.onclose) ws.onclose({ code: 4001, reason: 'silent' });
      return;
    }
    if (now - this.lastPing >= PING_EVERY) {
      this.lastPing = now;
      this.send({ type: 'ping' });
    }
  }

  retry() {
    if (this.stopped) return;
    const wait = backoff(this.attempt++);
    this.on.status('retrying', { wait, attempt: this.attempt });
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.dial(), wait);
  }

  // redialNow skips the wait when the network or the page comes back.
  redialNow() {
    if (this.stopped || this.ws) return;
    this.attempt = 0;
    this.dial();
  }

  // send writes a frame with a fresh id and returns the id, or 0 when the
  // connection is not open. By night a command or a message is held and
  // goes at a tick (its answer comes at a later tick, as any).
  send(frame) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return 0;
    const id = this.nextId++;
    const f = { ...frame, id };
    if (this.beat && HELD.has(f.type)) this.held.push(f);
    else this.write(this.ws, JSON.stringify(f), f);
    return id;
  }

  // write puts a frame on the line, remembering a request until its answer.
  write(ws, s, f) {
    ws.send(s);
    if (!ANSWERED.has(f.type)) return;
    this.unanswered.set(f.id, f.type);
    if (this.unanswered.size > MAX_PENDING) this.unanswered.delete(this.unanswered.keys().next().value);
  }

  // tick answers a tick with exactly one frame of FRAME bytes: the oldest
  // held frame padded, or a cover.
  tick(ws) {
    const now = Date.now();
    if (this.beat && this.lastTick) this.tickEvery = now - this.lastTick;
    this.lastTick = now;
    this.beat = true;
    if (ws.readyState !== WebSocket.OPEN) return;
    while (this.held.length) {
      const f = this.held.shift();
      const s = padded(f);
      if (s) {
        this.write(ws, s, f);
        return;
      }
      // too big to go in one frame: the server would close the line
      this.refuse(f, 'too_big');
    }
    ws.send(padded({ type: 'cover' }));
  }

  // endBeat: the day; what is held goes at once, unpadded.
  endBeat(ws) {
    const held = this.resetBeat(false);
    if (ws.readyState !== WebSocket.OPEN) held.forEach((f) => this.refuse(f, 'offline'));
    else for (const f of held) this.write(ws, JSON.stringify(f), f);
  }

  // resetBeat stops the beat (a new connection starts without one) and
  // returns the frames held; when tell, they are answered offline, as a
  // command sent while away is: never carried to another connection.
  resetBeat(tell) {
    const held = this.held;
    this.beat = false;
    this.held = [];
    this.lastTick = 0;
    this.tickEvery = 0;
    clearTimeout(this.drainTimer);
    if (tell) held.forEach((f) => this.refuse(f, 'offline'));
    return held;
  }

  // refuse answers a frame that was never sent as the server would refuse it.
  refuse(f, code) {
    const e = { type: 'error', id: f.id, code, local: true };
    this.on.frame({ reply: e }, e);
  }
}
