// Plays seeded games of bots in the engine built for the browser, under
// Node: engine_test.go runs it and compares what it prints with the
// server's games. Usage:
//
//   node play.mjs ENGINE.wasm WASM_EXEC.js < games.json
//
// games.json: [{preset, seed, timers, unpaced}]; prints one JSON line a game:
// {preset, seed, replay} with the room's replay as the engine answers it.
import fs from 'node:fs';
import { createRequire } from 'node:module';

const [wasmPath, execPath] = process.argv.slice(2);
createRequire(import.meta.url)(execPath); // sets globalThis.Go
const games = JSON.parse(fs.readFileSync(0, 'utf8'));

const ready = new Promise((resolve) => (globalThis.wolfdenEngineReady = resolve));
const go = new globalThis.Go();
const { instance } = await WebAssembly.instantiate(fs.readFileSync(wasmPath), go.importObject);
go.run(instance);
const engine = await ready;

// raw: the engine's answer as it wrote it (JSON.parse would reorder the
// keys of an object such as the roles', {"1": …, "10": …}).
async function call(method, path, token, body, raw = false) {
  const r = await engine.handle(method, path, token || '', body === undefined ? '' : JSON.stringify(body));
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.body}`);
  return raw ? r.body : JSON.parse(r.body);
}

async function play(g) {
  const made = await call('POST', '/api/rooms', '', { preset: g.preset, practice: true, seed: g.seed, timers: g.timers, unpaced: g.unpaced });
  const id = made.room.id;
  let room = await call('POST', `/api/rooms/${id}/start`, made.host_token);
  while (room.status !== 'over') room = await call('GET', `/api/rooms/${id}?after=${room.version}`);
  const replay = await call('GET', `/api/rooms/${id}/replay`, '', undefined, true);
  return `{"preset":${JSON.stringify(g.preset)},"seed":${g.seed},"replay":${replay}}\n`;
}
// A few games at a time, as a server plays its rooms.
const LANES = Number(process.env.LANES || 4);
const lines = new Array(games.length);
let next = 0;
await Promise.all(Array.from({ length: LANES }, async () => {
  while (next < games.length) {
    const i = next++;
    lines[i] = await play(games[i]);
  }
}));
// written at once: process.exit would cut off a pipe still being written
for (const line of lines) fs.writeSync(1, line);
process.exit(0);
