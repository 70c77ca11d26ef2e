// The screen kept on over plain HTTP (issue 23), in Chromium against the
// real server. A phone on the local network opens http://192.168.…: an
// insecure page, to which browsers do not offer the Wake Lock API. There
// the client plays a muted, looping, invisible video from the first tap
// (the technique of nosleep.js, lib/wake.js), which browsers keep the
// screen on for.
//
//   - an insecure origin: http://wolf.test:PORT (a name Chromium maps to
//     127.0.0.1, which it would treat as secure): isSecureContext is false
//     and navigator.wakeLock missing; in a running game nothing plays
//     before a tap; after a real tap (touch) the video plays: not paused,
//     its time advancing, muted, looping, inline, covering the screen
//     invisibly; the phone says its screen stays on; when the game ends
//     (aborted by the host) the video is gone;
//   - a secure origin (http://127.0.0.1:PORT): the Wake Lock API is asked
//     for a screen lock, and no video plays, tap or not.
//
//   node tests/wake.mjs              builds the client and the server first
//   WOLFDEN_BIN=/path/wolfden ...    uses that binary (its embedded client)
//   CHROMIUM=/path/chromium ...      another Chromium than /usr/bin/chromium
import { chromium } from 'playwright-core';
import { api, startServer } from './server.mjs';
import { PHONE } from './lib/phone.mjs';

const started = Date.now();
const log = (...a) => console.log(`[wake ${((Date.now() - started) / 1000).toFixed(1)}s]`, ...a);
const problems = [];
setTimeout(() => {
  console.error('wake: over 180s, giving up');
  process.exit(1);
}, 180 * 1000).unref();

function fail(msg) {
  throw new Error(msg);
}

function watch(page, who) {
  page.on('pageerror', (e) => problems.push(`${who}: page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) problems.push(`${who}: console error: ${m.text()}`);
  });
}

// A running game whose host is the phone: std-9, the other seats bots, a
// long night so that it runs through the test.
async function game(base) {
  const made = await api(base, 'POST', '/api/rooms', { name: 'Wake', preset: 'std-9', practice: true, seed: 23, nickname: 'Ann',
    timers: { setup: '2s', night: '120s', witch: '120s', speech: '120s', vote: '60s', other: '60s', bot: '0s' } });
  await api(base, 'POST', `/api/rooms/${made.room.id}/start`, undefined, made.host_token);
  return made;
}

// phone opens the host's page of the game at origin, its seat in its
// storage; it records the screen wake lock requests the page makes
// (window.__locks), passing them on to the browser.
async function phone(browser, origin, made, who) {
  const ctx = await browser.newContext({ ...PHONE, locale: 'en-US' });
  await ctx.addInitScript(([key, value]) => {
    if (!localStorage.getItem(key)) localStorage.setItem(key, JSON.stringify({ ...value, at: Date.now() }));
    window.__locks = [];
    const wl = navigator.wakeLock;
    if (wl) {
      const request = wl.request.bind(wl);
      wl.request = (type) => {
        window.__locks.push(type);
        return request(type);
      };
    }
  }, ['wolfden.room.' + made.room.id, { token: made.token, seat: made.seat, host: made.host_token, nick: 'Ann', name: 'Wake', preset: 'std-9' }]);
  const page = await ctx.newPage();
  watch(page, who);
  await page.goto(`${origin}/room/${made.room.id}`);
  await page.getByTestId('room-foot').waitFor(); // the game's page
  return { ctx, page };
}

const video = (page) =>
  page.evaluate(() => {
    const v = document.querySelector('video[data-testid="wake-video"]');
    if (!v) return null;
    const r = v.getBoundingClientRect();
    return { paused: v.paused, time: v.currentTime, muted: v.muted, loop: v.loop, inline: v.hasAttribute('playsinline'),
      opacity: getComputedStyle(v).opacity, covers: r.width >= innerWidth && r.height >= innerHeight, src: v.currentSrc.slice(0, 20) };
  });

const srv = await startServer({ name: 'wake', log });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--host-resolver-rules=MAP wolf.test 127.0.0.1'],
});
try {
  // 1. Insecure: the video, from the first tap.
  const made = await game(srv.base);
  const insecure = `http://wolf.test:${srv.port}`;
  const { ctx, page } = await phone(browser, insecure, made, 'insecure phone');
  const origin = await page.evaluate(() => ({ secure: isSecureContext, api: 'wakeLock' in navigator }));
  if (origin.secure || origin.api) fail(`${insecure} is not an insecure origin without the Wake Lock API: ${JSON.stringify(origin)}`);
  if ((await video(page)) !== null) fail('a video plays before any tap');
  if ((await page.getByTestId('room-foot').getAttribute('data-awake')) !== '0') fail('the phone says its screen stays on before a tap');
  log(`${insecure}: insecure, no Wake Lock API, no video before a tap`);

  await page.getByTestId('room-foot').tap(); // a real touch: touchstart, touchend, click
  await page.waitForFunction(() => {
    const v = document.querySelector('video[data-testid="wake-video"]');
    return v && !v.paused && v.currentTime > 0;
  }, null, { timeout: 20000 });
  const first = await video(page);
  await page.waitForFunction((t) => document.querySelector('video[data-testid="wake-video"]').currentTime !== t, first.time, { timeout: 20000 });
  const later = await video(page);
  if (later.paused || !first.muted || !first.loop || !first.inline) fail('the video is not playing muted, looping and inline: ' + JSON.stringify(later));
  if (first.opacity !== '0' || !first.covers) fail('the video is not invisible and covering the screen (Chromium keeps the screen on only for a large one): ' + JSON.stringify(first));
  await page.locator('[data-testid="room-foot"][data-awake="1"]').waitFor();
  log(`after a tap the video plays (${first.src}…, time ${first.time.toFixed(2)} → ${later.time.toFixed(2)}), and the phone says its screen stays on`);

  // The game over, the video goes.
  await api(srv.base, 'POST', `/api/rooms/${made.room.id}/abort`, undefined, made.host_token);
  await page.waitForFunction(() => !document.querySelector('video[data-testid="wake-video"]'), null, { timeout: 20000 });
  log('the game aborted, the video is gone');
  await ctx.close();

  // 2. Secure: the Wake Lock API, no video.
  const made2 = await game(srv.base);
  const sec = await phone(browser, srv.base, made2, 'secure phone');
  const origin2 = await sec.page.evaluate(() => ({ secure: isSecureContext, api: 'wakeLock' in navigator }));
  if (!origin2.secure || !origin2.api) fail(`${srv.base} is not a secure origin with the Wake Lock API: ${JSON.stringify(origin2)}`);
  await sec.page.waitForFunction(() => window.__locks.length > 0, null, { timeout: 20000 });
  await sec.page.getByTestId('room-foot').tap();
  await sec.page.getByTestId('room-foot').tap();
  const locks = await sec.page.evaluate(() => window.__locks);
  if (locks[0] !== 'screen') fail('the secure page asked for ' + JSON.stringify(locks));
  if ((await video(sec.page)) !== null) fail('a video plays on a secure page, which has the Wake Lock API');
  log(`${srv.base}: a screen wake lock asked for, no video after taps`);
  await sec.ctx.close();

  if (problems.length) fail(problems.join('\n'));
  log('passed');
} catch (e) {
  console.error('wake: FAILED:', e.message);
  if (problems.length) console.error(problems.join('\n'));
  console.error(srv.stderr().slice(-2000));
  process.exitCode = 1;
} finally {
  await browser.close();
  await srv.stop();
}
