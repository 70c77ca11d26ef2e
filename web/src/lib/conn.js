// The game's WebSocket (docs/server.md): hello with the numbers already
// held, then frames; a dropped connection is dialled again with backoff and
// resumes where it stopped, so nothing is lost.

import { applyFrame } from './game.js';

// Delays before the nth retry, in ms; the last repeats.
export const BACKOFF = [300, 1000, 2000, 4000, 8000, 15000];

export function backoff(attempt) {
  const base = BACKOFF[Math.min(attempt, BACKOFF.length - 1)];
  return Math.round(base * (0.8 + 0.4 * Math.random()));
}

// Codes of a closing error frame that dialling again cannot mend.
const FINAL = new Set(['token', 'not_started', 'not_running', 'hello']);

export class Connection {
  // game: the object applyFrame updates. on: {frame(result, frame),
  // status(s, detail)} with s one of connecting, open, retrying, closed.
  constructor({ room, token, game, on }) {
    this.room = room;
    this.token = token || '';
    this.game = game;
    this.on = on;
    this.ws = null;
    this.attempt = 0;
    this.timer = 0;
    this.pinger = 0;
    this.stopped = false;
    this.nextId = 1;
    this.lastHeard = 0;
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
    this.on.status('connecting', { attempt: this.attempt });
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    let finalCode = null;
    ws.onopen = () => {
      this.lastHeard = Date.now();
      ws.send(JSON.stringify({ type: 'hello', token: this.token, since: this.game.since, chat_since: this.game.chatSince }));
    };
    ws.onmessage = (m) => {
      if (ws !== this.ws) return;
      this.lastHeard = Date.now();
      // A message holds one or more frames, one JSON object per line. By
      // night it opens with a tick and closes with a pad: skipped unread.
      for (const line of String(m.data).split('\n')) {
        if (!line || line.startsWith('{"type":"pad"')) continue;
        let f;
        try {
          f = JSON.parse(line);
        } catch {
          continue;
        }
        if (f.type === 'error' && !f.id && FINAL.has(f.code)) finalCode = f;
        const r = applyFrame(this.game, f);
        if (r.filler) continue;
        if (r.welcome) {
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
    };
    ws.onclose = () => {
      if (ws !== this.ws) return;
      this.ws = null;
      clearInterval(this.pinger);
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
    this.pinger = setInterval(() => this.keepAlive(), 15000);
  }

  keepAlive() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    if (Date.now() - this.lastHeard > 40000) {
      // nothing heard, not even a pong: the line is dead
      this.ws.close(4001, 'silent');
      return;
    }
    this.send({ type: 'ping' });
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
  // connection is not open.
  send(frame) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return 0;
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ ...frame, id }));
    return id;
  }
}
