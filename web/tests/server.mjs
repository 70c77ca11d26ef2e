// A real wolfden server for the browser tests: builds the client and the
// binary (or takes WOLFDEN_BIN), starts `wolfden serve` on a free port of
// 127.0.0.1 with a fresh SQLite database in a temporary directory, and
// stops it (and removes the directory) when the test process exits, however
// it exits.
//
//   const srv = await startServer({ name: 'catalogue', log });
//   srv.base                         http://127.0.0.1:PORT
//   await api(srv.base, 'POST', '/api/rooms', body, token)
//   await srv.restart()              killed (SIGKILL) and started again, same port and database
//   await srv.stop()
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const repo = path.resolve(web, '..');

// freePort asks the kernel for a port nobody listens on.
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// build makes the binary the test runs: the client first (vite build into
// web/dist, which the binary embeds), then go build into dir. With
// client: false only the binary (its embedded web/dist as it is).
export function build(dir, { client = true, log = () => {} } = {}) {
  if (client) {
    log('vite build');
    execFileSync(process.execPath, [path.join(web, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], { cwd: web, stdio: 'inherit' });
  }
  const bin = path.join(dir, 'wolfden');
  log('go build -o', bin);
  execFileSync('go', ['build', '-o', bin, './cmd/wolfden'], { cwd: repo, stdio: 'inherit' });
  return bin;
}

// startServer starts wolfden serve and waits for /healthz. bin defaults to
// WOLFDEN_BIN, else a fresh build (client: false builds only the binary,
// embedding web/dist as it is). args are more flags for serve.
export async function startServer({ name = 'test', bin = process.env.WOLFDEN_BIN, client = true, args = [], log = () => {} } = {}) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `wolfden-${name}-`));
  let proc = null;
  let stderr = '';
  const cleanup = () => {
    if (proc && proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    fs.rmSync(tmp, { recursive: true, force: true });
  };
  process.on('exit', cleanup);
  if (!bin) bin = build(tmp, { client, log });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const db = path.join(tmp, name + '.db');

  // launch starts serve on the same port and database every time, so a
  // restart resumes the games the store holds under the same address.
  const launch = async () => {
    const me = spawn(bin, ['serve', '--addr', `127.0.0.1:${port}`, '--db', db, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    proc = me;
    me.stderr.on('data', (d) => {
      stderr = (stderr + d).slice(-20000);
    });
    me.exited = new Promise((resolve) => me.once('exit', resolve));
    // a crash is said at once: the test would otherwise only time out
    me.once('exit', (code) => {
      if (me === proc && !me.stopping && code !== null && code !== 0) console.error(`wolfden serve exited (${code}):`, stderr.slice(-2000));
    });
    for (let i = 0; ; i++) {
      if (me.exitCode !== null) throw new Error(`wolfden serve exited (${me.exitCode}): ${stderr.slice(-2000)}`);
      try {
        if ((await fetch(base + '/healthz')).ok) break;
      } catch {
        // not listening yet
      }
      if (i >= 150) throw new Error('wolfden serve did not answer /healthz: ' + stderr.slice(-2000));
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  // kill stops the current process as a crash would (SIGKILL: no drain,
  // which would let its games run on for --drain)
  const kill = async () => {
    const me = proc;
    if (me.exitCode === null && me.signalCode === null) {
      me.stopping = true;
      me.kill('SIGKILL');
      await me.exited;
    }
  };
  await launch();
  log('server at', base);
  return {
    base,
    port,
    bin,
    // the server's log so far (its last 20 KB), for a failure's message
    stderr: () => stderr,
    // restart kills the server (SIGKILL) and starts it again on the same
    // port and database: what a crash and a restart do to the clients.
    async restart() {
      await kill();
      await launch();
    },
    async stop() {
      await kill();
      cleanup();
    },
  };
}

// api calls the server's HTTP API; a status other than 2xx throws with the
// server's error.
export async function api(base, method, p, body, token) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = 'Bearer ' + token;
  const r = await fetch(base + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const out = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(out)}`);
  return out;
}
