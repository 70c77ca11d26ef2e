// Forum pace (版杀, issue 24) in Chromium against the real server: a room
// of the forum preset, its steps hours long. The host's page says the
// deadline as a time of day and what is left ("Until 21:00 (2 h left)",
// not a count of seconds), and the host gives the step two more hours from
// his menu: the deadline moves by two hours, and the page says so. The
// create page offers the forum pace, takes "24h" in a timer field and the
// reminders, and asks the server for them.
//
//   node tests/forum.mjs             builds the client and the server first
//   WOLFDEN_BIN=/path/wolfden ...    uses that binary (its embedded client)
//   CHROMIUM=/path/chromium ...      another Chromium than /usr/bin/chromium
import { chromium } from 'playwright-core';
import { api, startServer } from './server.mjs';

const started = Date.now();
const log = (...a) => console.log(`[forum ${((Date.now() - started) / 1000).toFixed(1)}s]`, ...a);
const problems = [];
setTimeout(() => {
  console.error('forum: over 180s, giving up');
  process.exit(1);
}, 180 * 1000).unref();

function fail(msg) {
  throw new Error(msg);
}

const srv = await startServer({ name: 'forum', log });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
try {
  const made = await api(srv.base, 'POST', '/api/rooms', { name: 'Forum', preset: 'forum', players: 9, practice: true, seed: 24,
    nickname: 'Ann', timers: { tick: '200ms' } });
  if (made.room.pace !== 'forum') fail('a forum room at the pace ' + made.room.pace);
  await api(srv.base, 'POST', `/api/rooms/${made.room.id}/start`, undefined, made.host_token);

  const ctx = await browser.newContext({ locale: 'en-US', viewport: { width: 1100, height: 900 } });
  await ctx.addInitScript(([key, value]) => {
    if (!localStorage.getItem(key)) localStorage.setItem(key, JSON.stringify({ ...value, at: Date.now() }));
  }, ['wolfden.room.' + made.room.id, { token: made.token, seat: made.seat, host: made.host_token, nick: 'Ann', name: 'Forum', preset: 'forum' }]);
  const page = await ctx.newPage();
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.goto(`${srv.base}/room/${made.room.id}`);
  const clock = page.getByTestId('banner-clock');
  await clock.waitFor({ timeout: 30000 });
  const said = await clock.textContent();
  // a deadline on another day names its date too ("Until 12/6, 12:12 AM")
  if (!/^Until (\d{1,2}\/\d{1,2}, )?\d{1,2}:\d\d( [AP]M)? \(\d+ h( \d+ min)? left\)$/.test(said.trim())) fail(`the banner says ${JSON.stringify(said)} of a step of hours`);
  const end = Number(await clock.getAttribute('data-end'));
  log(`the banner: ${said.trim()}`);

  await page.getByTestId('host-menu').click();
  await page.getByTestId('extend-by').selectOption('120');
  await page.getByTestId('extend').click();
  await page.waitForFunction((e) => Number(document.querySelector('[data-testid="banner-clock"]').dataset.end) !== e, end, { timeout: 20000 });
  const moved = Number(await clock.getAttribute('data-end')) - end;
  if (moved !== 2 * 3600 * 1000) fail(`the deadline moved by ${moved} ms, not two hours`);
  const notice = page.getByTestId('deadline-notice');
  await notice.waitFor({ timeout: 20000 });
  const told = (await notice.textContent()).trim();
  if (told !== 'The host gave this step 2 h more.') fail(`the page says ${JSON.stringify(told)} of the extension`);
  log(`extended: the deadline moved by 2 h; the page says "${told}"; the banner: ${(await clock.textContent()).trim()}`);
  await ctx.close();

  // The create page: the forum pace, a speech of 24h, reminders.
  const cctx = await browser.newContext({ locale: 'en-US', viewport: { width: 1100, height: 900 } });
  const cp = await cctx.newPage();
  cp.on('pageerror', (e) => problems.push(`create page error: ${e.message}`));
  await cp.goto(srv.base + '/');
  await cp.getByTestId('lobby').waitFor();
  await cp.locator('#nick').fill('Bo');
  await cp.getByTestId('create-room').click();
  await cp.getByTestId('create').waitFor();
  await cp.getByTestId('where-online').click();
  await cp.getByTestId('preset-std-9').click();
  await cp.getByTestId('pace-forum').click();
  await cp.getByTestId('remind').fill('2h,15m');
  await cp.getByTestId('timers').locator('summary').click();
  const holder = await cp.locator('#timer-speech').getAttribute('placeholder');
  if (holder !== '20h') fail(`the forum pace's speech shows as ${JSON.stringify(holder)}`);
  await cp.locator('#timer-speech').fill('24h');
  const sent = cp.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/rooms');
  await cp.getByTestId('create-submit').click();
  const req = JSON.parse((await sent).postData() || '{}');
  if (req.pace !== 'forum' || req.remind !== '2h,15m' || (req.timers || {}).speech !== '86400s') fail(`the create page asked for ${JSON.stringify(req)}`);
  await cp.waitForURL(/\/room\/[a-z0-9]+$/);
  const info = await (await fetch(`${srv.base}/api/rooms/${cp.url().split('/room/')[1]}`)).json();
  if (info.pace !== 'forum' || info.remind !== '2h,15m' || info.timers.speech !== '24h0m0s' || info.options.speech_order !== 'free') {
    fail(`the room made: ${JSON.stringify({ pace: info.pace, remind: info.remind, speech: info.timers.speech, order: info.options.speech_order })}`);
  }
  log(`the create page made a forum room: speech ${info.timers.speech}, reminders ${info.remind}, speech_order ${info.options.speech_order}`);
  await cctx.close();

  if (problems.length) fail(problems.join('\n'));
  log('passed');
} catch (e) {
  console.error('forum: FAILED:', e.message);
  if (problems.length) console.error(problems.join('\n'));
  console.error(srv.stderr().slice(-2000));
  process.exitCode = 1;
} finally {
  await browser.close();
  await srv.stop();
}
