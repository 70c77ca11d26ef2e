// The ghost bride (鬼魂新娘) on std-12-ghost-bride through a real server in
// Chromium: seat 1, a person holding the bride's card, weds a wolf and names
// the seer her witness through the action panel on night 1 (the "Groom"
// pick, then the "Witness" pick); her log shows both lines, marked private,
// and her state names the couple. Seat 2, a person holding a villager's
// card, receives no frame naming the wedding and his log shows none of it.
//
// Deterministic: a practice room with a fixed seed and deal, bots on the
// other seats, a setup slot long enough for a page to reach its table and
// act; it waits on the pages' frames and screens, never on time.
//
//   node tests/bride.mjs              builds the client and the server first
//   WOLFDEN_BIN=/path/wolfden ...     uses that binary (its embedded client)
//   CHROMIUM=/path/chromium ...       another Chromium than /usr/bin/chromium
//
// Exits non-zero on any failure.
import { chromium } from 'playwright-core';
import { api, startServer } from './server.mjs';

const started = Date.now();
const log = (...a) => console.log(`[bride ${((Date.now() - started) / 1000).toFixed(1)}s]`, ...a);
const problems = [];
const fail = (msg) => {
  throw new Error(msg);
};
setTimeout(() => {
  console.error('bride: over 300s, giving up');
  process.exit(1);
}, 300000).unref();

const TIMERS = { setup: '25s', night: '10s', witch: '3s', speech: '30s', vote: '20s', other: '15s', bot: '0s' };
const DEAL = ['ghost_bride', 'villager', 'seer', 'witch', 'hunter', 'guard', 'villager', 'villager',
  'werewolf', 'werewolf', 'werewolf', 'werewolf'];
const GROOM = 9; // a wolf: he leaves the pack
const WITNESS = 3; // the seer

