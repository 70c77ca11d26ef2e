// How fast the engine on the device answers a command, in Chromium with
// its CPU slowed down four times (CDP Emulation.setCPUThrottlingRate, a
// phone-class CPU): a std-12 game of twelve people of the device, each
// seat's connection sending its first legal choice as soon as it is asked
// (and "seen" at the deal), until the end, one command at a time as at a
// table where the device is handed round; the time from a command sent to
// its answer (ack or error, the change kept in IndexedDB first), by day. By night a command's answer waits
// for the night's next tick (docs/server.md, "Night traffic": one message
// a tick, whatever happens), so the night's figures measure the tick and
// are printed apart. Also the engine's download, compressed as served.
//
//   node tests/deviceperf.mjs            builds the client and the server first
//   WOLFDEN_BIN=/path/wolfden RATE=4 ...
//   NOSAVE=1 ...                     without IndexedDB (its share of the time)
import http from 'node:http';
import { chromium } from 'playwright-core';
import { startServer } from './server.mjs';

const RATE = Number(process.env.RATE || 4);
const log = (...a) => console.log('[deviceperf]', ...a);

const srv = await startServer({ name: 'deviceperf', log });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
try {
  const page = await browser.newPage();
  await page.goto(srv.base + '/');
  // the engine's download, as the server sends it (raw bytes on the wire)
  const meta = await page.evaluate(() => {
    const m = document.querySelector('meta[name="wolfden-engine"]');
    return [m.dataset.wasm, m.dataset.exec];
  });
  const sizes = {};
  for (const url of meta) {
    for (const enc of ['br', 'gzip', 'identity']) {
      sizes[url.split('/').pop() + ' ' + enc] = await new Promise((resolve, reject) => {
        http.get(srv.base + url, { headers: { 'Accept-Encoding': enc } }, (r) => {
          let n = 0;
          r.on('data', (b) => (n += b.length));
          r.on('end', () => resolve(n));
        }).on('error', reject);
      });
    }
  }
  log('download:', JSON.stringify(sizes));

  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: RATE });
  // the engine starts with the first room of the device
  const t0 = Date.now();
  await page.goto(srv.base + '/new?device=1');
  await page.getByTestId('preset-std-9').click({ timeout: 60000 });
  await page.getByTestId('create-submit').click();
  await page.getByTestId('pass-setup').waitFor({ timeout: 60000 });
  log(`the create page to a room of the device, the engine loaded and compiled, at ×${RATE}: ${Date.now() - t0} ms`);

  const res = await page.evaluate(async (nosave) => {
    const E = globalThis.wolfdenEngine;
    // NOSAVE=1: the records are not kept (a diagnostic: IndexedDB's share)
    if (nosave) globalThis.wolfdenEngineSave.records = () => undefined;
    const call = async (m, p, tok, body) => {
      const r = await E.handle(m, p, tok || '', body ? JSON.stringify(body) : '');
      if (r.status >= 300) throw new Error(r.body);
      return JSON.parse(r.body);
    };
    const timers = { setup: '400ms', night: '400ms', witch: '400ms', speech: '2s', vote: '2s', other: '2s', bot: '0s', tick: '100ms' };
    const made = await call('POST', '/api/rooms', '', { preset: 'std-12', practice: true, seed: 7, timers });
    const id = made.room.id;
    const seats = [];
    for (let i = 0; i < 12; i++) seats.push(await call('POST', `/api/rooms/${id}/join`, '', { nickname: 'P' + (i + 1) }));
    await call('POST', `/api/rooms/${id}/start`, made.host_token);
    const day = [];
    const night = [];
    let over = 0;
    // one command in flight at a time: the device is in one player's hands
    const queue = [];
    let busy = false;
    const pump = () => {
      if (busy || !queue.length) return;
      busy = true;
      queue.shift()();
    };
    await new Promise((resolve) => {
      for (const s of seats) {
        let next = 1;
        let waiting = 0; // the id of the command awaited
        let queued = false;
        let sent = 0;
        let wasNight = false;
        let c = null;
        let last = null; // the seat's latest state
        const fire = () => {
          queued = false;
          const f = last;
          const ch = f && !f.over && f.pending && (f.choices || [])[0];
          if (!f || f.over || (!f.see_card && !ch)) {
            busy = false;
            return pump();
          }
          const act = f.see_card ? { type: 'seen' } : { type: 'act', cmd: ch.cmd };
          if (!f.see_card) {
            if (ch.pick && ch.targets) act.seats = ch.targets.slice(0, ch.pick > 0 ? ch.pick : 1);
            else if (ch.targets && ch.targets.length && !ch.no_target) act.target = ch.targets[0];
            if (ch.value) act.value = ch.value;
          }
          waiting = next++;
          wasNight = f.night;
          sent = performance.now();
          c.send(JSON.stringify({ ...act, id: waiting }));
        };
        c = E.connect(id, (msg) => {
          for (const line of msg.split('\n')) {
            if (!line || line.startsWith('{"type":"pad"') || line.startsWith('{"type":"tick"')) continue;
            const f = JSON.parse(line);
            if ((f.type === 'ack' || f.type === 'error') && f.id === waiting) {
              (wasNight ? night : day).push(performance.now() - sent);
              waiting = 0;
              busy = false;
              queueMicrotask(pump);
            }
            if (f.type !== 'state') continue;
            last = f;
            if (f.over) {
              if (++over === seats.length) resolve();
              continue;
            }
            if (!waiting && !queued && (f.see_card || (f.pending && (f.choices || []).length))) {
              queued = true;
              queue.push(fire);
              queueMicrotask(pump);
            }
          }
        }, () => {});
        c.send(JSON.stringify({ type: 'hello', token: s.token }));
      }
    });
    return { day, night };
  }, !!process.env.NOSAVE);
  const pct = (xs, p) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(2) : '-';
  };
  log(`by day, at ×${RATE}: ${res.day.length} commands, p50 ${pct(res.day, 50)} ms, p99 ${pct(res.day, 99)} ms, max ${pct(res.day, 100)} ms`);
  log(`by night (the answer waits for the next tick of 100 ms): ${res.night.length} commands, p50 ${pct(res.night, 50)} ms, p99 ${pct(res.night, 99)} ms`);
} finally {
  await browser.close();
  await srv.stop();
}
process.exit(0);
