// Secrets at a pass-and-play table (issue 23), in Chromium against the real
// server, on one std-9 game whose host holds seat 1 and whose seer is a bot:
//
//   1. Back, or the room's URL without ?pass=1, shows the device's shared
//      screen, never the host's own seat (his card, his action panel);
//   4. opening the call of the bot's role (the seer) shows what opening a
//      human's call (the witch's) shows, up to the seat the called player
//      taps himself: the same "tap your own seat", and for a seat not
//      called the same "nothing to do";
//   dark: at night every screen of the device — the shared one, the call's
//      "tap your own seat", a called role's own screen, a bot's call — has
//      a background of relative luminance (WCAG) under 0.1;
//   the speaker's screen is a clock and one large "I'm done" that ends the
//   speech at once; the host frees the seat he took, to play none.
//
//   node tests/passsecrets.mjs       builds the client and the server first
//   WOLFDEN_BIN=/path/wolfden ...    uses that binary (its embedded client)
//   SCREENSHOTS=1 ...                writes docs/screenshots/pass-night.png (a call opened: "tap your own seat")
//
// Deterministic: a practice room with a fixed deal and seed. It waits on
// states, never on time.
import { chromium } from 'playwright-core';
import path from 'node:path';
import { api, repo, startServer } from './server.mjs';
import { act } from './lib/pass.mjs';

const LIMIT = Number(process.env.SECRETS_LIMIT_S || 240) * 1000;
const started = Date.now();
const problems = [];
const log = (...a) => console.log(`[passsecrets ${((Date.now() - started) / 1000).toFixed(1)}s]`, ...a);
function fail(msg) {
  throw new Error(msg);
}
setTimeout(() => {
  console.error(`passsecrets: over ${LIMIT / 1000}s, giving up`);
  process.exit(1);
}, LIMIT).unref();

// seat 1 the host (a villager), seat 3 the seer (a bot), seat 4 the witch
const DEAL = ['villager', 'werewolf', 'seer', 'witch', 'werewolf', 'hunter', 'villager', 'werewolf', 'villager'];
const BOT = 3;
const WITCH = 4;
const HOST = 1;
// a speech lasts ten minutes: it ends at once only by its "I'm done"
const TIMERS = { setup: '5s', night: '20s', witch: '20s', speech: '10m', vote: '40s', other: '10s', bot: '0s' };

// luminance: the WCAG relative luminance of an element's computed
// background, the first one not transparent from it up to the page.
async function luminance(page, sel) {
  return page.evaluate((sel) => {
    let el = document.querySelector(sel);
    if (!el) return null;
    let bg = '';
    for (; el; el = el.parentElement) {
      bg = getComputedStyle(el).backgroundColor;
      const m = /rgba?\(([^)]+)\)/.exec(bg);
      if (m && (m[1].split(',').length < 4 || Number(m[1].split(',')[3]) > 0)) break;
    }
    if (!el) bg = getComputedStyle(document.documentElement).backgroundColor || 'rgb(255,255,255)';
    const [r, g, b] = /rgba?\(([^)]+)\)/.exec(bg)[1].split(',').slice(0, 3).map((x) => Number(x) / 255);
    const lin = (c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  }, sel);
}

async function dark(page, sel, what) {
  const l = await luminance(page, sel);
  if (l === null) fail(`dark: ${what} (${sel}) is not on the page`);
  if (!(l < 0.1)) fail(`dark: ${what} has a background of relative luminance ${l.toFixed(3)} at night`);
  log(`dark: ${what}: luminance ${l.toFixed(3)}`);
}

// The device shows its shared screen and nothing of a seat outside a
// private screen: no role card, no action panel, no seat's table.
async function sharedOnly(page, how) {
  await page.getByTestId('pass-panel').waitFor({ timeout: 15000 }).catch(() => {});
  const r = await page.evaluate(() => {
    const root = document.body.cloneNode(true);
    root.querySelectorAll('[data-testid="pass-private"]').forEach((x) => x.remove());
    const q = (s) => root.querySelectorAll(s).length;
    return {
      panel: q('[data-testid="pass-panel"]'),
      card: q('[data-testid="role-card"], [data-testid="my-role"], [data-testid="card-seen-button"]'),
      actions: q('[data-testid="action-panel"]'),
      table: q('[data-testid="table"]'),
      where: [...root.querySelectorAll('[data-testid="role-card"], [data-testid="my-role"], [data-testid="card-seen-button"]')].map((x) => {
        const up = [];
        for (let e = x; e && e !== root; e = e.parentElement) up.push(e.dataset.testid || e.className);
        return up.join(' < ');
      }),
    };
  });
  if (!r.panel || r.card || r.actions || r.table) fail(`${how}: the device shows a seat outside the private screens: ${JSON.stringify(r)} (${page.url()})`);
  log(`${how}: the shared pass-and-play screen, no seat shown`);
}

