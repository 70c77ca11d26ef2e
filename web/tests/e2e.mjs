// End-to-end: the real server and the real client in Chromium. Plays a whole
// std-12 game as the one human seat through the UI (and a std-9 one on a
// phone at the same time), switches the language and reloads mid-game, and
// takes a screenshot of each screen: into docs/screenshots/ with
// SCREENSHOTS=1 (to refresh them when the UI changes), else a temporary dir.
//
//   npm run e2e                      builds the client and the server first
//   WOLFDEN_BIN=/path/wolfden ...    uses that binary (its embedded client)
//   CHROMIUM=/path/chromium ...      another Chromium than /usr/bin/chromium
//
// Exits non-zero on any failure.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { repo, startServer } from './server.mjs';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wolfden-e2e-'));
const shots = process.env.SCREENSHOTS ? path.join(repo, 'docs', 'screenshots') : path.join(tmp, 'screenshots');
const LIMIT = Number(process.env.E2E_LIMIT_S || 300) * 1000;
const started = Date.now();

let browser = null;
const problems = [];

const log = (...a) => console.log(`[e2e ${((Date.now() - started) / 1000).toFixed(1)}s]`, ...a);

function fail(msg) {
  throw new Error(msg);
}

function cleanup() {
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.on('exit', cleanup);
const watchdog = setTimeout(() => {
  console.error(`e2e: over ${LIMIT / 1000}s, giving up`);
  process.exit(1);
}, LIMIT);
watchdog.unref();

let srv = null;

// restartServer kills the server as a crash would (SIGKILL) and starts it
// again on the same port and database: the games resume from the store.
async function restartServer() {
  await srv.restart();
  return srv.base;
}

async function shot(page, name, full = false) {
  fs.mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, name + '.png'), fullPage: full });
  log('screenshot', name + '.png');
}

// Chromium's own line when it refuses a vibration before the page was
// touched (a seat's page that never taps, here the abort's host, buzzed at
// a task instant: lib/buzz.js): the browser's refusal, not the page's error.
const VIBRATE_REFUSED = /^Blocked call to navigator\.vibrate because user hasn't tapped/;

