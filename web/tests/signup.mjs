// The sheriff's signup (上警) as a seat sees it, in Chromium against the real
// server: hands go up together, so a seat's own hand is his until the
// signup closes, and the moderator's log then lists every candidate once,
// in seat order, the seat's own hand not a second time.
//
// A practice std-12 room (seed 9: the same deal and the same bots' hands
// every run); the human in seat 1 stands, the bots choose at once.
//
//   node tests/signup.mjs            builds the client and the server first
//   WOLFDEN_BIN=/path/wolfden ...    uses that binary (its embedded client)
//   CHROMIUM=/path/chromium ...      another Chromium than /usr/bin/chromium
import { chromium } from 'playwright-core';
import { startServer } from './server.mjs';

const started = Date.now();
const log = (...a) => console.log(`[signup ${((Date.now() - started) / 1000).toFixed(1)}s]`, ...a);
const problems = [];
setTimeout(() => {
  console.error('signup: over 180s, giving up');
  process.exit(1);
}, 180 * 1000).unref();

function fail(msg) {
  throw new Error(msg);
}

const TIMERS = { setup: '2', night: '6', witch: '4', speech: '60', vote: '60', other: '60', bot: '0' };
const CANDIDATES = [1, 4, 7, 12]; // seat 1 (the human) and the bots who stand with this seed

const srv = await startServer({ name: 'signup', log });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
try {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', reducedMotion: 'reduce' });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.goto(srv.base + '/');
  await page.locator('#nick').fill('Alice');
  await page.getByTestId('create-room').click();
  await page.getByTestId('where-online').click();
  await page.getByTestId('preset-std-12').click();
  await page.getByTestId('timers').locator('summary').click();
  for (const [k, v] of Object.entries(TIMERS)) await page.locator('#timer-' + k).fill(v);
  await page.locator('#seed').fill('9');
  await page.getByTestId('create-submit').click();
  await page.getByTestId('room').waitFor();
  await page.getByTestId('fill-bots').click();
  await page.waitForFunction(() => document.querySelectorAll('.seat.empty').length === 0);
  await page.getByTestId('start').click();
  await page.getByTestId('table').waitFor({ timeout: 15000 });

  // night 1: seat 1 is the seer; he checks the first seat offered
  const panel = page.locator('[data-testid="action-panel"][data-pending="1"]');
  const run = panel.locator('[data-testid="act-run"]');
  while (!(await run.count())) {
    const target = panel.locator('button[data-testid^="target-"]:not([disabled])').first();
    if (await target.count()) {
      await target.click().catch(() => {});
      await panel.locator('button[data-testid^="confirm-"]:not([disabled])').first().click({ timeout: 3000 }).catch(() => {});
    }
    await page.waitForTimeout(150);
  }
  log('the signup asks seat 1 whether he stands');
  await run.click();

  // the close: the campaign's first speech is announced after the hands
  const lines = async () => (await page.getByTestId('log').innerText()).split('\n').map((l) => l.trim());
  await page.waitForFunction(() => /Campaign speeches/.test(document.querySelector('[data-testid="log"]')?.innerText || ''), null, { timeout: 60000 });
  const runs = (await lines()).filter((l) => /runs for sheriff/.test(l));
  const want = CANDIDATES.map((s) => `Seat ${s} runs for sheriff.`);
  if (JSON.stringify(runs) !== JSON.stringify(want)) fail(`the log lists the hands as ${JSON.stringify(runs)}, want ${JSON.stringify(want)}`);
  log('the log lists each candidate once, in seat order:', runs.join(' '));
  if (problems.length) fail(problems.join('\n'));
  log('ok');
} catch (e) {
  console.error('signup:', e.message);
  console.error(srv.stderr().slice(-2000));
  process.exitCode = 1;
} finally {
  await browser.close();
  await srv.stop();
}
