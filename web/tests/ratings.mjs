// Issue 25's browser test of the ledger: a player signs up with a password,
// plays two rated games with bots filling the seats, finds his rating
// change on the end screen, his history, statistics and ratings on his
// profile and the leaderboard; makes the profile private (others get a
// 404, he still sees it) and deletes his account (gone for everyone).
//
// One person of nine is too few for a game to count by default (half the
// seats must be people): the server runs with --count-people 0.1, the
// option an operator has for it. A rated room cannot be a practice room
// (a fixed seed counts for nothing), so the deal is random: the timers are
// tiny and the player lets them run out (his page stays connected, so he
// is no leaver); the test checks what is shown, never who won.
//
//   node tests/ratings.mjs           builds the client and the server first
//   WOLFDEN_BIN=/path/wolfden ...    uses that binary (its embedded client)
import { chromium } from 'playwright-core';
import { startServer } from './server.mjs';

const LIMIT = Number(process.env.RATINGS_LIMIT_S || 300) * 1000;
const started = Date.now();
const log = (...a) => console.log(`[ratings ${((Date.now() - started) / 1000).toFixed(1)}s]`, ...a);
const fail = (msg) => {
  throw new Error(msg);
};
// The limit runs from the server's start: a build on a loaded machine
// takes minutes of its own.
function watchdog() {
  setTimeout(() => {
    console.error(`ratings: over ${LIMIT / 1000}s after the server started, giving up`);
    process.exit(1);
  }, LIMIT).unref();
}

const TINY = { setup: '0.2', night: '0.3', witch: '0.2', speech: '0.2', vote: '0.2', other: '0.2', bot: '0' };
const NAME = 'Ratna';
const PASSWORD = 'correct horse battery';

let browser = null;
const problems = [];

