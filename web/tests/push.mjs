// How soon a waiting room's players and its table device reach the table
// once the host starts (the room info is pushed: GET ?after=version). Not
// part of npm test: a measurement, run by hand.
//
//   node tests/push.mjs                      builds the server (tests/server.mjs: go build) with the dist/ it embeds
//   WOLFDEN_BIN=/path/wolfden node tests/push.mjs
//   RUNS=20 node tests/push.mjs              (default 10)
//
// Each run: a new std-9 room, a joiner's page (his seat's token) and a
// table device's page (?table=1, no token) waiting in it; the host starts
// over HTTP. Two figures per page, both from the moment the start is sent:
// "seen" is what the e2e test logs (Playwright's waitFor, which polls the
// page at 0, 20, 70, 170, 270 ms… after it is called, each look waiting for
// the page's thread, so it rounds up), and "drawn" is when the table's
// element entered the page (a MutationObserver in the page, on the same
// clock). The breakdown: "pushed", the long poll's answer in; "painted",
// the task after the next frame (the feed, drawn a frame later, included);
// the WebSocket dialled, open, its welcome and first state; "long", the
// page's long tasks [start, ms].
import { chromium } from 'playwright-core';
import { startServer } from './server.mjs';

const RUNS = Number(process.env.RUNS || 10);

const srv = await startServer({ name: 'push', client: false, args: ['--room-rate', '0', '--join-rate', '0'] });
const base = srv.base;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});

// Runs in the page before its scripts: stamps on the machine's clock.
function instrument() {
  const marks = (window.__marks = {});
  const now = () => Date.now();
  new MutationObserver(() => {
    if (!marks.table && document.querySelector('[data-testid="table"]')) {
      marks.table = now();
      requestAnimationFrame(() => setTimeout(() => (marks.painted = now()), 0));
    }
  }).observe(document, { childList: true, subtree: true });
  const po = new PerformanceObserver((l) => {
    for (const e of l.getEntries()) {
      if (e.entryType === 'resource' && /\?after=/.test(e.name)) marks.pushed = Math.round(performance.timeOrigin + e.responseEnd);
      if (e.entryType === 'longtask') (marks.long = marks.long || []).push([Math.round(performance.timeOrigin + e.startTime), Math.round(e.duration)]);
    }
  });
  po.observe({ entryTypes: ['resource', 'longtask'] });
  const WS = window.WebSocket;
  window.WebSocket = class extends WS {
    constructor(...a) {
      super(...a);
      if (!marks.dial) marks.dial = now();
      this.addEventListener('open', () => (marks.open = marks.open || now()));
      this.addEventListener('message', (m) => {
        const d = String(m.data);
        if (!marks.welcome && d.includes('"type":"welcome"')) marks.welcome = now();
        if (!marks.state && d.includes('"type":"state"')) marks.state = now();
      });
    }
  };
}

async function waiter(ctx, url, auth) {
  const page = await ctx.newPage();
  if (auth) await page.addInitScript(([k, v]) => localStorage.setItem(k, v), auth);
  await page.addInitScript(instrument);
  await page.goto(url);
  await page.getByTestId('room').waitFor();
  return page;
}

async function run() {
  const created = await (await fetch(base + '/api/rooms', {
    method: 'POST',
    body: JSON.stringify({ preset: 'std-9', nickname: 'Host', practice: true, seed: 5, timers: { night: '30s', setup: '10s' } }),
  })).json();
  const id = created.room.id;
  const join = await (await fetch(`${base}/api/rooms/${id}/join`, { method: 'POST', body: JSON.stringify({ nickname: 'Joiner' }) })).json();
  const a = await browser.newContext({ locale: 'en-US' });
  const b = await browser.newContext({ locale: 'en-US' });
  const pages = {
    joiner: await waiter(a, `${base}/room/${id}`, ['wolfden.room.' + id, JSON.stringify({ seat: join.seat, token: join.token, at: 1 })]),
    table: await waiter(b, `${base}/room/${id}?table=1`),
  };
  await fetch(`${base}/api/rooms/${id}/bots`, { method: 'POST', headers: { Authorization: 'Bearer ' + created.host_token }, body: '{}' });
  await new Promise((r) => setTimeout(r, 300)); // the pages wait on the room
  const t0 = Date.now();
  const started = fetch(`${base}/api/rooms/${id}/start`, { method: 'POST', headers: { Authorization: 'Bearer ' + created.host_token } }).then(() => Date.now() - t0);
  const out = { start: 0 };
  await Promise.all(Object.entries(pages).map(async ([who, p]) => {
    // as the e2e test: after the start's answer
    out.start = await started;
    await p.getByTestId('table').waitFor({ timeout: 5000 });
    const seen = Date.now() - t0;
    await p.waitForFunction(() => window.__marks.painted && window.__marks.welcome);
    const m = await p.evaluate(() => window.__marks);
    const rel = (k) => (m[k] ? m[k] - t0 : NaN);
    out[who] = {
      pushed: rel('pushed'), drawn: rel('table'), painted: rel('painted'), seen, dial: rel('dial'), open: rel('open'), welcome: rel('welcome'), state: rel('state'),
      long: JSON.stringify((m.long || []).map(([s, d]) => [s - t0, d]).filter(([s]) => s > -50)),
    };
  }));
  await a.close();
  await b.close();
  return out;
}

const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor((xs.length - 1) / 2)];
const max = (xs) => Math.max(...xs);
try {
  await run(); // warm up: the first page load compiles the scripts
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await run();
    runs.push(r);
    console.log(`run ${i + 1}: start answered ${r.start} ms; ` + ['joiner', 'table'].map((w) => `${w} ` + Object.entries(r[w]).map(([k, v]) => `${k} ${v}`).join(', ')).join('; '));
  }
  for (const w of ['joiner', 'table']) {
    for (const k of ['pushed', 'drawn', 'painted', 'seen', 'welcome']) {
      const xs = runs.map((r) => r[w][k]);
      console.log(`${w} ${k}: median ${median(xs)} ms, max ${max(xs)} ms (of ${RUNS})`);
    }
  }
} finally {
  await browser.close();
  await srv.stop();
}
