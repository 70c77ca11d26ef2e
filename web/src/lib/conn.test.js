import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { BACKOFF, Connection, backoff } from './conn.js';
import { newGame } from './game.js';

// A WebSocket that the test drives.
class FakeSocket {
  static all = [];
  static OPEN = 1;
  constructor(url) {
    this.url = url;
    this.sent = [];
    this.readyState = 0;
    FakeSocket.all.push(this);
  }
  send(s) {
    this.sent.push(JSON.parse(s));
  }
  close() {
    this.readyState = 3;
    this.onclose && this.onclose({});
  }
  // test side
  open() {
    this.readyState = 1;
    this.onopen();
  }
  frame(f) {
    this.onmessage({ data: JSON.stringify(f) });
  }
  message(...frames) {
    this.onmessage({ data: frames.map((f) => (typeof f === 'string' ? f : JSON.stringify(f))).join('\n') });
  }
  drop() {
    this.readyState = 3;
    this.onclose({});
  }
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.all = [];
  globalThis.WebSocket = FakeSocket;
  globalThis.location = { protocol: 'https:', host: 'example.com' };
  globalThis.document = { visibilityState: 'visible', addEventListener() {}, removeEventListener() {} };
  globalThis.addEventListener = () => {};
  globalThis.removeEventListener = () => {};
});
afterEach(() => vi.useRealTimers());

function connect() {
  const g = newGame('r1');
  const statuses = [];
  const frames = [];
  const c = new Connection({
    room: 'r1', token: 'TOK', game: g,
    on: { frame: (r) => frames.push(r), status: (s, d) => statuses.push(d && d.code ? `${s}:${d.code}` : s) },
  });
  c.start();
  return { c, g, statuses, frames };
}

test('hello, then resume from the numbers held after a drop', () => {
  const { c, g, statuses } = connect();
  const ws = FakeSocket.all[0];
  expect(ws.url).toBe('wss://example.com/ws/r1');
  ws.open();
  expect(ws.sent[0]).toEqual({ type: 'hello', token: 'TOK', since: 0, chat_since: 0 });
  ws.frame({ type: 'welcome', room: 'r1', seat: 3, players: 9 });
  ws.frame({ type: 'event', seq: 1, kind: 'game_start', value: 9 });
  ws.frame({ type: 'event', seq: 2, kind: 'role', seat: 3, role: 'seer' });
  ws.frame({ type: 'chat', seq: 1, channel: 'day', seat: 2, text: 'hi', at: 1 });
  expect(c.send({ type: 'act', cmd: 'skip' })).toBe(1);
  expect(ws.sent[1]).toEqual({ type: 'act', cmd: 'skip', id: 1 });

  ws.drop();
  expect(statuses.at(-1)).toBe('retrying');
  expect(c.send({ type: 'ping' })).toBe(0); // nothing goes out while away
  vi.advanceTimersByTime(BACKOFF[0] * 1.3);
  const ws2 = FakeSocket.all[1];
  ws2.open();
  expect(ws2.sent[0]).toEqual({ type: 'hello', token: 'TOK', since: 2, chat_since: 1 });
  ws2.frame({ type: 'welcome', room: 'r1', seat: 3, players: 9 });
  ws2.frame({ type: 'event', seq: 3, kind: 'night', value: 1 });
  expect(g.events.map((e) => e.seq)).toEqual([1, 2, 3]);
  expect(statuses.filter((s) => s === 'open')).toHaveLength(2);
  c.stop();
});

test('a gap closes the line and asks again from the last number', () => {
  const { g } = connect();
  const ws = FakeSocket.all[0];
  ws.open();
  ws.frame({ type: 'welcome', room: 'r1', seat: 1, players: 9 });
  ws.frame({ type: 'event', seq: 1, kind: 'game_start' });
  ws.frame({ type: 'event', seq: 3, kind: 'night' }); // 2 is missing
  expect(ws.readyState).toBe(3);
  vi.advanceTimersByTime(1000);
  const ws2 = FakeSocket.all[1];
  ws2.open();
  expect(ws2.sent[0].since).toBe(1);
  expect(g.events).toHaveLength(1);
});

test('the backoff grows, with jitter, and stops at its ceiling', () => {
  let last = 0;
  for (let i = 0; i < BACKOFF.length; i++) {
    const d = backoff(i);
    expect(d).toBeGreaterThanOrEqual(BACKOFF[i] * 0.8);
    expect(d).toBeLessThanOrEqual(BACKOFF[i] * 1.2);
    expect(BACKOFF[i]).toBeGreaterThan(last);
    last = BACKOFF[i];
  }
  expect(backoff(99)).toBeLessThanOrEqual(BACKOFF.at(-1) * 1.2);
});

test('a refusal that cannot mend ends the dialling', () => {
  const { statuses } = connect();
  const ws = FakeSocket.all[0];
  ws.open();
  ws.frame({ type: 'error', code: 'not_running', message: 'the game is over' });
  ws.drop();
  expect(statuses.at(-1)).toBe('closed:not_running');
  vi.advanceTimersByTime(60000);
  expect(FakeSocket.all).toHaveLength(1);
});

test('a silent line is dropped and dialled again', () => {
  connect();
  const ws = FakeSocket.all[0];
  ws.open();
  ws.frame({ type: 'welcome', room: 'r1', seat: 1, players: 9 });
  vi.advanceTimersByTime(15000);
  expect(ws.sent.at(-1)).toMatchObject({ type: 'ping' });
  vi.advanceTimersByTime(30000); // no pong
  expect(ws.readyState).toBe(3);
  vi.advanceTimersByTime(2000);
  expect(FakeSocket.all.length).toBeGreaterThan(1);
});

test('a night\'s tick and pad frames are skipped: nothing logged, told or changed, and no gap', () => {
  const { c, g, frames } = connect();
  const ws = FakeSocket.all[0];
  ws.open();
  ws.frame({ type: 'welcome', room: 'r1', seat: 3, players: 9 });
  ws.message({ type: 'event', seq: 1, kind: 'night', value: 1 }, { type: 'state', seat: 3, day: 0, night: true, alive: [1, 2, 3] });
  const before = JSON.stringify(g);
  const told = frames.length;
  const pad = '{"type":"pad","p":"' + ' '.repeat(3000) + '"}';
  ws.message({ type: 'tick', n: 1 }, pad); // an empty tick
  ws.message({ type: 'tick', n: 2 }, '{"type":"pad","p":""}');
  expect(JSON.stringify(g)).toBe(before);
  expect(frames).toHaveLength(told);
  // a tick carrying frames: those are taken, the tick and the pad are not
  ws.message({ type: 'tick', n: 3 }, { type: 'event', seq: 2, kind: 'check', seat: 3, target: 5, role: 'werewolf' },
    { type: 'chat', seq: 1, channel: 'dead', seat: 2, text: 'hi', at: 1 }, pad);
  expect(ws.readyState).toBe(1); // no gap
  expect(g.events.map((e) => e.kind)).toEqual(['night', 'check']);
  expect(g.since).toBe(2);
  expect(g.chatSince).toBe(1);
  expect(frames.slice(told).map((r) => Object.keys(r)[0])).toEqual(['event', 'chat']);
  c.stop();
});