function watch(page, who) {
  page.on('pageerror', (e) => problems.push(`${who}: page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) problems.push(`${who}: console error: ${m.text()}`);
  });
}

// playRated creates a std-9 room on the create page (rated: the badge says
// so), fills it with bots, starts it, and waits for the end screen with
// the player's own rating change. It returns the room's id.
async function playRated(page, base) {
  await page.goto(base + '/new');
  await page.getByTestId('create').waitFor();
  await page.getByTestId('where-online').click();
  await page.getByTestId('preset-std-9').click();
  await page.getByTestId('create').getByTestId('rated').waitFor({ timeout: 15000 });
  await page.getByTestId('timers').locator('summary').click();
  for (const [k, v] of Object.entries(TINY)) await page.locator('#timer-' + k).fill(v);
  const nick = page.locator('#cnick');
  if (await nick.isVisible()) await nick.fill(NAME);
  await page.getByTestId('create-submit').click();
  await page.getByTestId('room').waitFor();
  await page.waitForURL(/\/room\/[a-z0-9]+$/);
  const id = page.url().split('/room/')[1];
  await page.getByTestId('room').getByTestId('rated').waitFor({ timeout: 10000 });
  if (await page.getByTestId('fill-bots').isEnabled()) await page.getByTestId('fill-bots').click();
  await page.waitForFunction(() => document.querySelectorAll('.seat.empty').length === 0);
  await page.getByTestId('start').click();
  await page.getByTestId('table').waitFor({ timeout: 15000 });
  await page.getByTestId('end-panel').waitFor({ timeout: 180000 });
  const change = page.getByTestId('rating-change');
  await change.waitFor({ timeout: 30000 });
  const text = await change.innerText();
  log(`room ${id}: the end screen says "${text.replace(/\s+/g, ' ')}"`);
  return { id, text };
}

async function main() {
  const srv = await startServer({ name: 'ratings', args: ['--count-people', '0.1'], log });
  const base = srv.base;
  watchdog();
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const ctx = await browser.newContext({ viewport: { width: 1200, height: 900 }, locale: 'en-US' });
  const page = await ctx.newPage();
  watch(page, 'player');

  // Sign up with a password.
  await page.goto(base + '/account');
  await page.getByTestId('sign-up-form').waitFor();
  await page.locator('#new-name').fill(NAME);
  await page.locator('#new-password').fill(PASSWORD);
  await page.getByTestId('sign-up').click();
  await page.getByTestId('account-me').waitFor({ timeout: 15000 });
  log('signed up with a password');

  // Two rated games; a draw counts for nobody, so one more if need be.
  const games = [];
  for (let i = 0; games.length < 2; i++) {
    if (i === 4) fail(`only ${games.length} counted games in 4`);
    const g = await playRated(page, base);
    if (/does not count/.test(g.text)) continue;
    if (!/rating/i.test(g.text) || !/[+−±]\d/.test(g.text)) fail(`the end screen shows no rating change: "${g.text}"`);
    games.push(g);
  }

  // Another person (no session) reads the public profile through the API;
  // the end screen's numbers were this player's alone.
  const other = await browser.newContext();
  const pub = await (await other.request.get(`${base}/api/players/${NAME}`)).json();
  if (pub.games.length !== 2 || pub.own) fail(`the public profile to another: ${JSON.stringify(pub).slice(0, 300)}`);

  // The profile: history with replays, stats with intervals, ratings.
  await page.goto(`${base}/players/${NAME}`);
  await page.getByTestId('profile-name').waitFor();
  const rows = await page.getByTestId('profile-game').count();
  if (rows !== 2) fail(`the history lists ${rows} games, want 2`);
  for (const g of games) {
    if ((await page.locator(`[data-testid="profile-game"] a[href="/room/${g.id}"]`).count()) !== 1) fail(`no replay link to room ${g.id}`);
  }
  const stats = await page.getByTestId('profile-stats').innerText();
  if (!/std-9/.test(stats) || !/of 2/.test(stats) || !/%–\d+%/.test(stats)) fail(`the stats: "${stats}"`);
  const ratings = await page.getByTestId('profile-ratings').innerText();
  if (!/village|wolf/.test(ratings)) fail(`the ratings: "${ratings}"`);
  log('the profile shows the history, the stats with their intervals and the ratings');

  // The leaderboard of the season lists him on a side he played.
  const side = pub.ratings[0].side;
  await page.goto(`${base}/leaderboard`);
  await page.getByTestId('leaderboard-side').selectOption(side);
  await page.getByTestId('leaderboard').getByText(NAME).waitFor({ timeout: 10000 });
  log(`the leaderboard lists him on the ${side} side`);

  // Private: gone for others (the 404 of a name nobody has), his own still.
  await page.goto(base + '/account');
  await page.getByTestId('account-me').waitFor();
  await page.getByTestId('account-public').uncheck();
  await page.waitForFunction(async (n) => (await fetch('/api/players/' + n)).ok && !(await (await fetch('/api/players/' + n)).json()).public, NAME);
  const hidden = await other.request.get(`${base}/api/players/${NAME}`);
  const nobody = await other.request.get(`${base}/api/players/nobody-at-all`);
  if (hidden.status() !== 404 || (await hidden.text()) !== (await nobody.text())) fail(`a private profile to another: ${hidden.status()} ${await hidden.text()}`);
  const board = await (await other.request.get(`${base}/api/leaderboard?side=${side}`)).json();
  if (board.players.some((p) => p.name === NAME)) fail('a private profile is on the leaderboard');
  await page.goto(`${base}/players/${NAME}`);
  await page.getByTestId('profile-private').waitFor();
  log('private: another gets the 404 of a name nobody has; he still sees his own');

  // Delete the account: his profile is gone, for him too.
  await page.goto(base + '/account');
  await page.getByTestId('account-delete').click();
  await page.getByTestId('account-delete-yes').click();
  await page.getByTestId('sign-up-form').waitFor({ timeout: 15000 });
  const gone = await page.evaluate(async (n) => (await fetch('/api/players/' + n)).status, NAME);
  if (gone !== 404) fail(`a deleted account's profile: ${gone}`);
  log('deleted: the profile is gone');

  if (problems.length) fail(problems.join('\n'));
  await browser.close();
  await srv.stop();
  log('ok');
}

main().catch(async (err) => {
  console.error('ratings:', err.message);
  if (browser) await browser.close().catch(() => {});
  process.exit(1);
});
