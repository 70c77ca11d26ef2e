// The arena table (issue 25's "arena table"): `wolfden arena --db` plays a
// short tournament into a database, a server on it lists the run's ratings
// at /arena, reached from the lobby, in each of the three languages, after
// the AIWolf agent teams' standings (one matched game of `wolfden agent`). (The
// kept games' replays are the Go tests': internal/server/arena_test.go.)
//
//   node tests/arena.mjs          builds the client and the server first
//   WOLFDEN_BIN=/path/wolfden ... uses that binary (its embedded client)
//   CHROMIUM=/path/chromium ...   another Chromium than /usr/bin/chromium
//
// Exits non-zero on any failure.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { api, build, repo, startServer } from './server.mjs';

const started = Date.now();
const log = (...a) => console.log(`[arena ${((Date.now() - started) / 1000).toFixed(1)}s]`, ...a);
const fail = (msg) => {
  throw new Error(msg);
};
const ui = (lang) => JSON.parse(fs.readFileSync(path.join(repo, 'internal/i18n/locales/ui', lang + '.json'), 'utf8'));
const domain = (lang) => JSON.parse(fs.readFileSync(path.join(repo, 'internal/i18n/locales', lang + '.json'), 'utf8'));

setTimeout(() => {
  console.error('arena: over 300s, giving up');
  process.exit(1);
}, 300000).unref();

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wolfden-arena-'));
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));
let srv = null;
let browser = null;
try {
  const bin = process.env.WOLFDEN_BIN || build(tmp, { log });
  const db = path.join(tmp, 'arena.db');
  execFileSync(bin, ['arena', '--players', 'smart,random', '--games', '20', '--seed', '3', '--db', db], { stdio: ['ignore', 'ignore', 'inherit'] });
  log('20 arena games kept in', db);
  srv = await startServer({ name: 'arena', bin, args: ['--db', db, '--aiwolf'], log });

  // One matched game of a team of five of wolfden's own agents: its team
  // is rated on both sides, listed before the tournament.
  const ws = srv.base.replace('http', 'ws') + '/aiwolf/ws';
  execFileSync(bin, ['agent', '--url', ws, '--name', 'kanolab1', '--count', '5', '--games', '1'], { stdio: ['ignore', 'ignore', 'inherit'] });
  let runs = [];
  while (!(runs.length === 2 && runs[0].agents)) {
    runs = await api(srv.base, 'GET', '/api/arena');
    await new Promise((r) => setTimeout(r, 50)); // polling the state
  }
  log('the agent team rated');
  const [agents, tour] = runs;
  if (agents.run !== 'aiwolf-5' || agents.games !== 1 || agents.ratings.map((r) => r.program + '/' + r.side).join(' ') !== 'kanolab/village kanolab/wolf') fail('the agents: ' + JSON.stringify(agents));
  if (tour.games !== 20 || tour.seed !== 3 || tour.ratings.length !== 4) fail('GET /api/arena: ' + JSON.stringify(runs));

  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  for (const [lang, locale] of [['en', 'en-US'], ['zh-Hans', 'zh-CN'], ['zh-Hant', 'zh-TW']]) {
    const ctx = await browser.newContext({ locale });
    const page = await ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(srv.base + '/');
    await page.locator('[data-testid="arena-link"]').click();
    await page.locator('[data-testid="arena-row"]').first().waitFor();
    if (new URL(page.url()).pathname !== '/arena') fail(`${lang}: the lobby's link led to ${page.url()}`);
    const title = await page.locator('[data-testid="arena"] h1').textContent();
    if (title !== ui(lang)['ui.arena.title']) fail(`${lang}: title ${JSON.stringify(title)}`);
    const heading = await page.locator('[data-testid="arena-agents"]').textContent();
    if (!heading.startsWith(ui(lang)['ui.arena.agents'].split('{')[0])) fail(`${lang}: the agents' heading ${JSON.stringify(heading)}`);
    const all = await page.locator('[data-testid="arena-row"]').allTextContents();
    if (all.length !== 6 || !all[0].startsWith('kanolab')) fail(`${lang}: rows ${JSON.stringify(all)}`);
    const rows = all.slice(2);
    const village = domain(lang)['camp.village'];
    const wolves = domain(lang)['camp.wolves'];
    if (rows.length !== 4 || rows.filter((r) => r.includes(village)).length !== 2 || rows.filter((r) => r.includes(wolves)).length !== 2) {
      fail(`${lang}: rows ${JSON.stringify(rows)}`);
    }
    // The page shows what the API serves, best first on each side.
    const first = tour.ratings[0];
    if (!rows[0].includes(first.program) || !rows[0].includes(first.rating.toFixed(2))) fail(`${lang}: first row ${rows[0]} for ${JSON.stringify(first)}`);
    if (errors.length) fail(`${lang}: page errors: ${errors.join('; ')}`);
    await ctx.close();
    log(lang, 'ok');
  }

  log('ok');
  console.log('arena: 1 passed, 0 failed');
} catch (err) {
  console.error('arena failed:', err && err.stack ? err.stack : err);
  if (srv) console.error('server log (end):\n' + srv.stderr().slice(-3000));
  console.log('arena: 0 passed, 1 failed');
  process.exitCode = 1;
} finally {
  if (browser) await browser.close().catch(() => {});
  if (srv) await srv.stop();
}
process.exit(process.exitCode || 0);