async function openSeat(browser, base, id, { seat, token, nick }) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', reducedMotion: 'reduce' });
  await ctx.addInitScript(([key, value]) => {
    if (!localStorage.getItem(key)) localStorage.setItem(key, JSON.stringify({ ...value, at: Date.now() }));
  }, ['wolfden.room.' + id, { token, seat, nick }]);
  const page = await ctx.newPage();
  const who = `seat ${seat}`;
  page.on('pageerror', (e) => problems.push(`${who}: page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`${who}: console error: ${m.text()}`);
  });
  const p = { who, seat, page, raw: [], kinds: new Set(), state: null };
  page.on('websocket', (ws) => {
    ws.on('framereceived', ({ payload }) => {
      for (const line of String(payload).split('\n')) {
        let f;
        try {
          f = JSON.parse(line);
        } catch {
          continue;
        }
        if (f.type === 'tick' || f.type === 'pad' || f.type === 'pong') continue;
        p.raw.push(f);
        if (f.type === 'event') p.kinds.add(f.kind);
        if (f.type === 'state') p.state = f;
      }
    });
  });
  await page.goto(`${base}/room/${id}`);
  await page.getByTestId('room').waitFor({ timeout: 15000 });
  return p;
}

const panel = (page) => page.locator('[data-testid="action-panel"][data-pending="1"]');

// pick taps a seat in the pending panel's group and confirms: the UI's way.
async function pick(page, cmd, seat) {
  const group = panel(page).locator(`[data-testid="action-${cmd}"]`);
  await group.waitFor({ timeout: 60000 });
  await group.locator(`[data-testid="target-${cmd}-${seat}"]:not([disabled])`).click({ timeout: 5000 });
  await group.locator(`[data-testid="confirm-${cmd}"]:not([disabled])`).click({ timeout: 5000 });
}

async function logLine(p, re) {
  const line = p.page.getByTestId('log').locator('li', { hasText: re }).last();
  await line.waitFor({ timeout: 15000 }).catch(() => fail(`${p.who}: no log line ${re}`));
  if (!(await line.evaluate((li) => li.classList.contains('secret')))) fail(`${p.who}: the log line "${await line.innerText()}" is not marked private`);
  return (await line.innerText()).replace(/\s+/g, ' ').trim();
}

async function waitFor(what, ok) {
  for (let i = 0; i < 1200 && !ok(); i++) await new Promise((r) => setTimeout(r, 100));
  if (!ok()) fail(`waited in vain for ${what}`);
}

let srv = null;
let browser = null;
try {
  srv = await startServer({ name: 'bride', log });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const base = srv.base;
  const made = await api(base, 'POST', '/api/rooms', { name: 'bride', preset: 'std-12-ghost-bride', practice: true, seed: 7, deal: DEAL, timers: TIMERS, nickname: 'Alice' });
  const id = made.room.id;
  const me = await openSeat(browser, base, id, { seat: made.seat, token: made.token, nick: 'Alice' });
  const joined = await api(base, 'POST', `/api/rooms/${id}/join`, { nickname: 'Vic' });
  const vic = await openSeat(browser, base, id, { seat: joined.seat, token: joined.token, nick: 'Vic' });
  if (me.seat !== 1 || vic.seat !== 2) fail(`the people sit at ${me.seat} and ${vic.seat}, not 1 and 2`);
  await api(base, 'POST', `/api/rooms/${id}/bots`, {}, made.host_token);
  for (const p of [me, vic]) await p.page.waitForFunction(() => document.querySelectorAll('.seat.empty').length === 0, null, { timeout: 10000 });
  await api(base, 'POST', `/api/rooms/${id}/start`, undefined, made.host_token);
  log(`room ${id} started: seat 1 is the ghost bride, seat 2 a villager`);
  const role = (await me.page.getByTestId('my-role').innerText({ timeout: 30000 })).trim();
  if (!/ghost bride/i.test(role)) fail(`seat 1's card shows "${role}"`);

  await pick(me.page, 'groom', GROOM);
  log(`seat 1 wed seat ${GROOM}: ${await logLine(me, new RegExp(`weds seat ${GROOM}`))}`);
  await pick(me.page, 'witness', WITNESS);
  log(`seat 1 named seat ${WITNESS}: ${await logLine(me, new RegExp(`names seat ${WITNESS} the witness`))}`);
  await waitFor('the couple in seat 1\'s state', () => JSON.stringify(me.state && me.state.couple) === JSON.stringify([1, GROOM]));

  // the night goes on to the day: by then every frame of night 1 is told
  await waitFor('day 1 on both pages', () => [me, vic].every((p) => p.kinds.has('day')));
  for (const k of ['groom', 'witness']) {
    if (!me.kinds.has(k)) fail(`the ${k} event never reached the bride`);
    if (vic.kinds.has(k)) fail(`the villager received a ${k} event`);
  }
  const leaked = vic.raw.find((f) => /"(groom|witness|wed|couple)"/.test(JSON.stringify(f)));
  if (leaked) fail(`a frame to the villager names the wedding: ${JSON.stringify(leaked)}`);
  const text = await vic.page.getByTestId('log').innerText();
  if (/bride|witness|weds/i.test(text)) fail(`the villager's log shows the wedding: ${text}`);
  log('seat 2 (a villager) received no groom/witness frame, no couple, and its log shows none');
  if (problems.length) fail('errors in the pages:\n' + problems.join('\n'));
  console.log('bride: 1 passed, 0 failed');
} catch (err) {
  console.error('bride failed:', err && err.stack ? err.stack : err);
  if (problems.length) console.error(problems.join('\n'));
  if (srv) console.error('server log (end):\n' + srv.stderr().slice(-3000));
  console.log('bride: 0 passed, 1 failed');
  process.exitCode = 1;
} finally {
  if (browser) await browser.close().catch(() => {});
  if (srv) await srv.stop();
}
process.exit(process.exitCode || 0);
