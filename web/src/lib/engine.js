// The engine on the device: pass-and-play with no server and no network
// (docs/device.md). The rules, the bots and the game's actor run here,
// compiled to WebAssembly (web/engine, internal/local), and answer the
// same requests and frames as a server: api.js sends the requests of a
// room of the device to handle(), and conn.js opens a LocalSocket in
// place of a WebSocket, so the screens have one code path. Every change
// is kept in IndexedDB as it is made (the room's at once, the game's
// records right behind its answers), so a reload or a closed tab resumes
// the game where it was.
//
// What IndexedDB holds is the device's: the whole game, every seat's card
// included, as the device's screens can show it anyway.

export const LOCAL = 'local-';
export const isLocal = (id) => typeof id === 'string' && id.startsWith(LOCAL);

const DB = 'wolfden-device';

let db = null;
function openDB() {
  if (db) return db;
  db = new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => {
      const d = req.result;
      d.createObjectStore('rooms', { keyPath: 'id' });
      d.createObjectStore('records', { keyPath: ['room', 'n'] });
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  return db;
}

const done = (tx) =>
  new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error || new Error('aborted'));
  });

const range = (room, from = 0) => IDBKeyRange.bound([room, from], [room, Infinity]);

// The engine's writes: a room's record; a game's records from number from
// on (those after them, an aborted game's, are dropped). A game's records
// are written behind its answers, in order: waiting for IndexedDB before
// each acknowledgement would take most of a command's time on a phone
// (docs/device.md, "Speed"); a tab closed within those milliseconds loses
// the last command, which its player sees still awaited when he comes
// back. A write that fails is tried again, and meanwhile the engine is
// refused, so the game pauses as a server's does on a full disk.
const behind = [];
let writing = null;
let failing = null;

async function writeRecords(id, from, json) {
  const tx = (await openDB()).transaction('records', 'readwrite');
  const st = tx.objectStore('records');
  st.delete(range(id, from));
  for (const r of JSON.parse(json)) st.put({ room: id, n: r.n, json: JSON.stringify(r) });
  await done(tx);
}

function drain() {
  if (writing) return writing;
  writing = (async () => {
    while (behind.length) {
      try {
        await writeRecords(...behind[0]);
        behind.shift();
        failing = null;
      } catch (err) {
        failing = err || new Error('IndexedDB refused the write');
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  })().finally(() => (writing = null));
  return writing;
}

// flushed resolves once every record given is kept.
export const flushed = () => drain();

const saver = {
  async room(id, json) {
    const tx = (await openDB()).transaction('rooms', 'readwrite');
    const r = JSON.parse(json);
    tx.objectStore('rooms').put({ id, json, status: r.status, name: r.config.name, at: Date.now() });
    await done(tx);
  },
  records(id, from, json) {
    if (failing) return Promise.reject(failing);
    behind.push([id, from, json]);
    drain();
    return undefined; // the engine goes on at once
  },
};

function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

// keptRooms lists the rooms kept on this device: [{id, status, name, at}],
// the latest first.
export async function keptRooms() {
  const d = await openDB();
  const all = await request(d.transaction('rooms').objectStore('rooms').getAll());
  return all.map(({ id, status, name, at }) => ({ id, status, name, at })).sort((a, b) => b.at - a.at);
}

let booted = null;

// engine loads the engine once (from the service worker's cache once the
// app is installed): its API, with globalThis.wolfdenEngine.
export function engine() {
  if (!booted) booted = boot().catch((err) => {
    booted = null;
    throw err;
  });
  return booted;
}

async function boot() {
  const meta = document.querySelector('meta[name="wolfden-engine"]');
  if (!meta) throw new Error('this build of the app has no engine for the device (npm run build makes it)');
  await import(/* @vite-ignore */ meta.dataset.exec); // wasm_exec.js: globalThis.Go
  globalThis.wolfdenEngineSave = saver;
  const ready = new Promise((resolve) => (globalThis.wolfdenEngineReady = resolve));
  const go = new globalThis.Go();
  const res = await fetch(meta.dataset.wasm);
  if (!res.ok) throw new Error('the engine could not be loaded: ' + res.status);
  const { instance } = await WebAssembly.instantiate(await res.arrayBuffer(), go.importObject);
  go.run(instance);
  return ready;
}

// room makes sure the engine holds a room kept on the device (after a
// reload it resumes its game); false when the device keeps no such room.
const loading = new Map();
async function room(api, id) {
  if (api.held(id)) return true;
  if (!loading.has(id)) {
    loading.set(id, (async () => {
      const d = await openDB();
      const tx = d.transaction(['rooms', 'records']);
      const [r, recs] = await Promise.all([
        request(tx.objectStore('rooms').get(id)),
        request(tx.objectStore('records').getAll(range(id))),
      ]);
      if (!r) return false;
      if (!api.held(id)) await api.load(r.json, recs.map((x) => x.json));
      return true;
    })().finally(() => loading.delete(id)));
  }
  return loading.get(id);
}

const roomOf = (path) => {
  const m = path.match(/^\/api\/rooms\/([^/?]+)/);
  return m ? decodeURIComponent(m[1]) : '';
};

// handle answers a request of the HTTP API as the server would:
// {status, data}.
export async function handle(method, path, body, token) {
  const api = await engine();
  const id = roomOf(path);
  if (id && !(await room(api, id))) {
    return { status: 404, data: { error: { code: 'no_room', message: 'no room ' + id + ' on this device' } } };
  }
  const r = await api.handle(method, path, token || '', body === undefined ? '' : JSON.stringify(body));
  return { status: r.status, data: JSON.parse(r.body) };
}

// LocalSocket stands in for the WebSocket of a room of the device: the
// same frames, in and out, to and from the engine.
export class LocalSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSING = 2;
  static CLOSED = 3;

  constructor(id) {
    this.readyState = 0;
    this.conn = null;
    this.onopen = this.onmessage = this.onclose = this.onerror = null;
    const fail = (reason) => this.closed(1011, reason);
    engine()
      .then(async (api) => {
        if (this.readyState !== 0) return;
        if (!(await room(api, id))) return fail('no such room on this device');
        this.conn = api.connect(
          id,
          // after the engine's call has returned: a handler that sends
          // goes back to the engine from the event loop, not from inside it
          (data) => queueMicrotask(() => this.readyState === 1 && this.onmessage && this.onmessage({ data })),
          (code, reason) => queueMicrotask(() => this.closed(code, reason)),
        );
        this.readyState = 1;
        if (this.onopen) this.onopen({});
      })
      .catch((err) => fail(String(err && err.message)));
  }

  send(data) {
    if (this.readyState !== 1) throw new Error('the connection is not open');
    this.conn.send(String(data));
  }

  close(code = 1000, reason = '') {
    if (this.readyState >= 2) return;
    this.readyState = 2;
    if (this.conn) this.conn.close(code, reason);
    else this.closed(code, reason);
  }

  closed(code, reason) {
    if (this.readyState === 3) return;
    this.readyState = 3;
    if (this.onclose) this.onclose({ code, reason });
  }
}
