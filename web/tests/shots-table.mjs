// The table's screenshots for docs/screenshots/ (issue 23), standalone (not
// part of npm test): the table device in the middle of a std-12 table of
// bots, by night (only the call) and by day (last night's result, the ring
// and the claims board), and a pass-and-play device at night. Each page is
// 1280×800 drawn at half size (device scale 0.5, a 640×400 image): the
// screen as read from two metres across the table.
//
//   cd web && npm run build && node tests/shots-table.mjs
//                                    the binary with web/dist as it is (build it first)
//   WOLFDEN_BIN=/path/wolfden ...    uses that binary (its embedded client)
//   CHROMIUM=/path/chromium ...      another Chromium than /usr/bin/chromium
//   ONLY=device|pass ...             one of the two
//   SHOTS_DIR=/tmp/x ...             writes there instead of docs/screenshots/
//
// Writes table-night.png, table-day.png and passplay-night.png, in English
// (the headless Chromium here has no CJK font).
// Practice rooms with fixed deals; it waits on the pages' states.
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { api, repo, startServer } from './server.mjs';
import { playPass } from './lib/pass.mjs';

const shots = process.env.SHOTS_DIR || path.join(repo, 'docs', 'screenshots');
const started = Date.now();
const log = (...a) => console.log(`[shots-table ${((Date.now() - started) / 1000).toFixed(1)}s]`, ...a);

setTimeout(() => {
  console.error('shots-table: over 300s, giving up');
  process.exit(1);
}, 300000).unref();

// from two metres: the 1280×800 page drawn at half size
const FAR = { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 0.5, reducedMotion: 'reduce' };

async function shot(page, name) {
  fs.mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, name + '.png') });
  log('saved', path.join(shots, name + '.png'));
}

const said = (page, pred, what, timeout = 120000) =>
  page.waitForFunction(pred, null, { timeout, polling: 100 }).catch(() => {
    throw new Error(what + ': not reached');
  });

// The device: std-12 (预女猎白). Nine seats are people who never connect
// (a bot plays each after his first timeout), so the ring shows names; the
// last three are bots. (The server takes ten seats a minute from one address.)
const DEAL = ['seer', 'werewolf', 'villager', 'witch', 'werewolf', 'hunter', 'villager', 'werewolf', 'idiot', 'villager', 'werewolf', 'villager'];
const NAMES = ['Lin', 'Jay', 'Mei', 'Fang', 'Tom', 'Zhou', 'Lena', 'David', 'Yu'];

async function device(browser, base) {
  const made = await api(base, 'POST', '/api/rooms', {
    name: 'Friday table', preset: 'std-12', nickname: NAMES[0], practice: true, seed: 7, deal: DEAL, options: { sheriff: 'none' },
    timers: { setup: '2s', night: '5s', witch: '3s', speech: '6s', vote: '4s', other: '4s', bot: '0.5s' },
  });
  const id = made.room.id;
  const ctx = await browser.newContext({ ...FAR, locale: 'en-US' });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.error('device page error:', e.message));
  for (let n = 2; n <= 9; n++) await api(base, 'POST', `/api/rooms/${id}/join`, { nickname: NAMES[n - 1] });
  for (let n = 10; n <= 12; n++) await api(base, 'POST', `/api/rooms/${id}/bots`, { seat: n }, made.host_token);
  await page.goto(`${base}/room/${id}?table=1`);
  await page.getByTestId('room').waitFor();
  await api(base, 'POST', `/api/rooms/${id}/start`, undefined, made.host_token);
  await page.getByTestId('table-device').waitFor({ timeout: 15000 });
  log(`device: room ${id} started, twelve named seats`);
  // day 1 once its vote exiled someone: last night's result and the vote's stand, the board filled
  await said(page, () => document.querySelector('[data-testid="device-result"] [data-key="exiled"]') && document.querySelector('[data-testid="ring"]'), 'day 1\'s exile', 180000);
  await shot(page, 'table-day');
  await said(page, () => document.querySelector('[data-testid="narration-log"] li[data-id="n2:wolves:open"]'), 'night 2');
  await shot(page, 'table-night');
  await api(base, 'POST', `/api/rooms/${id}/abort`, undefined, made.host_token).catch(() => {});
  await ctx.close();
}

// Pass-and-play at night: std-9 on one device, each card seen in turn, then
// night 1's first call on the screen.
async function passNight(browser, base) {
  const made = await api(base, 'POST', '/api/rooms', {
    preset: 'std-9', practice: true, seed: 9, card_seen: true, options: {},
    timers: { setup: '5s', night: '30s', witch: '10s', speech: '40s', vote: '30s', other: '15s', bot: '0s' },
  });
  const id = made.room.id;
  const ctx = await browser.newContext({ ...FAR, locale: 'en-US' });
  await ctx.addInitScript(([room, host]) => localStorage.setItem('wolfden.room.' + room, JSON.stringify({ host })), [id, made.host_token]);
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.error('pass page error:', e.message));
  await page.goto(`${base}/room/${id}?pass=1`);
  await page.getByTestId('pass-start').click();
  await page.getByTestId('pass-panel').waitFor({ timeout: 20000 });
  let dealt = 0;
  await playPass(page, { limit: 120000, deal: async () => dealt++, stop: () => dealt >= 9 });
  await said(page, () => document.querySelector('[data-testid="table-device"].night') && document.querySelector('[data-testid="pass-call"]'), 'pass-and-play: night 1', 60000).catch(async (e) => {
    throw new Error(e.message + ': ' + (await page.getByTestId('pass-panel').innerText().catch(() => '?')));
  });
  await shot(page, 'passplay-night');
  await api(base, 'POST', `/api/rooms/${id}/abort`, undefined, made.host_token).catch(() => {});
  await ctx.close();
}

const srv = await startServer({ name: 'shots-table', client: false, log });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--autoplay-policy=no-user-gesture-required'],
});
try {
  const only = process.env.ONLY || '';
  if (!only || only === 'device') await device(browser, srv.base);
  if (!only || only === 'pass') await passNight(browser, srv.base);
} finally {
  await browser.close();
  await srv.stop();
}
log('done');
process.exit(0);
