import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { BACKOFF, Connection, DRAIN_WAIT, FRAME, backoff, byteLength, padded, silentAfter } from './conn.js';
import { newGame } from './game.js';

// A WebSocket that the test drives.
class FakeSocket {
  static all = [];
  static OPEN = 1;
  constructor(url) {
    this.url = url;
    this.sent = [];
    this.raw = [];
    this.readyState = 0;
    FakeSocket.all.push(this);
  }
  send(s) {
    this.raw.push(s);
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

function connect(token = 'TOK') {
  const g = newGame('r1');
  const statuses = [];
  const frames = [];
  const c = new Connection({
    room: 'r1', token, game: g, firstId: 1,
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
  // the command's answer never came: the hello names it
  expect(ws2.sent[0]).toEqual({ type: 'hello', token: 'TOK', since: 2, chat_since: 1, pending: [1] });
  ws2.frame({ type: 'welcome', room: 'r1', seat: 3, players: 9 });
  ws2.frame({ type: 'event', seq: 3, kind: 'night', value: 1 });
  expect(g.events.map((e) => e.seq)).toEqual([1, 2, 3]);
  expect(statuses.filter((s) => s === 'open')).toHaveLength(2);
  c.stop();
});

test('a command whose answer a dropped line lost is named in the next hello, and its ack there is its answer', () => {
  const { c, frames } = connect();
  const ws = FakeSocket.all[0];
  ws.open();
  ws.frame({ type: 'welcome', room: 'r1', seat: 3, players: 9 });
  const vote = c.send({ type: 'act', cmd: 'vote', target: 4 });
  const chat = c.send({ type: 'chat', channel: 'day', text: 'hi' });
  const seen = c.send({ type: 'seen' });
  c.send({ type: 'ping' }); // answered by a pong: never pending
  ws.frame({ type: 'ack', id: chat });
  ws.frame({ type: 'error', id: seen, code: 'not_waiting' });
  ws.drop();
  vi.advanceTimersByTime(BACKOFF[0] * 1.3);
  const ws2 = FakeSocket.all[1];
  ws2.open();
  expect(ws2.sent[0].pending).toEqual([vote]); // only what was never answered
  ws2.frame({ type: 'welcome', room: 'r1', seat: 3, players: 9 });
  ws2.frame({ type: 'ack', id: vote }); // the game took it before the line dropped
  expect(frames.at(-1)).toEqual({ reply: { type: 'ack', id: vote } });
  ws2.drop();
  vi.advanceTimersByTime(BACKOFF[0] * 1.3);
  const ws3 = FakeSocket.all[2];
  ws3.open();
  expect(ws3.sent[0].pending).toBeUndefined(); // answered at last: nothing pending
  c.stop();
});

test('each connection\'s ids start afresh at random, so that a pending id names one request of the game', () => {
  const g = newGame('r1');
  const on = { frame() {}, status() {} };
  const ids = new Set([1, 2, 3].map(() => new Connection({ room: 'r1', token: 'T', game: g, on }).nextId));
  expect(ids.size).toBe(3);
  for (const id of ids) expect(Number.isSafeInteger(id) && id > 0).toBe(true);
});

test('by night a reconnecting hello is of one size whether or not it names a request; a decoy is answered at the next tick', () => {
  const hellos = [];
  for (const what of ['act', 'decoy', 'none']) {
    const { c, ws, frames } = seated(3);
    tick(ws, 1);
    if (what === 'act') c.send({ type: 'act', cmd: 'check', target: 6 });
    if (what === 'decoy') c.send({ type: 'decoy', target: 6 });
    tick(ws, 2); // it goes
    ws.drop();
    vi.advanceTimersByTime(BACKOFF[0] * 1.3);
    const ws2 = FakeSocket.all.at(-1);
    ws2.open();
    hellos.push(ws2.raw[0]);
    if (what === 'act') expect(ws2.sent[0].pending).toEqual([1]);
    else expect(ws2.sent[0].pending).toBeUndefined(); // a decoy is stored nowhere: the server could not tell
    ws2.frame({ type: 'welcome', room: 'r1', seat: 3, players: 9 });
    const n = frames.length;
    ws2.message({ type: 'tick', n: -1 }, { type: 'state', seat: 3, day: 1, night: true, alive: [1, 2, 3] }, PAD);
    expect(frames.slice(n).filter((r) => r.reply)).toEqual([]); // the joining message carries no answer
    tick(ws2, 3, ...(what === 'act' ? [{ type: 'ack', id: 1 }] : []));
    const answers = frames.slice(n).filter((r) => r.reply).map((r) => r.reply);
    expect(answers).toEqual(what === 'none' ? [] : [{ type: 'ack', id: 1 }]);
    c.stop();
  }
  expect(new Set(hellos.map(byteLength))).toEqual(new Set([FRAME]));
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

test.each(['not_running', 'lost'])('a refusal that cannot mend (%s) ends the dialling', (code) => {
  const { statuses } = connect();
  const ws = FakeSocket.all[0];
  ws.open();
  ws.frame({ type: 'error', code, message: 'no game to resume' });
  ws.drop();
  expect(statuses.at(-1)).toBe('closed:' + code);
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

test('a line silent for two keep-alives and a second is given up and dialled again at once', () => {
  const { frames, statuses } = connect();
  const ws = FakeSocket.all[0];
  ws.open();
  ws.frame({ type: 'welcome', room: 'r1', seat: 1, players: 9, alive: 2000 });
  const told = frames.length;
  for (let i = 0; i < 10; i++) {
    vi.advanceTimersByTime(2000);
    ws.frame({ type: 'alive' }); // the day's keep-alive: the line lives
  }
  expect(ws.readyState).toBe(1);
  expect(frames).toHaveLength(told); // a keep-alive tells nothing
  vi.advanceTimersByTime(silentAfter(2000) + 1000); // then nothing: the server froze
  expect(ws.readyState).toBe(3);
  expect(statuses.at(-1)).toBe('retrying'); // without waiting for a close that will not come
  vi.advanceTimersByTime(BACKOFF[0] * 1.3);
  expect(FakeSocket.all).toHaveLength(2);
  expect(silentAfter(2000)).toBe(5000);
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

// The night's messages as the server sends them: a tick, what the
// connection has waiting, a pad.
const PAD = '{"type":"pad","p":"' + ' '.repeat(2000) + '"}';
function tick(ws, n, ...frames) {
  ws.message({ type: 'tick', n }, ...frames, PAD);
}
function seated(seat, token = 'TOK' + seat) {
  const x = connect(token);
  const ws = FakeSocket.all.at(-1);
  ws.open();
  ws.frame({ type: 'welcome', room: 'r1', seat, players: 9 });
  ws.message({ type: 'event', seq: 1, kind: 'night', value: 1 }, { type: 'state', seat, day: 0, night: true, alive: [1, 2, 3] });
  return { ...x, ws };
}
const unpad = (f) => {
  const { pad, ...rest } = f;
  return rest;
};

test('padded frames are exactly the size asked, in UTF-8 bytes', () => {
  for (const text of ['', 'hi', '狼人杀 今晚刀谁', '😀"\\\n'.repeat(100)]) {
    const s = padded({ type: 'chat', id: 7, channel: 'wolves', text });
    expect(byteLength(s)).toBe(FRAME);
    expect(unpad(JSON.parse(s))).toEqual({ type: 'chat', id: 7, channel: 'wolves', text });
  }
  expect(padded({ type: 'chat', text: 'x'.repeat(FRAME) })).toBeNull();
  expect(JSON.parse(padded({ type: 'cover' })).pad).toMatch(/^ +$/);
});

test('at night a seat that acts and one that sleeps send alike: one frame of 4096 bytes per tick', () => {
  const wolf = seated(3);
  const sleeper = seated(5);
  const before = [wolf.ws.raw.length, sleeper.ws.raw.length];
  expect(before).toEqual([1, 1]); // the hellos
  for (let n = 1; n <= 6; n++) {
    if (n === 2) {
      expect(wolf.c.send({ type: 'act', cmd: 'attack', target: 5 })).toBeGreaterThan(0);
      wolf.c.send({ type: 'chat', channel: 'wolves', text: '刀5号' });
      // nothing goes out between ticks
      expect(wolf.ws.raw).toHaveLength(before[0] + n - 1);
    }
    tick(wolf.ws, n, ...(n === 3 ? [{ type: 'ack', id: 1 }] : []));
    tick(sleeper.ws, n);
    expect(wolf.ws.raw).toHaveLength(before[0] + n);
    expect(sleeper.ws.raw).toHaveLength(before[1] + n);
  }
  const night = (ws) => ws.raw.slice(1);
  for (const s of [...night(wolf.ws), ...night(sleeper.ws)]) expect(byteLength(s)).toBe(FRAME);
  expect(night(sleeper.ws).map((s) => JSON.parse(s).type)).toEqual(Array(6).fill('cover'));
  expect(night(wolf.ws).map((s) => JSON.parse(s).type)).toEqual(['cover', 'act', 'chat', 'cover', 'cover', 'cover']);
  wolf.c.stop();
  sleeper.c.stop();
});

test('a command held at night goes at the next tick, padded, the same command with its id', () => {
  const { c, ws, frames } = seated(3);
  tick(ws, 1);
  const id = c.send({ type: 'act', cmd: 'check', target: 6 });
  const chat = c.send({ type: 'chat', channel: 'lovers', text: 'ok' });
  expect(ws.sent.at(-1).type).toBe('cover');
  tick(ws, 2);
  expect(byteLength(ws.raw.at(-1))).toBe(FRAME);
  expect(ws.sent.at(-1).pad).toMatch(/^ +$/);
  expect(unpad(ws.sent.at(-1))).toEqual({ type: 'act', cmd: 'check', target: 6, id });
  tick(ws, 3, { type: 'ack', id }); // its answer comes in a later tick
  expect(unpad(ws.sent.at(-1))).toEqual({ type: 'chat', channel: 'lovers', text: 'ok', id: chat });
  expect(frames.at(-1)).toEqual({ reply: { type: 'ack', id } });
  tick(ws, 4);
  expect(ws.sent.at(-1).type).toBe('cover');
  expect(ws.sent.filter((f) => f.type === 'act' || f.type === 'chat')).toHaveLength(2); // each once
  c.stop();
});

test('a phone\'s decoy tap at night is held and goes at a tick padded as the seer\'s check does', () => {
  const seer = seated(3);
  const villager = seated(5);
  tick(seer.ws, 1);
  tick(villager.ws, 1);
  seer.c.send({ type: 'act', cmd: 'check', target: 6 });
  villager.c.send({ type: 'decoy', target: 6 });
  expect([seer.ws.raw.length, villager.ws.raw.length]).toEqual([2, 2]); // nothing between ticks
  tick(seer.ws, 2);
  tick(villager.ws, 2);
  const [a, b] = [seer.ws.raw.at(-1), villager.ws.raw.at(-1)];
  expect([byteLength(a), byteLength(b)]).toEqual([FRAME, FRAME]);
  expect(unpad(JSON.parse(b))).toEqual({ type: 'decoy', target: 6, id: 1 });
  seer.c.stop();
  villager.c.stop();
});

test('by day frames go at once, unpadded', () => {
  const { c } = connect();
  const ws = FakeSocket.all[0];
  ws.open();
  ws.frame({ type: 'welcome', room: 'r1', seat: 3, players: 9 });
  const id = c.send({ type: 'act', cmd: 'vote', target: 2 });
  expect(ws.raw.at(-1)).toBe(JSON.stringify({ type: 'act', cmd: 'vote', target: 2, id }));
  c.send({ type: 'chat', channel: 'day', text: 'hi' });
  expect(ws.sent.at(-1)).toEqual({ type: 'chat', channel: 'day', text: 'hi', id: id + 1 });
  expect(ws.sent.some((f) => 'pad' in f)).toBe(false);
  c.stop();
});

test('the queue is flushed at dawn, in order and unpadded, and the beat stops', () => {
  const { c, ws } = seated(3);
  tick(ws, 1);
  const a = c.send({ type: 'act', cmd: 'heal' });
  const b = c.send({ type: 'chat', channel: 'wolves', text: 'x' });
  const d = c.send({ type: 'act', cmd: 'skip' });
  tick(ws, 2); // a goes
  const sent = ws.raw.length;
  // a message without a tick: the day
  ws.message({ type: 'event', seq: 2, kind: 'day', value: 1 }, { type: 'state', seat: 3, day: 1, night: false, alive: [1, 2, 3] });
  expect(ws.raw.slice(sent)).toEqual([
    JSON.stringify({ type: 'chat', channel: 'wolves', text: 'x', id: b }),
    JSON.stringify({ type: 'act', cmd: 'skip', id: d }),
  ]);
  expect(ws.sent.filter((f) => f.id === a)).toHaveLength(1);
  const e = c.send({ type: 'act', cmd: 'vote', target: 1 });
  expect(ws.sent.at(-1)).toEqual({ type: 'act', cmd: 'vote', target: 1, id: e });
  c.stop();
});

test('after dawn, frames still held go when the ticks stop', () => {
  const { c, ws } = seated(3);
  tick(ws, 1);
  tick(ws, 2, { type: 'event', seq: 2, kind: 'day', value: 1 }); // dawn, in a tick
  const id = c.send({ type: 'chat', channel: 'day', text: 'morning' });
  vi.advanceTimersByTime(DRAIN_WAIT - 100);
  expect(ws.sent.at(-1).type).toBe('cover');
  vi.advanceTimersByTime(200); // no tick came: the beat is over
  expect(ws.raw.at(-1)).toBe(JSON.stringify({ type: 'chat', channel: 'day', text: 'morning', id }));
  c.stop();
});

test('pings keep their schedule at night, and a pong does not end the beat', () => {
  const { c, ws } = seated(3);
  tick(ws, 1);
  c.send({ type: 'act', cmd: 'protect', target: 2 });
  vi.advanceTimersByTime(15000);
  expect(ws.sent.at(-1)).toMatchObject({ type: 'ping' });
  expect('pad' in ws.sent.at(-1)).toBe(false);
  ws.message(`{"id":${ws.sent.at(-1).id},"type":"pong"}`); // at once, without a tick (a Go map: keys sorted)
  expect(ws.sent.at(-1).type).toBe('ping'); // the command is still held
  tick(ws, 2);
  expect(unpad(ws.sent.at(-1))).toMatchObject({ type: 'act', cmd: 'protect' });
  c.stop();
});

test('on a reconnect, held frames are refused offline, never sent, and the beat starts afresh', () => {
  const { c, ws, frames } = seated(3);
  tick(ws, 1);
  const id = c.send({ type: 'act', cmd: 'attack', target: 4 });
  ws.drop();
  // as a command sent while away: the caller is told, nothing is carried over
  expect(frames.at(-1)).toMatchObject({ reply: { type: 'error', id, code: 'offline' } });
  vi.advanceTimersByTime(BACKOFF[0] * 1.3);
  const ws2 = FakeSocket.all.at(-1);
  expect(ws2).not.toBe(ws);
  ws2.open();
  ws2.frame({ type: 'welcome', room: 'r1', seat: 3, players: 9 });
  // still night as far as the client knows: held from the start, not sent
  // between the welcome and the first tick
  const id2 = c.send({ type: 'act', cmd: 'attack', target: 4 });
  expect(ws2.sent).toHaveLength(1); // the hello
  tick(ws2, 7, { type: 'state', seat: 3, day: 0, night: true, alive: [1, 2, 3] });
  expect(byteLength(ws2.raw.at(-1))).toBe(FRAME);
  expect(unpad(ws2.sent.at(-1))).toEqual({ type: 'act', cmd: 'attack', target: 4, id: id2 });
  tick(ws2, 8);
  expect(ws2.sent.at(-1).type).toBe('cover');
  expect([...ws.sent, ...ws2.sent].filter((f) => f.id === id2)).toHaveLength(1);
  expect([...ws.sent, ...ws2.sent].filter((f) => f.id === id)).toHaveLength(0);
  c.stop();
});

test('dialled again after the night ended, the first message tells the day: held frames go at once', () => {
  const { c, ws } = seated(3);
  tick(ws, 1);
  ws.drop();
  vi.advanceTimersByTime(BACKOFF[0] * 1.3);
  const ws2 = FakeSocket.all.at(-1);
  ws2.open();
  ws2.frame({ type: 'welcome', room: 'r1', seat: 3, players: 9 });
  const id = c.send({ type: 'chat', channel: 'day', text: 'back' });
  expect(ws2.sent).toHaveLength(1);
  ws2.message({ type: 'event', seq: 2, kind: 'day', value: 1 }, { type: 'state', seat: 3, day: 1, night: false, alive: [1, 2, 3] });
  expect(ws2.raw.at(-1)).toBe(JSON.stringify({ type: 'chat', channel: 'day', text: 'back', id }));
  const id2 = c.send({ type: 'act', cmd: 'skip' });
  expect(ws2.sent.at(-1)).toEqual({ type: 'act', cmd: 'skip', id: id2 });
  c.stop();
});
