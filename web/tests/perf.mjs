// First load on a throttled phone: the bytes that cross the network and the
// time to the first render (the first contentful paint, and the lobby drawn
// by the script), in Chromium with the network and the CPU slowed down over
// CDP. Not part of npm test: a measurement, run by hand.
//
//   node tests/perf.mjs                      builds the server (go build) with the dist/ it embeds
//   WOLFDEN_BIN=/path/wolfden node tests/perf.mjs
//   RUNS=5 node tests/perf.mjs               the median of 5 loads (default 3)
//
// The profile: 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up, the CPU 4
// times slower (a mid-range phone on a fair mobile network).
import { chromium } from 'playwright-core';
import { startServer } from './server.mjs';

const RUNS = Number(process.env.RUNS || 3);
const PROFILE = { latency: 150, downloadThroughput: (1.6e6 / 8) | 0, uploadThroughput: (750e3 / 8) | 0, cpu: 4 };

const srv = await startServer({ name: 'perf', client: false });
const base = srv.base;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});

async function load(path, warm) {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: 'zh-CN' });
  const page = await ctx.newPage();
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Network.enable');
  if (warm) {
    // a second visit: the same context once loaded, so its cache holds the assets
    await page.goto(base + path, { waitUntil: 'load' });
    await page.waitForSelector('[data-testid="lobby"]');
  }
  await cdp.send('Network.emulateNetworkConditions', { offline: false, ...PROFILE });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: PROFILE.cpu });
  let bytes = 0;
  const files = [];
  const urls = new Map();
  cdp.on('Network.responseReceived', (e) => urls.set(e.requestId, { url: e.response.url, enc: e.response.headers['content-encoding'] || e.response.headers['Content-Encoding'] || '', cached: e.response.fromDiskCache || e.response.fromMemoryCache }));
  cdp.on('Network.loadingFinished', (e) => {
    bytes += e.encodedDataLength;
    const u = urls.get(e.requestId);
    if (u) files.push({ ...u, bytes: e.encodedDataLength });
  });
  const t0 = Date.now();
  await page.goto(base + path, { waitUntil: 'commit' });
  await page.waitForSelector('[data-testid="lobby"]', { timeout: 60000 });
  const app = Date.now() - t0;
  await page.waitForLoadState('networkidle');
  const fcp = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime || 0);
  const frame = await page.evaluate(() => performance.getEntriesByName('first-paint')[0]?.startTime || 0);
  await ctx.close();
  return { bytes, fcp: Math.round(fcp), firstPaint: Math.round(frame), app, files };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  for (const warm of [false, true]) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await load('/', warm));
    const last = runs[runs.length - 1];
    console.log(`${warm ? 'second visit' : 'first load'} of / (median of ${RUNS}): ${median(runs.map((r) => r.bytes))} bytes over the network; ` +
      `first paint ${median(runs.map((r) => r.firstPaint))} ms, first contentful paint ${median(runs.map((r) => r.fcp))} ms, lobby drawn ${median(runs.map((r) => r.app))} ms`);
    for (const f of last.files) console.log(`  ${String(f.bytes).padStart(7)}  ${f.enc || (f.cached ? 'cache' : '-')}\t${new URL(f.url).pathname}`);
  }
} finally {
  await browser.close();
  await srv.stop();
}
