// Pass-and-play with no server (docs/device.md), in Chromium: the app is
// installed from a wolfden server (its service worker controls the page
// and keeps the engine), then the network is cut, and a whole std-9 game
// is created and played on one page, every seat a person of the device,
// to its end screen, with a reload in the middle of the second night:
// the engine in the page (WebAssembly) resumes it from IndexedDB.
//
//   node tests/device.mjs            builds the client and the server first
//   WOLFDEN_BIN=/path/wolfden ...    uses that binary (its embedded client)
//
// Deterministic: a practice room of a fixed seed; it waits on states,
// never on time.
import { chromium } from 'playwright-core';
import { startServer } from './server.mjs';
import { act, playPass } from './lib/pass.mjs';

const LIMIT = Number(process.env.DEVICE_LIMIT_S || 480) * 1000;
const started = Date.now();
const problems = [];
let srv = null;
let browser = null;

const log = (...a) => console.log(`[device ${((Date.now() - started) / 1000).toFixed(1)}s]`, ...a);
function fail(msg) {
  throw new Error(msg);
}
setTimeout(() => {
  console.error(`device: over ${LIMIT / 1000}s, giving up`);
  process.exit(1);
}, LIMIT).unref();

// short clocks, each long enough for the test to hand the page round
const TIMERS = { setup: 5, night: 16, witch: 7, speech: 40, vote: 60, other: 15, bot: 0 };

// room asks the engine in the page about the room, as the screens do.
const room = (page, id) =>
  page.evaluate(async (id) => JSON.parse((await globalThis.wolfdenEngine.handle('GET', '/api/rooms/' + id, '', '')).body), id);

async function main() {
  srv = await startServer({ name: 'device', log });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--autoplay-policy=no-user-gesture-required'],
  });
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US', reducedMotion: 'reduce' });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    // offline, the lobby's list of the server's rooms fails: that is expected
    if (m.type() === 'error' && !/Failed to load resource|ERR_INTERNET_DISCONNECTED/.test(m.text())) problems.push(`console error: ${m.text()}`);
  });

  // the app installed: the service worker controls the page and keeps the engine
  await page.goto(srv.base + '/');
  await page.waitForFunction(async () => {
    const meta = document.querySelector('meta[name="wolfden-engine"]');
    if (!meta || !navigator.serviceWorker.controller) return false;
    const kept = await caches.match(meta.dataset.wasm);
    return !!kept && !!(await caches.match(meta.dataset.exec));
  }, null, { timeout: 60000, polling: 250 });
  log('installed: the service worker controls the page and keeps the engine');

  // a page the service worker served from the start (the first was not)
  await page.reload();
  await page.waitForFunction(() => !!navigator.serviceWorker.controller);
  await ctx.setOffline(true);
  const cut = await page.evaluate(() => fetch('/api/presets').then(() => 'reached', () => 'cut'));
  if (cut !== 'cut') fail('the network is not cut: ' + cut);
  // the page itself comes from the service worker offline
  await page.reload();
  await page.getByTestId('device-room').click();
  await page.getByTestId('preset-std-9').click({ timeout: 30000 });
  if (!(await page.getByTestId('device-option').isChecked())) fail('the lobby\'s "on this device" did not choose it on the create page');
  await page.locator('#seed').fill('2026');
  await page.getByTestId('timers').locator('summary').click();
  for (const [k, v] of Object.entries(TIMERS)) await page.locator('#timer-' + k).fill(String(v));
  await page.getByTestId('create-submit').click();
  await page.getByTestId('pass-setup').waitFor({ timeout: 30000 });
  const id = new URL(page.url()).pathname.split('/room/')[1];
  if (!id.startsWith('local-') || !page.url().endsWith('?pass=1')) fail('the game of the device is at ' + page.url());
  await page.getByTestId('pass-name-1').fill('Mei');
  await page.getByTestId('pass-start').click();
  await page.getByTestId('pass-panel').waitFor({ timeout: 30000 });
  const info = await room(page, id);
  if (info.status !== 'running' || info.preset !== 'std-9' || info.seats.some((s) => s.bot || !s.nick) || info.seed !== 2026) {
    fail('the room on the device is ' + JSON.stringify({ status: info.status, preset: info.preset, seats: info.seats, seed: info.seed }));
  }
  log(`room ${id}: std-9, nine seats on one page, offline`);

  // every seat: the first legal target and its confirmation, else a pass;
  // the reload comes once the second night's first call is answered
  const play = (priv) => act(priv, [], { first: true });
  let reload = false;
  const handlers = {
    debug: process.env.DEBUG && ((w) => log('pass:', w)),
    async call({ night }, priv) {
      await play(priv);
      if (night === 2) reload = true;
    },
    async turn(seat, priv) {
      await play(priv);
    },
  };
  const first = await playPass(page, { ...handlers, limit: 300000, stop: () => reload });
  if (first.end !== 'stopped') fail('the game ended before its second night: ' + first.end);
  const before = await room(page, id);
  if (!before.game || !before.game.night || before.game.day !== 1) fail('the reload is not at night 2: ' + JSON.stringify(before.game));
  await page.reload();
  await page.getByTestId('pass-panel').waitFor({ timeout: 30000 });
  const after = await room(page, id);
  if (after.status !== 'running' || !after.game || !after.game.night || after.game.day !== 1) fail('after the reload the game is ' + JSON.stringify(after.game));
  log(`reloaded offline in the middle of night 2 (${first.calls.join(' ')}): resumed, still night 2`);
  const rest = await playPass(page, { ...handlers, limit: 300000 });
  if (rest.end !== 'over') fail('the game did not reach its end: ' + rest.end);
  const over = await room(page, id);
  if (over.status !== 'over' || !over.game || !over.game.winner) fail('the room at the end is ' + JSON.stringify({ status: over.status, game: over.game }));
  // reloaded, the end screen and its replay come from the engine too
  await page.reload();
  await page.getByTestId('replay').waitFor({ timeout: 30000 });
  const lines = await page.getByTestId('replay').locator('li').count();
  if (lines < 20) fail(`the replay of the game on the device shows ${lines} lines`);
  log(`to the end offline (${rest.calls.join(' ')}): ${over.game.winner} won`);
  if (problems.length) fail('errors in the page:\n' + problems.join('\n'));
  log('ok');
}

main()
  .then(async () => {
    await browser.close();
    await srv.stop();
    process.exit(0);
  })
  .catch(async (e) => {
    console.error('device: FAIL:', e.message);
    if (browser) await browser.close().catch(() => {});
    process.exit(1);
  });