// privateText is what a private screen says, its one changing part (a
// clock) aside.
const privateText = (page) => page.getByTestId('pass-private').innerText({ timeout: 5000 });

async function main() {
  const srv = await startServer({ name: 'passsecrets', log });
  const base = srv.base;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--autoplay-policy=no-user-gesture-required'],
  });
  try {
    // the host makes the room and takes seat 1, as the create page does by default
    const made = await api(base, 'POST', '/api/rooms', {
      preset: 'std-9', practice: true, seed: 9, deal: DEAL, card_seen: true, timers: TIMERS, nickname: 'Host', options: { sheriff: 'none' },
    });
    const id = made.room.id;
    if (made.seat !== HOST) fail('the host was seated at ' + made.seat);
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US', reducedMotion: 'reduce' });
    await ctx.addInitScript(([room, auth]) => {
      if (!localStorage.getItem('wolfden.room.' + room)) localStorage.setItem('wolfden.room.' + room, JSON.stringify(auth));
    }, [id, { host: made.host_token, token: made.token, seat: made.seat, nick: 'Host' }]);
    const page = await ctx.newPage();
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));

    // the waiting room, then the pass-and-play set-up: the seer's seat a bot
    await page.goto(`${base}/room/${id}`);
    await page.getByTestId('use-pass').click();
    await page.getByTestId('pass-setup').waitFor();
    await page.getByTestId('pass-bot-' + BOT).check();
    await page.getByTestId('pass-start').click();
    await page.getByTestId('pass-panel').waitFor({ timeout: 20000 });
    log(`room ${id}: the host at seat ${HOST}, a bot at seat ${BOT}, the others on the device`);

    // 1. Back, and the room's URL without ?pass=1
    await page.goBack();
    await page.waitForURL((u) => u.search === '', { timeout: 5000 });
    await sharedOnly(page, 'Back');
    await page.goto(`${base}/room/${id}`);
    await sharedOnly(page, 'the room\'s URL without ?pass=1');

    // the deal, every seat of the device in turn
    for (;;) {
      const what = await page.waitForFunction(() => {
        if (document.querySelector('[data-testid="pass-call"]')) return 'call';
        if (document.querySelector('[data-testid="pass-see"]')) return 'deal';
        return null;
      }, null, { timeout: 30000, polling: 100 }).then((h) => h.jsonValue());
      if (what === 'call') break;
      await page.getByTestId('pass-see').click();
      await page.getByTestId('pass-seen').click();
    }

    // night 1: every call as it comes, until the seer's and the witch's were compared
    const picker = {}; // who -> the text of "tap your own seat"
    const nothing = {}; // who -> the text of the screen of seat 1 (not called)
    const done = new Set();
    let sharedDark = false;
    while (!(picker.seer && picker.witch && done.has('witch-own'))) {
      const who = await page.waitForFunction((seen) => {
        const c = document.querySelector('[data-testid="pass-call"]');
        return c && !seen.includes(c.dataset.who) ? c.dataset.who : null;
      }, [...done], { timeout: 60000, polling: 100 }).then((h) => h.jsonValue());
      if (!sharedDark) {
        await dark(page, '[data-testid="pass-panel"]', 'the shared screen at a call');
        await dark(page, '[data-testid="table-device"]', 'the device');
        sharedDark = true;
      }
      done.add(who);
      await page.getByTestId('pass-open').click();
      await page.getByTestId('pass-pick').waitFor({ timeout: 5000 });
      if (who === 'seer' || who === 'witch') {
        picker[who] = await privateText(page);
        await dark(page, '[data-testid="pass-private"]', `the "tap your own seat" screen of the ${who}'s call${who === 'seer' ? ' (a bot\'s)' : ''}`);
        if (process.env.SCREENSHOTS && who === 'witch') await page.screenshot({ path: path.join(repo, 'docs', 'screenshots', 'pass-night.png') });
        await page.getByTestId('pass-me-' + HOST).click();
        await page.locator('[data-testid="pass-private"][data-mode="night"]').waitFor({ timeout: 5000 });
        nothing[who] = await privateText(page);
        await dark(page, '[data-testid="pass-private"]', `seat ${HOST}'s screen at the ${who}'s call`);
        await page.getByTestId('pass-close').click();
        if (who === 'witch') {
          // the witch herself opens the call again and taps her own seat
          await page.getByTestId('pass-open').click();
          await page.getByTestId('pass-me-' + WITCH).click();
          const own = page.locator('[data-testid="pass-private"][data-mode="night"]');
          await own.waitFor({ timeout: 5000 });
          await own.locator('[data-testid="action-panel"][data-pending="1"]').waitFor({ timeout: 10000 }).catch(() => fail('the witch\'s own screen has nothing to do: ' + own.innerText()));
          await dark(page, '[data-testid="pass-private"]', 'the witch\'s own screen');
          await act(own, []);
          await page.getByTestId('pass-close').click().catch(() => {});
          done.add('witch-own');
        }
      } else {
        // the wolves: seat 2 taps his seat and picks the villager at 7
        await page.getByTestId('pass-me-2').click();
        const own = page.locator('[data-testid="pass-private"][data-mode="night"]');
        await own.waitFor({ timeout: 5000 });
        await act(own, [7]);
        await page.getByTestId('pass-close').click().catch(() => {});
      }
      log(`night 1: the ${who} called and answered`);
    }

    // 4. the bot's call and the human's read the same up to the seat tapped
    if (picker.seer !== picker.witch) fail(`the seer's call (a bot's) and the witch's (a person's) open differently:\n${picker.seer}\n---\n${picker.witch}`);
    if (nothing.seer !== nothing.witch) fail(`seat ${HOST} at the seer's call (a bot's) and at the witch's read differently:\n${nothing.seer}\n---\n${nothing.witch}`);
    if (/seer|witch|bot/i.test(picker.seer + nothing.seer)) fail('a call\'s screen names a role or a bot: ' + picker.seer + ' / ' + nothing.seer);
    log(`the bot's call and the witch's: the same "${picker.seer.replace(/\n/g, ' | ')}", then the same "${nothing.seer.replace(/\n/g, ' | ')}"`);

    // 1, again by night: the room's URL without ?pass=1 opens no seat
    await page.goto(`${base}/room/${id}`);
    await sharedOnly(page, 'the room\'s URL without ?pass=1, by night');

    // day 1: the speaker's screen is a clock and one large "I'm done", which ends the speech at once
    // (the turns before the first speech, a dying seat's skill window, passed as they come)
    let speaker = 0;
    let clock = '';
    for (let turns = 0; !speaker; turns++) {
      if (turns > 12) fail('no speech on the device by day 1');
      const btn = await page.waitForSelector('[data-testid^="pass-seat-"]', { timeout: 90000 });
      const seat = Number((await btn.getAttribute('data-testid')).slice(10));
      await btn.click().catch(() => {});
      const priv = page.getByTestId('pass-private');
      // the step may move on under the tap (the screen then closes): look again
      if (!(await priv.waitFor({ timeout: 5000 }).then(() => true, () => false))) continue;
      if (!(await page.getByTestId('pass-speech').count())) {
        await act(priv, []);
        await page.getByTestId('pass-close').click({ timeout: 3000 }).catch(() => {});
        await page.waitForFunction((s) => !document.querySelector(`[data-testid="pass-seat-${s}"]`) || !document.querySelector('[data-testid="pass-private"]'), seat, { timeout: 60000, polling: 100 });
        continue;
      }
      clock = await page.getByTestId('pass-speech-clock').innerText();
      if (!/^\d+:\d\d$/.test(clock.trim())) fail('the speech\'s clock reads ' + clock);
      await page.getByTestId('pass-speech-done').click();
      await page.waitForFunction((s) => !document.querySelector(`[data-testid="pass-seat-${s}"]`) && !document.querySelector('[data-testid="pass-private"]'), seat, { timeout: 60000, polling: 100 })
        .catch(() => fail(`seat ${seat}'s speech did not end on "I'm done"`));
      speaker = seat;
    }
    log(`day 1: seat ${speaker}'s speech (clock ${clock}) ended on "I'm done"`);
    await ctx.close();

    // the host need not play: he frees the seat he took when he made the room
    const other = await api(base, 'POST', '/api/rooms', { preset: 'std-9', card_seen: true, nickname: 'Host' });
    const ctx2 = await browser.newContext({ locale: 'en-US' });
    await ctx2.addInitScript(([room, auth]) => {
      if (!localStorage.getItem('wolfden.room.' + room)) localStorage.setItem('wolfden.room.' + room, JSON.stringify(auth));
    }, [other.room.id, { host: other.host_token, token: other.token, seat: other.seat, nick: 'Host' }]);
    const p2 = await ctx2.newPage();
    await p2.goto(`${base}/room/${other.room.id}?pass=1`);
    await p2.getByTestId('pass-free-mine').click();
    await p2.getByTestId('pass-name-1').waitFor({ timeout: 10000 });
    const after = await api(base, 'GET', `/api/rooms/${other.room.id}`);
    if (after.seats[0].nick) fail('the host\'s seat is still taken: ' + JSON.stringify(after.seats[0]));
    log('the host freed his seat: seat 1 is offered for a player\'s name');
    await ctx2.close();
  } finally {
    await browser.close().catch(() => {});
  }
  if (problems.length) fail('errors in the page:\n' + problems.join('\n'));
  await srv.stop();
  log('ok');
}

main()
  .then(() => process.exit(0))
  .catch((e) => {
    console.error('passsecrets: FAIL:', e.message);
    process.exit(1);
  });
