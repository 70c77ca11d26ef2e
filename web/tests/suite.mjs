// The browser tests of npm test, one after another, on one build: the
// client and the binary are built once (tests/server.mjs build) and each
// test takes it as WOLFDEN_BIN, where each alone builds both again. Stops
// at the first failure (its exit code), and says how long each took.
//
//   node tests/suite.mjs             builds, then e2e, phones, phonegame, catalogue, bride, table, mix, passsecrets, wake, device, accounts, ratings, arena, forum, dancer, voice, signup
//   WOLFDEN_BIN=/path/wolfden ...    no build: that binary (its embedded client)
//   SUITE=phones,table ...           some of them, in this order
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build, web } from './server.mjs';

const ALL = ['e2e', 'phones', 'phonegame', 'catalogue', 'bride', 'table', 'mix', 'passsecrets', 'wake', 'device', 'accounts', 'ratings', 'arena', 'forum',
  'dancer', 'voice', 'signup'];
const names = process.env.SUITE ? process.env.SUITE.split(',').map((s) => s.trim()).filter(Boolean) : ALL;
for (const n of names) {
  if (!ALL.includes(n)) {
    console.error(`suite: no browser test "${n}" (SUITE takes ${ALL.join(', ')})`);
    process.exit(2);
  }
}

const started = Date.now();
const secs = (t) => ((Date.now() - t) / 1000).toFixed(1) + ' s';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wolfden-suite-'));
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));

let bin = process.env.WOLFDEN_BIN;
if (!bin) {
  bin = build(tmp, { log: (...a) => console.log('[suite]', ...a) });
  console.log(`[suite] built in ${secs(started)}`);
}
const took = [];
for (const n of names) {
  const t = Date.now();
  const r = spawnSync(process.execPath, [path.join(web, 'tests', n + '.mjs')], { cwd: web, stdio: 'inherit', env: { ...process.env, WOLFDEN_BIN: bin } });
  took.push(`${n} ${secs(t)}`);
  if (r.status !== 0) {
    console.error(`[suite] ${n} failed (${r.status ?? r.signal}); ${took.join(', ')}`);
    process.exit(r.status || 1);
  }
}
console.log(`[suite] ${names.length} passed in ${secs(started)}: ${took.join(', ')}`);
