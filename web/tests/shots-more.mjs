// Two more screenshots for docs/screenshots/, standalone (not part of
// npm test): the knight's duel (骑士决斗) on the table during a day speech,
// and the create page's balance panel ("Balance my board") for a custom
// board. en-US locale, 1280x800.
//
//   node tests/shots-more.mjs        builds the server (tests/server.mjs) with web/dist as it is
//   WOLFDEN_BIN=/path/wolfden ...    uses that binary (its embedded client)
//   CHROMIUM=/path/chromium ...      another Chromium than /usr/bin/chromium
//
// The duel: a practice room of std-12-wwk-knight made through the server's
// API, with a fixed seed and deal so that seat 1, the one human seat, is the
// knight; bots take the other seats and the host starts it. The browser is
// given the seat's token (not the host's: a player's view, without the
// host's controls) and waits, on the page's states, for the duel in the
// action panel during the knight's day 1 speech. The screenshot is the
// duel picked (seat 5, a wolf) with its button; DUEL_SHOT=result takes it
// instead once the duel's result is in the log. Either way the result line
// is checked.
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { api, repo, startServer } from './server.mjs';

const shots = path.join(repo, 'docs', 'screenshots');
const started = Date.now();
const log = (...a) => console.log(`[shots ${((Date.now() - started) / 1000).toFixed(1)}s]`, ...a);

setTimeout(() => {
  console.error('shots: over 240s, giving up');
  process.exit(1);
}, 240000).unref();

async function shot(page, name) {
  fs.mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, name + '.png') });
  log('saved docs/screenshots/' + name + '.png');
}

const VIEW = { viewport: { width: 1280, height: 800 }, locale: 'en-US', reducedMotion: 'reduce' };

// The deal, seat by seat: the knight at seat 1 (the human), a werewolf at 5.
const DEAL = ['knight', 'werewolf', 'seer', 'villager', 'werewolf', 'witch', 'villager', 'white_wolf_king', 'guard', 'villager', 'werewolf', 'villager'];
const WOLF = 5;
const SEED = Number(process.env.SEED || 3);

async function knightDuel(browser, base) {
  const made = await api(base, 'POST', '/api/rooms', {
    name: 'Knight practice',
    preset: 'std-12-wwk-knight',
    practice: true,
    seed: SEED,
    deal: DEAL,
    // night 1 quick; the day's speeches long enough for the human's turn
    timers: { setup: '1s', night: '3s', witch: '2s', speech: '120s', vote: '30s', other: '10s', bot: '1s' },
    nickname: 'Alice',
  });
  const id = made.room.id;
  await api(base, 'POST', `/api/rooms/${id}/bots`, {}, made.host_token);
  await api(base, 'POST', `/api/rooms/${id}/start`, undefined, made.host_token);
  log(`duel: room ${id} started (seed ${SEED}), seat ${made.seat} is the knight`);

  const ctx = await browser.newContext(VIEW);
  const auth = { token: made.token, seat: made.seat, nick: 'Alice', name: 'Knight practice', preset: 'std-12-wwk-knight' };
  await ctx.addInitScript(([key, value]) => {
    if (!localStorage.getItem(key)) localStorage.setItem(key, JSON.stringify({ ...value, at: Date.now() }));
  }, ['wolfden.room.' + id, auth]);
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(`${base}/room/${id}`);
  await page.getByTestId('table').waitFor({ timeout: 15000 });

  // day 1's speeches: the duel is offered in the action panel during every
  // speech; wait for the knight's own (a bot's lasts a second, his the
  // speech timer), so that the pick is not cut short by the next speaker
  const duel = page.locator('[data-testid="action-panel"] [data-testid="action-duel"]');
  const target = duel.locator(`[data-testid="target-duel-${WOLF}"]:not([disabled])`);
  await Promise.race([
    page.waitForFunction((w) => document.querySelector('[data-testid="action-panel"] [data-testid="speech-input"]') &&
      document.querySelector(`[data-testid="action-duel"] [data-testid="target-duel-${w}"]:not([disabled])`), WOLF, { timeout: 150000 }),
    page.getByTestId('end').waitFor({ timeout: 150000 }).then(() => {
      throw new Error('the game ended before a duel was offered');
    }),
  ]);
  log('duel: offered in the knight\'s speech,', (await page.getByTestId('phase').innerText()).replace(/\s+/g, ' '));
  await target.click();
  const confirm = duel.locator('[data-testid="confirm-duel"]:not([disabled])');
  await confirm.waitFor({ timeout: 5000 });
  await confirm.scrollIntoViewIfNeeded();
  const atResult = process.env.DUEL_SHOT === 'result';
  if (!atResult) await shot(page, 'knight-duel');
  await confirm.click();

  // the duel's result in the log: seat 5 is a wolf, and dies
  const line = page.getByTestId('log').locator('li', { hasText: /reveals the knight and duels seat/ }).last();
  await line.waitFor({ timeout: 10000 });
  await line.scrollIntoViewIfNeeded();
  log('duel: the log says:', (await line.innerText()).replace(/\s+/g, ' '));
  if (atResult) await shot(page, 'knight-duel');
  await ctx.close();
}

// A custom board (9 players: 3 wolves, seer, witch, hunter, 3 villagers),
// pasted as a board file; its balance simulated, then "Balance my board".
const BOARD = 'players: 9\ncards:\n  werewolf: 3\n  seer: 1\n  witch: 1\n  hunter: 1\n  villager: 3\n';

async function balance(browser, base) {
  const ctx = await browser.newContext(VIEW);
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(base + '/new');
  await page.getByTestId('create').waitFor();
  await page.getByTestId('board-paste').locator('summary').click();
  await page.getByTestId('board-text').fill(BOARD);
  await page.getByTestId('board-paste-use').click();
  await page.getByTestId('board-paste').locator('summary').click(); // folded again: the board is in
  const panel = page.getByTestId('balance');
  await panel.getByTestId('balance-village').waitFor({ timeout: 30000 });
  await panel.getByTestId('balance-suggest').click();
  await panel.getByTestId('balance-suggestions').waitFor({ timeout: 60000 });
  log('balance:', (await panel.getByTestId('balance-village').innerText()).trim(), '·',
    await panel.locator('[data-testid="balance-suggestions"] li').count(), 'suggestions');
  // the panel in the middle of the view
  await panel.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await shot(page, 'balance');
  await ctx.close();
}

// the binary with the client as it is in web/dist (WOLFDEN_BIN: that one)
const srv = await startServer({ name: 'shots', client: false, log });
const base = srv.base;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
try {
  const only = process.env.ONLY || '';
  if (!only || only === 'balance') await balance(browser, base);
  if (!only || only === 'duel') await knightDuel(browser, base);
} finally {
  await browser.close();
  await srv.stop();
}
log('done');
process.exit(0);