function watch(page, who) {
  page.on('pageerror', (e) => problems.push(`${who}: page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !VIBRATE_REFUSED.test(m.text())) problems.push(`${who}: console error: ${m.text()}`);
  });
}

// Deterministic: a practice room (fixed seed, so the same deal and the same
// bots' choices), and timers long enough that the human seat always acts
// before they run out, even on a loaded machine and across a reload or a
// server restart: the game the test plays is the same every run. The bots
// act at once and the human ends his steps himself, so only the nights
// (a fixed schedule: every slot lasts its timer) take their time.
const FAST = { setup: '2', night: '6', witch: '4', speech: '20', vote: '20', other: '15', bot: '0' };

// createRoom goes through the lobby and the create form. A seed makes a
// practice room: the form says so beside the field and tells the server
// (practice: true), and the room page shows the practice badge.
async function createRoom(page, base, { nick, preset, seed, screenshot }) {
  await page.goto(base + '/');
  await page.getByTestId('lobby').waitFor();
  await page.locator('#nick').fill(nick);
  if (screenshot) await shot(page, 'lobby');
  await page.getByTestId('create-room').click();
  await page.getByTestId('create').waitFor();
  // online or at one table: a phone asks first, a wide screen starts online
  await page.getByTestId('where-online').click();
  if ((await page.getByTestId('where-online').getAttribute('aria-checked')) !== 'true') fail('create: "online" is not chosen after a tap');
  await page.getByTestId('preset-' + preset).click();
  await page.getByTestId('timers').locator('summary').click();
  for (const [k, v] of Object.entries(FAST)) await page.locator('#timer-' + k).fill(v);
  if (await page.getByTestId('seed-practice').innerText()) fail('create: the practice note is there before a seed is given');
  await page.locator('#seed').fill(String(seed));
  if (!/practice/i.test(await page.getByTestId('seed-practice').innerText())) fail('create: a seed does not say it makes a practice room');
  if (screenshot) {
    await page.getByTestId('rules').locator('summary').click();
    await shot(page, 'create', true);
  }
  const sent = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/rooms');
  await page.getByTestId('create-submit').click();
  const req = JSON.parse((await sent).postData() || '{}');
  if (req.seed !== seed || req.practice !== true) fail(`create: a seeded room was asked for without practice: ${JSON.stringify(req)}`);
  // online, the standard pace is the server's own: not sent; the timers typed are
  if ('pace' in req || req.card_seen || Object.keys(req.timers || {}).length !== Object.keys(FAST).length) fail(`create: an online room with its timers typed was asked as ${JSON.stringify(req)}`);
  await page.getByTestId('room').waitFor();
  await page.waitForURL(/\/room\/[a-z0-9]+$/);
  const id = page.url().split('/room/')[1];
  const info = await (await fetch(`${base}/api/rooms/${id}`)).json();
  if (info.practice) {
    await page.getByTestId('room').getByTestId('practice').waitFor({ timeout: 5000 });
    log(`room ${id}: a practice room, and its page says so`);
  } else log(`room ${id}: (the server does not mark practice rooms yet)`);
  return id;
}

// practiceOnTable: the table shows a practice room's badge as soon as the
// welcome or the room info says so.
async function practiceOnTable(page, base, id, who) {
  const info = await (await fetch(`${base}/api/rooms/${id}`)).json();
  if (!info.practice) return;
  await page.getByTestId('table').getByTestId('practice').waitFor({ timeout: 5000 });
  log(`${who}: the table says it is a practice room`);
}

// closeAndReopen: the host empties a seat; the server closes it, the room
// shows it closed, and the host's reopen button makes it free again.
async function closeAndReopen(page, base, id, seat) {
  const at = page.getByTestId('room-seat-' + seat);
  await page.getByTestId('remove-' + seat).tap();
  await page.waitForFunction((n) => {
    const s = document.querySelector(`[data-testid="room-seat-${n}"]`)?.dataset.state;
    return s === 'closed' || s === 'empty';
  }, seat, { timeout: 10000 });
  const room = await (await fetch(`${base}/api/rooms/${id}`)).json();
  if (!room.seats[seat - 1].closed) {
    if ((await at.getAttribute('data-state')) !== 'empty') fail(`phone: seat ${seat} is not empty once emptied`);
    log(`phone: (the server does not close an emptied seat yet: seat ${seat} is just empty)`);
    return;
  }
  if ((await at.getAttribute('data-state')) !== 'closed') fail(`phone: the room does not show seat ${seat} closed`);
  if (!/closed/i.test(await at.innerText())) fail(`phone: seat ${seat} does not say it is closed`);
  await page.getByTestId('reopen-' + seat).tap();
  await page.waitForFunction((n) => document.querySelector(`[data-testid="room-seat-${n}"]`)?.dataset.state === 'empty', seat, { timeout: 10000 });
  const again = await (await fetch(`${base}/api/rooms/${id}`)).json();
  if (again.seats[seat - 1].closed) fail(`phone: seat ${seat} is still closed after the host reopened it`);
  log(`phone: the host emptied seat ${seat} (closed) and reopened it`);
}

async function fillAndStart(page, { screenshot }) {
  if (await page.getByTestId('fill-bots').isEnabled()) await page.getByTestId('fill-bots').click();
  await page.waitForFunction(() => document.querySelectorAll('.seat.empty').length === 0);
  if (screenshot) await shot(page, 'room', true);
  await page.getByTestId('start').click();
  await page.getByTestId('table').waitFor({ timeout: 15000 });
}

// act does what the action panel asks, if it asks: a legal target and its
// confirmation, else a pass. Never a self-explosion. Returns whether it acted.
async function act(page, tap) {
  const panel = page.locator('[data-testid="action-panel"][data-pending="1"]');
  if ((await panel.count()) === 0) return false;
  const press = (loc) => (tap ? loc.tap({ timeout: 3000 }) : loc.click({ timeout: 3000 }));
  try {
    const target = panel.locator('button[data-testid^="target-"]:not([disabled])').first();
    if (await target.count()) {
      if ((await target.getAttribute('aria-pressed')) !== 'true') await press(target); // picked on the ring already
      const confirm = panel.locator('button[data-testid^="confirm-"]:not([disabled])').first();
      await confirm.waitFor({ timeout: 3000 });
      if (!(await confirm.isVisible())) fail('the confirm button is not shown');
      await press(confirm);
    } else {
      const pass = panel.locator('[data-testid="act-skip"], [data-testid="act-abstain"], [data-testid^="act-"]:not([data-testid="act-explode"])').first();
      if (!(await pass.count())) return false;
      await press(pass);
    }
  } catch {
    return false; // the step moved on meanwhile: look again
  }
  // the answer: the buttons only an unanswered move disables (a target, a
  // pass, a choice) are enabled again (the ack came) or the panel goes.
  // Not Send nor the claims: a speech's panel keeps them disabled until
  // something is typed or chosen, and waiting on them took the full timeout.
  await page.waitForFunction(() => !document.querySelector('[data-testid="action-panel"][data-pending="1"] button[disabled]:is([data-testid^="target-"], [data-testid^="act-"], [data-testid^="none-"])'), null, { timeout: 10000 }).catch(() => {});
  return true;
}

const phaseText = (page) => page.getByTestId('phase').textContent();

async function playDesktop(browser, base) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', reducedMotion: 'reduce' });
  await ctx.addInitScript(fakeSpeech);
  const page = await ctx.newPage();
  watch(page, 'desktop');
  const id = await createRoom(page, base, { nick: 'Alice', preset: 'std-12', seed: 9, screenshot: true });
  log('desktop: room', id);
  await fillAndStart(page, { screenshot: true });
  await practiceOnTable(page, base, id, 'desktop');
  await page.getByTestId('ring').waitFor();
  await nicksWhole(page, 'desktop');
  log('desktop: my card is', await page.getByTestId('my-role').innerText({ timeout: 10000 }).catch(() => '?'));
  await page.getByTestId('narrate').click(); // narration on: the fake voice records what is said
  if ((await page.getByTestId('narrate').getAttribute('aria-pressed')) !== 'true') fail('narration did not switch on');

  let nightShot = false;
  let dayShot = false;
  let dawnShot = false;
  let voteShot = false;
  let switched = false;
  let restarted = false;
  let reloaded = false;
  let spoke = false;
  let acts = 0;
  while (!(await page.getByTestId('end').count())) {
    if (Date.now() - started > LIMIT - 30000) fail('desktop: the game did not end in time');
    const night = (await page.getByTestId('table').getAttribute('data-night')) === '1';
    const title = await phaseText(page).catch(() => '');
    // by night, the seer (seat 1 with this seed) picks whom to check
    const nightPick = async () => (await page.getByTestId('table').getAttribute('data-night')) === '1' &&
      (await page.locator('[data-testid="action-panel"][data-pending="1"] [data-testid^="target-"]').count()) > 0;
    if (!nightShot && (await nightPick())) {
      nightShot = true;
      await page.getByTestId('seat-5').click({ timeout: 3000 }); // picked on the ring
      // a pick is not an act: the ring says so, and the confirm button is in view
      const center = await page.getByTestId('ring').locator('.center').innerText();
      if (!/not sent/i.test(center)) fail('desktop: a pick on the ring does not say it is not sent yet: ' + center);
      const confirm = page.locator('[data-testid^="confirm-"]:not([disabled])').first();
      await page.waitForFunction(() => {
        const b = document.querySelector('[data-testid^="confirm-"]:not([disabled])')?.getBoundingClientRect();
        return b && b.top >= 0 && b.bottom <= window.innerHeight;
      }, null, { timeout: 3000 }).catch(() => fail('desktop: the confirm button of a pick on the ring is out of view'));
      if (!(await confirm.count())) fail('desktop: no confirm button for the pick');
      await shot(page, 'seat-night'); // a seat's table (table-night.png is the table device's: shots-table.mjs)
      await hideAndShow(page);
    }
    if (!night && !dawnShot && (await page.getByTestId('dawn-summary').count())) {
      dawnShot = true;
      const text = await page.getByTestId('dawn-summary').innerText();
      if (!/peaceful|Died last night/i.test(text)) fail('desktop: the dawn summary says neither who died nor a peaceful night: ' + text);
      await shot(page, 'dawn');
      log('desktop: the dawn summary says: ' + text.replace(/\s+/g, ' '));
    }
    const votes = await page.locator('.main-col [data-testid="vote-result"] [data-testid="vote-total"]').count();
    if (votes && !voteShot) {
      voteShot = true;
      await shot(page, 'vote');
    }
    if (votes) await logFollows(page);
    // by day, the exile vote (after the sheriff's election)
    if (!night && !dayShot && (await page.locator('[data-testid="action-panel"][data-pending="1"] [data-testid^="target-vote-"]').count())) {
      dayShot = true;
      await shot(page, 'seat-day');
    }
    if (!switched && /^Day \d+$/.test(title)) {
      switched = true;
      await switchLanguage(page, title);
    }
    if (reloaded && !restarted && /^Night [2-9]$/.test(title)) {
      restarted = true;
      await crashMidGame(page);
    }
    if (switched && !reloaded && /^Day \d+$/.test(title)) {
      reloaded = true;
      await reloadMidGame(page);
    }
    if (!spoke && (await page.getByTestId('speech-input').count())) {
      spoke = await speak(page);
    }
    if (spoke) await spokeInLog(page);
    if (!nightShot && (await nightPick())) continue; // the night's pick came meanwhile: shown first
    if (await act(page, false)) acts++;
    else await page.waitForTimeout(150);
  }
  log(`desktop: the game is over after ${acts} actions through the UI`);
  if (!spoke) log('desktop: (the human seat never had a speech to give)');
  if (!switched) fail('desktop: never reached a day to switch the language');
  if (!nightShot) fail('desktop: never had a night action to show');
  if (!dayShot) fail('desktop: never had a vote to show');
  if (!dawnShot) fail('desktop: no dawn summary was shown');
  if (!voteShot) fail('desktop: no vote result with totals was shown');
  const why = await page.getByTestId('end-why').innerText({ timeout: 5000 }).catch(() => '');
  if (!why) fail('desktop: the end does not say why the camp won');
  const top = await page.getByTestId('end-panel').evaluate((e) => e.getBoundingClientRect().top);
  if (top < 0 || top > 900) fail('desktop: the end is not in view (top at ' + top + ')');
  log('desktop: the end says why: ' + why);
  if (!reloaded) fail('desktop: the page was not reloaded mid-game');
  if (!restarted) fail('desktop: the game ended before night 2: the server was not restarted mid-game');
  await page.getByTestId('replay').waitFor({ timeout: 15000 });
  const winner = (await page.getByTestId('winner').textContent()).trim();
  if (!/win|draw/i.test(winner)) fail('desktop: no winner shown: ' + winner);
  const roles = await page.locator('[data-testid="end"] .roles li').count();
  if (roles !== 12) fail(`desktop: ${roles} cards shown at the end, not 12`);
  const unknown = await page.locator('[data-testid="end"] .roles li .role', { hasText: '?' }).count();
  if (unknown) fail(`desktop: ${unknown} cards not revealed at the end`);
  const href = await page.getByTestId('download').getAttribute('href');
  const dl = await fetch(base + href);
  const replay = await dl.json();
  if (!dl.headers.get('content-disposition') || !Array.isArray(replay.events) || replay.events.length < 20) fail('desktop: the replay download is wrong');
  // the game's fingerprint: the same every run when the test is deterministic
  const digest = createHash('sha256').update(JSON.stringify(replay.events.map((e) => [e.kind, e.seat, e.target, e.value, e.mask]))).digest('hex').slice(0, 12);
  log(`desktop: winner "${winner}", replay of ${replay.events.length} events, game ${digest}`);
  const spoken = await page.evaluate(() => window.__spoken);
  if (!spoken.includes('Night falls: everyone, close your eyes.')) fail('narration: night.falls was never said: ' + JSON.stringify(spoken.slice(0, 5)));
  if (!spoken.some((s) => /^Last night/.test(s))) fail('narration: no dawn was announced');
  // each announcement once: the dawn does not say again the day breaking, nor a death its exile or shot
  if (spoken.some((s) => /^Day breaks\./.test(s))) fail('narration: the dawn said "day breaks" again: ' + JSON.stringify(spoken));
  const twice = spoken.find((s, i) => i > 0 && s === spoken[i - 1] && !/open|close/.test(s));
  if (twice) fail('narration: said twice in a row: ' + twice);
  const exiled = spoken.map((s) => /^Seat (\d+) is exiled\./.exec(s)).filter(Boolean).map((m) => m[1]);
  const again = spoken.find((s) => exiled.some((n) => s === `Seat ${n} is dead: exiled.` || s.startsWith(`Seat ${n} is dead: exile`)));
  if (again) fail('narration: an exile was said again as a death: ' + again);
  if (!spoken.some((s) => /^(Wolves|Seer|Witch), open your eyes\.$/.test(s))) fail('narration: no role was called at night: ' + JSON.stringify(spoken));
  if (!spoken.includes('Day breaks: everyone, open your eyes.')) fail('narration: day.breaks was never said');
  if (!spoken.some((s) => /^Game over/.test(s))) fail('narration: the end was not announced');
  log(`desktop: the moderator said ${spoken.length} lines aloud`);
  await replayReads(page, spoke);
  await page.getByTestId('end').scrollIntoViewIfNeeded();
  await page.locator('[data-testid="replay"] details').nth(1).evaluate((d) => (d.open = true));
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'end');
  await reloadMidGame(page, true);
  await ctx.close();
}

// nicksWhole: a nickname of eight letters or four Chinese characters shows
// whole under its seat on the ring, never cut to "A…" (a copy of a seat is
// measured beside the others, then removed).
async function nicksWhole(page, who) {
  const cut = await page.evaluate(() => {
    const seat = [...document.querySelectorAll('[data-testid="ring"] .seat')].find((s) => !s.classList.contains('me'));
    if (!seat) return ['no seat'];
    const out = [];
    for (const name of ['Alexandr', 'Zhangwei', '王小明们', 'Mei']) {
      const copy = seat.cloneNode(true);
      copy.querySelector('.nick').textContent = name;
      copy.querySelector('.role')?.remove();
      seat.parentNode.appendChild(copy);
      const n = copy.querySelector('.nick');
      if (n.scrollWidth > n.clientWidth + 1) out.push(`${name} (${n.clientWidth}px of ${n.scrollWidth})`);
      copy.remove();
    }
    return out;
  });
  if (cut.length) fail(`${who}: nicknames cut on the ring: ${cut.join(', ')}`);
  log(`${who}: nicknames of 8 letters or 4 characters show whole on the ring`);
}

// replayReads: the replay reads in the third person (no "your check"), a
// night opened stays open when the seat filter changes, and the human's
// speech is inside its day.
async function replayReads(page, spoke) {
  const replay = page.getByTestId('replay');
  const all = replay.locator('.timeline details');
  await all.evaluateAll((ds) => ds.forEach((d) => (d.open = true)));
  const text = await replay.innerText();
  await all.evaluateAll((ds) => ds.forEach((d) => (d.open = false)));
  if (/\byour (check|card|move|lover|target)\b|\byou (heal|poison|protect|charm|spy)\b/i.test(text)) fail('replay: it says "you": ' + /.{0,40}\byou.{0,40}/i.exec(text)[0]);
  const night = replay.locator('[data-phase="night-1"] > details');
  await night.locator('summary').click();
  if (!(await night.evaluate((d) => d.open))) fail('replay: night 1 did not open');
  await replay.locator('select').selectOption('1');
  await page.waitForTimeout(100);
  if (!(await replay.locator('[data-phase="night-1"] > details').evaluate((d) => d.open))) fail('replay: night 1 closed when the filter changed');
  await replay.locator('select').selectOption('0');
  if (spoke) {
    const speech = replay.locator('[data-phase^="day-"] [data-testid="replay-speech"]', { hasText: 'I am the seer' });
    if (!(await speech.count())) fail('replay: the human\'s speech is not inside its day');
  }
  log('replay: third person, night 1 stays open over a filter' + (spoke ? ', the speech inside its day' : ''));
}

// hideAndShow: "tap to hide" hides every sign of the card on the screen:
// the card, the ring's caption of the seat, its checks and mates, the private
// log lines; a tap shows them again.
async function hideAndShow(page) {
  const signs = () => page.evaluate(() => ({
    card: document.querySelectorAll('[data-testid="my-role"]').length,
    ring: document.querySelectorAll('[data-testid="ring"] .role').length,
    secret: document.querySelectorAll('[data-testid="log"] .secret').length,
  }));
  await page.getByTestId('tab-log').click();
  const before = await signs();
  if (!before.card || !before.ring) fail('desktop: no sign of the card to hide: ' + JSON.stringify(before));
  await page.getByTestId('role-card').click();
  const hidden = await signs();
  if (hidden.card || hidden.ring || hidden.secret) fail('desktop: hidden, the screen still shows the card: ' + JSON.stringify(hidden));
  await page.getByTestId('role-card').click();
  const shown = await signs();
  if (!shown.card || shown.ring < before.ring) fail('desktop: shown again, the card is not back: ' + JSON.stringify(shown));
  log('desktop: tap to hide hid the card, ' + before.ring + ' ring captions and ' + before.secret + ' private log lines, and showed them again');
}

// logFollows: the moderator's log shows its newest line (it keeps following
// after a vote result, a block taller than a line).
async function logFollows(page) {
  const box = page.locator('[data-testid="log"]');
  if (!(await box.count())) return;
  const ok = await page.waitForFunction(() => {
    const b = document.querySelector('[data-testid="log"]');
    return !b || b.scrollHeight - b.scrollTop - b.clientHeight < 30;
  }, null, { timeout: 3000 }).then(() => true, () => false);
  if (!ok) fail('desktop: the log stopped following its newest line');
}

// speak says a line in the speech box and finds it in the table's chat.
async function speak(page) {
  const line = 'I am the seer; seat 2 is good.';
  try {
    await page.getByTestId('speech-input').fill(line, { timeout: 1500 });
    await page.getByTestId('speech-input').press('Enter', { timeout: 1500 });
  } catch {
    return false; // the speech ended meanwhile
  }
  await page.getByTestId('tab-day').click();
  await page.getByTestId('chat').getByText(line).waitFor({ timeout: 5000 });
  await page.getByTestId('tab-log').click();
  log('desktop: said a line in the speech; it is in the table chat');
  // a reload mid-speech: the speaker's words since his turn began are beside the ring again
  const since = await sinceOf(page);
  await page.reload();
  await page.getByTestId('table').waitFor();
  await waitSince(page, since);
  if (await page.getByTestId('speech-input').count()) {
    await page.getByTestId('speaker-line').filter({ hasText: line }).waitFor({ timeout: 5000 })
      .catch(() => fail('desktop: after a reload mid-speech the speaker view lost his words'));
    log('desktop: reloaded mid-speech; the speaker view still shows his words');
  } else log('desktop: (the speech ended during the reload)');
  // His turns that ended before this one: the log's next end for his seat
  // is this turn's (a later turn of his, a PK or last words, may follow).
  await page.getByTestId('tab-log').click();
  const ended = await page.locator(`[data-testid="turn-end"][data-seat="${await mySeat(page)}"]`).count();
  spokeTurn = (await page.getByTestId('speech-input').count()) ? ended : ended - 1;
  spokeLine = true;
  return true;
}

async function mySeat(page) {
  return Number((await page.locator('[data-testid="ring"] .seat.me .num').first().textContent()).trim());
}

// The log says the seat spoke once his turn is over (lib/turns.js).
let spokeTurn = 0; // the index of his spoken turn among his turns' ends in the log
let spokeLine = false;
async function spokeInLog(page) {
  if (!spokeLine || (await page.getByTestId('speech-input').count())) return;
  spokeLine = false; // his turn is over: the log says he spoke
  await page.getByTestId('tab-log').click();
  const me = await mySeat(page);
  const line = page.locator(`[data-testid="turn-end"][data-seat="${me}"]`).nth(spokeTurn);
  await line.waitFor({ timeout: 10000 }).catch(() => fail(`desktop: the log has no end for seat ${me}'s speech`));
  if ((await line.getAttribute('data-spoke')) !== 'true') fail('desktop: the log does not say the human seat spoke: ' + (await line.textContent()));
  log('desktop: the log says: ' + (await line.textContent()).trim());
}

// A voice that records what it is told to say (headless Chromium has none).
function fakeSpeech() {
  window.__spoken = [];
  window.SpeechSynthesisUtterance = class {
    constructor(text) {
      this.text = text;
    }
  };
  Object.defineProperty(window, 'speechSynthesis', {
    configurable: true,
    value: { speak: (u) => window.__spoken.push(u.text), cancel() {}, getVoices: () => [] },
  });
}

// crashMidGame: the server dies (SIGKILL) and comes back; the table says it
// reconnects, resumes from the events it holds, and the game goes on.
const sinceOf = async (page) => Number(await page.getByTestId('table').getAttribute('data-since'));
const waitSince = (page, n, strict = false) =>
  page.waitForFunction(([n, strict]) => {
    const v = Number(document.querySelector('[data-testid="table"]')?.getAttribute('data-since') || 0);
    return strict ? v > n : v >= n;
  }, [n, strict], { timeout: 20000 });

async function crashMidGame(page) {
  const since = await sinceOf(page);
  await restartServer();
  // the page says it lost the server, unless it was back before a look
  // found it so: new events (waiting for a sign that had come and gone
  // took the full timeout)
  await page.waitForFunction((n) => document.querySelector('[data-testid="conn"]') ||
    Number(document.querySelector('[data-testid="table"]')?.getAttribute('data-since') || 0) > n, since, { timeout: 10000 }).catch(() => {});
  await page.getByTestId('conn').waitFor({ state: 'detached', timeout: 20000 });
  // the game goes on: new events come on the resumed connection
  await waitSince(page, since, true);
  const now = await sinceOf(page);
  await page.getByTestId('tab-log').click();
  if (now < since) fail(`after the restart the log went back from ${since} to ${now}`);
  const seqs = (await page.locator('[data-testid="log"] li[data-seq]').evaluateAll((l) => l.map((x) => Number(x.dataset.seq))));
  if (seqs.some((x, i) => i > 0 && x <= seqs[i - 1])) fail('after the restart the log is out of order');
  log(`desktop: server killed and restarted at event ${since}; the table reconnected (now at ${now})`);
}

// switchLanguage: the phase banner follows the language, and back.
async function switchLanguage(page, title) {
  await page.getByTestId('lang').selectOption('zh-Hans');
  await page.waitForFunction((t) => {
    const s = document.querySelector('[data-testid="phase"]')?.textContent || '';
    return s !== t && /[第夜天]/.test(s);
  }, title, { timeout: 5000 });
  const zh = await phaseText(page);
  // CJK buttons never wrap one character a line
  const narrow = await page.evaluate(() => [...document.querySelectorAll('button, .btn')].filter((b) => {
    const text = b.textContent.trim();
    if (!/[\u4e00-\u9fff]{2}/.test(text) || !b.offsetParent) return false;
    const lh = parseFloat(getComputedStyle(b).lineHeight) || parseFloat(getComputedStyle(b).fontSize) * 1.3;
    const r = b.getBoundingClientRect();
    return r.height > lh * 2.6 + 20 && r.width < parseFloat(getComputedStyle(b).fontSize) * 3;
  }).map((b) => b.textContent.trim()));
  if (narrow.length) fail('desktop: Chinese buttons wrap a character a line: ' + narrow.join(' | '));
  if (!(await page.locator('html[lang="zh-Hans"]').count())) fail('the document language did not change');
  await page.getByTestId('lang').selectOption('en');
  await page.waitForFunction(() => /^(Day|Night|Game over)/.test(document.querySelector('[data-testid="phase"]')?.textContent || ''), null, { timeout: 5000 });
  log(`desktop: language switched: "${title}" → "${zh}" → "${await phaseText(page)}"`);
}

// reloadMidGame: after a reload the log is whole again, from event 1.
async function reloadMidGame(page, ended = false) {
  await page.getByTestId('tab-log').click();
  const since = await sinceOf(page);
  const lines = () =>
    page.locator('[data-testid="log"] > li[data-seq]').evaluateAll((l, n) =>
      l.map((x) => [Number(x.dataset.seq), x.textContent.trim()]).filter(([q]) => q <= n), since);
  const before = await lines();
  await page.reload();
  if (ended) {
    await page.getByText(/win|draw|over/i).first().waitFor({ timeout: 15000 });
    log('desktop: reloaded after the end');
    return;
  }
  await page.getByTestId('table').waitFor();
  await waitSince(page, since);
  await page.getByTestId('tab-log').click();
  const after = await lines();
  if (!after.length || after[0][0] !== 1) fail('after the reload the log does not start at event 1');
  if (JSON.stringify(after) !== JSON.stringify(before)) {
    const i = after.findIndex((x, k) => JSON.stringify(x) !== JSON.stringify(before[k]));
    fail(`after the reload the log differs at line ${i}: ${JSON.stringify(before[i])} / ${JSON.stringify(after[i])}`);
  }
  log(`desktop: reloaded at event ${since}: the ${before.length} log lines are whole again`);
}

// customBoard builds a board with the card picker (two wolves, a seer, a
// witch, two villagers), changes one rule, and checks the server made that
// room: the board-file text the picker writes is one the server accepts.
async function customBoard(browser, base) {
  const ctx = await browser.newContext({ locale: 'en-US' });
  const page = await ctx.newPage();
  watch(page, 'custom');
  await page.goto(base + '/new');
  await page.getByTestId('create').waitFor();
  await page.getByTestId('custom').click();
  // the picker starts from the chosen preset's cards: take them all back
  const picks = page.locator('.picker .pick');
  for (let i = 0; i < (await picks.count()); i++) {
    const pick = picks.nth(i);
    while (Number(await pick.locator('output').textContent()) > 0) await pick.getByRole('button').first().click();
  }
  await page.locator('#cplayers').fill('6');
  const more = async (role, n) => {
    for (let i = 0; i < n; i++) await page.getByRole('button', { name: `One ${role} more`, exact: true }).click();
  };
  await more('werewolf', 2);
  await more('seer', 1);
  await more('witch', 1);
  await more('villager', 2);
  await page.getByText('6 cards, 6 needed').waitFor();
  await page.getByTestId('rules').locator('summary').click();
  // only the options the cards use: the witch's with a witch, no guard's without a guard; the table's always
  if (!(await page.locator('#opt-witch_self_heal').count()) || (await page.locator('#opt-guard_repeat').count()) || !(await page.locator('#opt-wolf_win').count())) {
    fail('custom board: the rules shown do not follow the cards (witch, no guard)');
  }
  await page.getByRole('button', { name: 'One witch fewer', exact: true }).click();
  if (await page.locator('#opt-witch_self_heal').count()) fail('custom board: a witch\'s rule shows without a witch');
  await more('witch', 1);
  await page.locator('#opt-witch_self_heal').selectOption({ index: 1 });
  const heal = await page.locator('#opt-witch_self_heal').inputValue();
  await page.locator('#cnick').fill('Designer');
  await page.locator('#rname').fill('Six of us');
  await page.getByTestId('board-save').click(); // kept on the device, to be used again
  await page.getByTestId('create-submit').click();
  await page.waitForURL(/\/room\/[a-z0-9]+$/);
  const id = page.url().split('/room/')[1];
  const room = await (await fetch(`${base}/api/rooms/${id}`)).json();
  const cards = [...room.cards].sort().join(',');
  if (room.players !== 6 || cards !== 'seer,villager,villager,werewolf,werewolf,witch') fail(`custom board: the room has ${room.players} seats and cards ${cards}`);
  if (room.options.witch_self_heal !== heal) fail(`custom board: witch_self_heal is ${room.options.witch_self_heal}, the form said ${heal}`);
  log(`custom board: room ${id} with ${cards}, witch_self_heal=${heal}`);
  // the saved board is offered again on the device
  await page.goto(base + '/new');
  await page.getByTestId('saved-boards').getByTestId('board-use').first().click();
  await page.getByText('6 cards, 6 needed').waitFor({ timeout: 5000 }).catch(() => fail('custom board: the saved board did not come back'));
  if ((await page.locator('#opt-witch_self_heal').inputValue()) !== heal) fail('custom board: the saved board lost its rule');
  // a board file pasted fills the picker, and the room is made from it
  await page.getByTestId('board-paste').locator('summary').click();
  await page.getByTestId('board-text').fill('name: Pasted\nplayers: 7  # a comment\ncards:\n  werewolf: 2\n  seer: 1\n  guard: 1\n  villager: 3\noptions:\n  guard_repeat: once_per_target\n');
  await page.getByTestId('board-paste-use').click();
  await page.getByText('7 cards, 7 needed').waitFor({ timeout: 5000 }).catch(() => fail('custom board: the pasted board did not fill the picker'));
  if ((await page.locator('#opt-witch_self_heal').count()) || !(await page.locator('#opt-guard_repeat').count())) fail('custom board: the pasted board\'s rules do not follow its cards');
  await page.getByTestId('create-submit').click();
  await page.waitForURL((u) => /\/room\/[a-z0-9]+$/.test(u.pathname) && !u.pathname.endsWith(id));
  const id2 = page.url().split('/room/')[1];
  const room2 = await (await fetch(`${base}/api/rooms/${id2}`)).json();
  const cards2 = [...room2.cards].sort().join(',');
  if (room2.players !== 7 || cards2 !== 'guard,seer,villager,villager,villager,werewolf,werewolf' || room2.options.guard_repeat !== 'once_per_target') {
    fail(`custom board: the pasted board made ${room2.players} seats, ${cards2}, guard_repeat=${room2.options.guard_repeat}`);
  }
  log(`custom board: saved and used again; a pasted board file made room ${id2} (${cards2})`);
  await ctx.close();
}

// pushAndAbort: a joiner's page reaches the table as soon as the host
// starts (the room info is pushed: GET ?after=version), and the host aborts
// the game: every player is told, and the room waits again with its seats.
async function pushAndAbort(browser, base) {
  const created = await (await fetch(base + '/api/rooms', {
    method: 'POST',
    body: JSON.stringify({ preset: 'std-9', nickname: 'Host', practice: true, seed: 5, timers: { night: '30s', setup: '10s' } }),
  })).json();
  const id = created.room.id;
  const ctx = await browser.newContext({ locale: 'en-US' });
  const host = await ctx.newPage();
  watch(host, 'abort-host');
  await host.addInitScript(([id, seat, token, hostToken]) => {
    localStorage.setItem('wolfden.room.' + id, JSON.stringify({ seat, token, host: hostToken, at: 1 }));
  }, [id, created.seat, created.token, created.host_token]);
  const join = await (await fetch(`${base}/api/rooms/${id}/join`, { method: 'POST', body: JSON.stringify({ nickname: 'Joiner' }) })).json();
  const other = await ctx.browser().newContext({ locale: 'en-US' });
  const joiner = await other.newPage();
  watch(joiner, 'abort-joiner');
  await joiner.addInitScript(([id, seat, token]) => {
    localStorage.setItem('wolfden.room.' + id, JSON.stringify({ seat, token, at: 1 }));
  }, [id, join.seat, join.token]);
  // the moment the table enters each page, on the machine's clock (the
  // test's waitFor looks at 0, 20, 70, 170, 270 ms, each look waiting for
  // the page: it sees the table later, tests/push.mjs)
  const stamp = () => {
    new MutationObserver(() => {
      if (!window.__tableAt && document.querySelector('[data-testid="table"]')) window.__tableAt = Date.now();
    }).observe(document, { childList: true, subtree: true });
  };
  // the room info each page was answered, in the order the answers came:
  // whether it was the long poll (?after=) and the room's status in it
  const answers = (p) => {
    const got = [];
    p.on('response', async (r) => {
      const u = new URL(r.url());
      if (u.pathname !== `/api/rooms/${id}` || r.request().method() !== 'GET') return;
      const rec = { after: u.searchParams.has('after'), status: undefined };
      got.push(rec);
      rec.status = (await r.json().catch(() => ({}))).status || '?';
    });
    return got;
  };
  const heard = { joiner: answers(joiner) };
  await joiner.addInitScript(stamp);
  await joiner.goto(`${base}/room/${id}`);
  await joiner.getByTestId('room').waitFor();
  // the table device (?table=1, no seat) waits in the room too
  const device = await (await ctx.browser().newContext({ locale: 'en-US' })).newPage();
  watch(device, 'abort-device');
  heard.device = answers(device);
  await device.addInitScript(stamp);
  await device.goto(`${base}/room/${id}?table=1`);
  await device.getByTestId('room').waitFor();
  await fetch(`${base}/api/rooms/${id}/bots`, { method: 'POST', headers: { Authorization: 'Bearer ' + created.host_token }, body: '{}' });
  const info = await (await fetch(`${base}/api/rooms/${id}`)).json();
  await joiner.waitForTimeout(300); // the joiner is waiting on the room
  const t0 = Date.now();
  await fetch(`${base}/api/rooms/${id}/start`, { method: 'POST', headers: { Authorization: 'Bearer ' + created.host_token } });
  const reached = await Promise.all([joiner, device].map(async (p) => {
    await p.getByTestId('table').waitFor({ timeout: 5000 });
    const ms = Date.now() - t0;
    return { ms, drawn: (await p.evaluate(() => window.__tableAt)) - t0 };
  }));
  // Pushed, not polled: the first answer that told the page of the start
  // is the long poll's. (How soon is logged, not asserted: it is the
  // machine's time; tests/push.mjs measures it.)
  for (const [who, got, { ms, drawn }] of [['the joiner', heard.joiner, reached[0]], ['the table device', heard.device, reached[1]]]) {
    if (typeof info.version === 'number') {
      for (let i = 0; i < 100 && got.some((a) => a.status === undefined); i++) await new Promise((r) => setTimeout(r, 50)); // the bodies being read
      const first = got.find((a) => a.status && a.status !== 'open');
      if (!first) fail(`push: ${who} reached the table with no room answer saying it started: ${JSON.stringify(got)}`);
      if (!first.after) fail(`push: ${who} learnt of the start from a plain GET, not the long poll: ${JSON.stringify(got)}`);
      log(`push: ${who} reached the table on the long poll's answer, ${ms} ms after the start (drawn at ${drawn} ms)`);
    } else log(`push: (the server gives no room version yet: ${who} polled, ${ms} ms)`);
  }
  await host.goto(`${base}/room/${id}`);
  await host.getByTestId('table').waitFor();
  host.on('dialog', (d) => d.accept());
  // a server without the abort answers 404 or 405 (one that has it, 409 for a room that is not running)
  const probe = await fetch(`${base}/api/rooms/${info.next || 'none'}/abort`, { method: 'POST', headers: { Authorization: 'Bearer ' + created.host_token } });
  if (probe.status === 405 || (probe.status === 404 && !(await probe.text()).includes('"code"'))) {
    log('abort: (the server cannot abort a game yet)');
  } else {
    const answer = host.waitForResponse((r) => r.url().endsWith('/abort'));
    await host.getByTestId('host-menu').click(); // the host's weighty controls are folded behind one button
    await host.getByTestId('abort').click();
    const res = await answer;
    if (!res.ok()) fail('abort: the server answered ' + res.status());
    for (const [who, p] of [['host', host], ['joiner', joiner]]) {
      await p.getByTestId('room').waitFor({ timeout: 10000 });
      await p.waitForFunction((n) => document.querySelector('.seat.me .num')?.textContent.trim() === String(n), who === 'host' ? created.seat : join.seat, { timeout: 10000 });
    }
    await device.getByTestId('room').waitFor({ timeout: 10000 });
    const after = await (await fetch(`${base}/api/rooms/${id}`)).json();
    if (after.status !== 'open') fail('abort: the room is ' + after.status);
    log('abort: the host aborted the game; both players are back in the waiting room, in their seats, and the table device with them');
  }
  await ctx.close();
  await other.close();
  await device.context().close();
}

async function playPhone(browser, base) {
  const ctx = await browser.newContext({
    viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: 'en-US',
    reducedMotion: 'reduce',
  });
  const page = await ctx.newPage();
  watch(page, 'phone');
  const id = await createRoom(page, base, { nick: 'Bo', preset: 'std-9', seed: 42, screenshot: false });
  log('phone: room', id);
  // the host moves himself from seat 1 to seat 2 before the game
  await page.getByTestId('fill-bots').click();
  await page.waitForFunction(() => document.querySelectorAll('.seat.empty').length === 0);
  await page.getByTestId('up-2').tap();
  await page.waitForFunction(() => document.querySelector('.seat.me .num')?.textContent.trim() === '2', null, { timeout: 10000 });
  log('phone: the host moved himself to seat 2');
  await closeAndReopen(page, base, id, 9);
  await fillAndStart(page, { screenshot: false });
  await practiceOnTable(page, base, id, 'phone');
  await page.getByTestId('ring').waitFor();
  await nicksWhole(page, 'phone');
  let phoneShot = false;
  let speechShot = false;
  let wordsShot = false;
  let acts = 0;
  let carded = 0;
  page.on('dialog', (d) => d.accept());
  while (!(await page.getByTestId('end').count())) {
    if (Date.now() - started > LIMIT - 30000) fail('phone: the game did not end in time');
    if (!carded && (await page.getByTestId('red-seat').count())) {
      // the host's red card, by day, for a seat that is not his own
      const seats = await page.getByTestId('red-seat').locator('option').evaluateAll((os) => os.map((o) => o.value).filter((v) => v && v !== '2'));
      if (seats.length) {
        carded = Number(seats[seats.length - 1]);
        if (!(await page.getByTestId('red-seat').isVisible())) await page.getByTestId('host-menu').tap();
        await page.getByTestId('red-seat').selectOption(String(carded));
        await page.getByTestId('red-card').tap();
        log('phone: red card for seat', carded);
      }
    }
    if (!speechShot && (await page.getByTestId('speaker').count())) {
      speechShot = true;
      const box = await page.getByTestId('speaker').boundingBox();
      const ring = await page.getByTestId('ring').boundingBox();
      if (!box || !ring || box.y > ring.y + ring.height + 40) fail('phone: the speaker is not shown beside the ring');
      await page.getByTestId('speaker').scrollIntoViewIfNeeded();
      await shot(page, 'phone-speech');
    }
    // the phone's own speech: his words beside the ring, in the picture
    if (!wordsShot && (await page.getByTestId('speech-input').count())) {
      wordsShot = true;
      try {
        await page.getByTestId('speech-input').fill('Seat 3 dodged the vote: watch him.', { timeout: 1500 });
        await page.getByTestId('speech-input').press('Enter', { timeout: 1500 });
        await page.getByTestId('speaker-line').first().waitFor({ timeout: 5000 });
        await page.getByTestId('speaker').scrollIntoViewIfNeeded();
        await page.evaluate(() => window.scrollBy(0, -260));
        await shot(page, 'phone-speech');
        log('phone: his words are beside the ring');
      } catch (err) {
        const left = await page.getByTestId('speech-input').count();
        if (left) fail('phone: his words are not beside the ring during his speech: ' + String(err).split('\n')[0] + ' / ' + (await page.getByTestId('speaker').innerText().catch(() => '')));
        log('phone: (the speech ended before his words were shown)');
      }
    }
    if (!phoneShot && (await page.locator('[data-testid="action-panel"][data-pending="1"] [data-testid^="target-"]').count())) {
      phoneShot = true;
      await shot(page, 'phone');
    }
    if (await act(page, true)) acts++;
    else await page.waitForTimeout(150);
  }
  await page.getByTestId('replay').waitFor({ timeout: 15000 });
  log(`phone: the game is over after ${acts} taps`);
  if (carded) {
    const rep = await (await fetch(`${base}/api/rooms/${id}/replay`)).json();
    if (!rep.events.some((e) => e.kind === 'red_card' && e.seat === carded)) fail(`phone: no red card for seat ${carded} in the replay`);
  }
  if (!phoneShot) await shot(page, 'phone');
  if (!speechShot) fail('phone: no speech was shown beside the ring');
  await page.getByTestId('end').scrollIntoViewIfNeeded();
  await shot(page, 'phone-end');
  // the host opens the rematch: same table, a new deal, his seat kept
  await page.getByTestId('again').tap();
  await page.waitForURL((u) => !u.pathname.endsWith(id));
  await page.getByTestId('room').waitFor();
  await page.waitForFunction(() => document.querySelector('.seat.me .num')?.textContent.trim() === '2', null, { timeout: 10000 });
  log('phone: rematch opened at', page.url().split('/room/')[1], 'with the host in seat 2');
  await ctx.close();
}

try {
  srv = await startServer({ name: 'e2e', log });
  const base = srv.base;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  // a room waiting in the lobby, for the lobby's picture
  await fetch(base + '/api/rooms', { method: 'POST', body: JSON.stringify({ preset: 'std-9', name: 'Friday night', nickname: 'Mei' }) });
  await Promise.all([playDesktop(browser, base), playPhone(browser, base), customBoard(browser, base).then(() => pushAndAbort(browser, base))]);
  if (problems.length) fail('errors in the pages:\n' + problems.join('\n'));
  log('ok');
  console.log('e2e: 1 passed, 0 failed');
} catch (err) {
  console.error('e2e failed:', err && err.stack ? err.stack : err);
  if (problems.length) console.error(problems.join('\n'));
  console.log('e2e: 0 passed, 1 failed');
  process.exitCode = 1;
} finally {
  if (browser) await browser.close().catch(() => {});
  if (srv) await srv.stop();
  cleanup();
}
process.exit(process.exitCode || 0);
