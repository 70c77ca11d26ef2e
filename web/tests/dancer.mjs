// The dancer (舞者) through a real server in Chromium: a practice room on
// std-12-masquerade (假面舞会) with a fixed seed and deal that give the one
// human seat the dancer, bots on every other seat. The human passes what
// the day asks (no sheriff run, no vote), and on night 2 makes the dance's
// three-seat pick through the action panel:
//
//   - two seats tapped: the confirm stays disabled and the line under the
//     seats says how many are still missing;
//   - three: the confirm is enabled and the line is gone;
//   - a fourth: it is not taken (not pressed), and the line says no more fit;
//   - confirmed: the seat is told its dance alone (a private `dance` event,
//     its log line marked private), and the game goes on to night 2's dawn.
//
//   node tests/dancer.mjs            builds the client and the server first
//   WOLFDEN_BIN=/path/wolfden ...    uses that binary (its embedded client)
//   CHROMIUM=/path/chromium ...      another Chromium than /usr/bin/chromium
//
// Deterministic: the seed and the deal fix the bots' moves; the human's
// moves are the test's. It waits on the page's states and frames, never on
// time. Exits non-zero on any failure.
import { chromium } from 'playwright-core';
import { api, startServer } from './server.mjs';

const LIMIT = Number(process.env.DANCER_LIMIT_S || 180) * 1000;
const started = Date.now();
const log = (...a) => console.log(`[dancer ${((Date.now() - started) / 1000).toFixed(1)}s]`, ...a);
const problems = [];

function fail(msg) {
  throw new Error(msg);
}

// The limit counts from the server's start (a build before it is not the game's).
let since = started;
function watchdog() {
  since = Date.now();
  setTimeout(() => {
    console.error(`dancer: over ${LIMIT / 1000}s, giving up`);
    process.exit(1);
  }, LIMIT).unref();
}

// Seat 1, the human, is the dancer; the masquerade is a bot (seat 12).
const DEAL = ['dancer', 'villager', 'seer', 'witch', 'idiot', 'villager', 'werewolf', 'villager', 'werewolf', 'villager', 'werewolf', 'masquerade'];
const SEED = 28;
// Short: the bots act at once; the human's pick must land in night 2's
// slot (the night timer), the rest he ends himself.
const TIMERS = { setup: '3s', night: '15s', witch: '3s', speech: '20s', vote: '15s', other: '5s', bot: '0s' };
const VIEW = { viewport: { width: 1280, height: 900 }, locale: 'en-US', reducedMotion: 'reduce' };

// openSeat opens the seat's page with its token, reading its WebSocket
// frames as they come (its events, its last state).
async function openSeat(browser, base, id, { seat, token, nick }) {
  const ctx = await browser.newContext(VIEW);
  await ctx.addInitScript(([key, value]) => {
    if (!localStorage.getItem(key)) localStorage.setItem(key, JSON.stringify({ ...value, at: Date.now() }));
  }, ['wolfden.room.' + id, { token, seat, nick }]);
  const page = await ctx.newPage();
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
  const p = { seat, page, events: [], state: null };
  page.on('websocket', (ws) => {
    ws.on('framereceived', ({ payload }) => {
      for (const line of String(payload).split('\n')) {
        let f;
        try {
          f = JSON.parse(line);
        } catch {
          continue;
        }
        if (f.type === 'event') p.events.push(f);
        else if (f.type === 'state') p.state = f;
      }
    });
  });
  await page.goto(`${base}/room/${id}`);
  await page.getByTestId('room').waitFor({ timeout: 15000 });
  return p;
}

const panel = (page) => page.locator('[data-testid="action-panel"][data-pending="1"]');

// pass answers a pending panel that is not the dance: the pass (skip,
// abstain) and nothing else; it waits for the answer (the buttons enabled
// again, or the panel gone).
async function pass(page) {
  const b = panel(page).locator('[data-testid="act-skip"]:not([disabled]), [data-testid="act-abstain"]:not([disabled])').first();
  if (!(await b.count())) return false;
  await b.click({ timeout: 5000 }).catch(() => {});
  await page.waitForFunction(() => !document.querySelector('[data-testid="action-panel"][data-pending="1"] button[data-testid^="act-"][disabled]'), null, { timeout: 10000 }).catch(() => {});
  return true;
}

const pressed = (page, s) => page.getByTestId('target-dance-' + s).getAttribute('aria-pressed');
const hint = (page) => page.getByTestId('multi-hint-dance').innerText({ timeout: 3000 }).catch(() => '');
const confirmEnabled = (page) => page.getByTestId('confirm-dance').isEnabled();

// dance makes the three-seat pick through the panel, checking the line
// under the seats at each tap; it returns the seats danced.
async function dance(p) {
  const { page } = p;
  const group = panel(page).locator('[data-testid="action-dance"]');
  const offered = await group.locator('button[data-testid^="target-dance-"]').evaluateAll((bs) => bs.map((b) => Number(b.dataset.testid.split('-')[2])));
  if (!offered.includes(p.seat)) fail(`the dance does not offer the dancer himself: ${offered.join()}`);
  const others = offered.filter((s) => s !== p.seat);
  if (others.length < 3) fail(`the dance offers only ${offered.join()}`);
  const three = [p.seat, others[0], others[1]];
  const fourth = others[2];
  await page.getByTestId('target-dance-' + three[0]).click();
  await page.getByTestId('target-dance-' + three[1]).click();
  if (await confirmEnabled(page)) fail('the dance can be confirmed with two seats');
  const two = await hint(page);
  if (!/exactly 3 seats: 2 chosen/i.test(two)) fail(`with two seats the line says "${two}"`);
  await page.getByTestId('target-dance-' + three[2]).click();
  if (!(await confirmEnabled(page))) fail('the dance cannot be confirmed with three seats');
  if (await page.getByTestId('multi-hint-dance').count()) fail(`with three seats a line remains: "${await hint(page)}"`);
  await page.getByTestId('target-dance-' + fourth).click();
  if ((await pressed(page, fourth)) === 'true') fail(`a fourth seat (${fourth}) was taken`);
  const over = await hint(page);
  if (!/no more than 3/i.test(over)) fail(`after a fourth tap the line says "${over}"`);
  for (const s of three) if ((await pressed(page, s)) !== 'true') fail(`seat ${s} is no longer picked after the fourth tap`);
  log(`night 2: two seats: "${two}"; a fourth (${fourth}): "${over}"`);
  const label = (await page.getByTestId('confirm-dance').innerText()).trim();
  await page.getByTestId('confirm-dance').click();
  log(`night 2: the dancer confirms "${label}"`);
  return [...three].sort((a, b) => a - b);
}

async function main(base, browser) {
  const made = await api(base, 'POST', '/api/rooms', { name: 'dancer', preset: 'std-12-masquerade', practice: true, seed: SEED, deal: DEAL, timers: TIMERS, nickname: 'Alice' });
  const id = made.room.id;
  const me = await openSeat(browser, base, id, { seat: made.seat, token: made.token, nick: 'Alice' });
  if (made.seat !== 1) fail(`the host sits at seat ${made.seat}, not 1`);
  await api(base, 'POST', `/api/rooms/${id}/bots`, {}, made.host_token);
  await me.page.waitForFunction(() => document.querySelectorAll('.seat.empty').length === 0, null, { timeout: 10000 });
  await api(base, 'POST', `/api/rooms/${id}/start`, undefined, made.host_token);
  const role = (await me.page.getByTestId('my-role').innerText({ timeout: 30000 })).trim();
  if (!/dancer/i.test(role)) fail(`seat 1 shows the card "${role}", not the dancer`);
  log(`room ${id} (std-12-masquerade, seed ${SEED}) started; seat 1 is the dancer, bots on the 11 others`);

  // Until night 2's dance: pass what the day asks; the dancer has nothing to
  // do on night 1 (he dances from night 2).
  let danced = null;
  for (;;) {
    if (Date.now() - since > LIMIT - 20000) fail('night 2 never asked for the dance');
    const h = await me.page.waitForFunction(() => {
      if (document.querySelector('[data-testid="end"]')) return 'end';
      const p = document.querySelector('[data-testid="action-panel"][data-pending="1"]');
      if (!p) return null;
      if (p.querySelector('[data-testid="action-dance"]')) return 'dance';
      return p.querySelector('button[data-testid^="act-"]:not([disabled])') ? 'pass' : null;
    }, null, { polling: 100, timeout: 60000 }).then((x) => x.jsonValue()).catch(() => null);
    if (h === 'end') fail('the game ended before night 2\'s dance');
    if (h === 'dance') {
      const night = me.events.filter((e) => e.kind === 'night').pop();
      if (!night || night.value !== 2) fail(`the dance was asked on night ${night && night.value}`);
      danced = await dance(me);
      break;
    }
    if (h === 'pass') await pass(me.page);
  }

  // The dance is told to the dancer alone, as he chose it: a private event
  // and its log line, marked private.
  const told = await me.page.waitForFunction(() => {
    const li = [...document.querySelectorAll('[data-testid="log"] li')].find((x) => /dance/i.test(x.textContent) && /seats/i.test(x.textContent));
    return li ? { text: li.textContent.replace(/\s+/g, ' ').trim(), secret: li.classList.contains('secret') } : null;
  }, null, { polling: 100, timeout: 15000 }).then((x) => x.jsonValue()).catch(() => null);
  if (!told) fail('the dancer\'s log shows no dance');
  if (!told.secret) fail(`the dance's log line is not marked private: "${told.text}"`);
  const ev = me.events.find((e) => e.kind === 'dance');
  if (!ev || (ev.mask || []).join() !== danced.join()) fail(`the dance event: ${JSON.stringify(ev)}; the pick was ${danced.join()}`);
  log(`the dancer was told "${told.text}"`);

  // The game goes on to night 2's dawn (the masquerade's step comes between).
  await me.page.waitForFunction(() => {
    const m = /Day (\d+)/.exec(document.querySelector('[data-testid="phase"]')?.textContent || '');
    return (m && Number(m[1]) >= 2) || !!document.querySelector('[data-testid="end"]');
  }, null, { polling: 200, timeout: 60000 }).catch(() => fail('night 2 did not reach its dawn'));
  const day = me.events.find((e) => e.kind === 'day' && e.value === 2);
  const dawn = me.events.filter((e) => e.kind === 'dawn').pop();
  if (!day || !dawn) fail(`no day 2 and dawn among the dancer's events: ${me.events.slice(-8).map((e) => e.kind).join(' ')}`);
  const refused = await me.page.locator('[data-testid="action-panel"] [role="alert"]').count();
  if (refused) fail('the server refused a move: ' + (await me.page.locator('[data-testid="action-panel"] [role="alert"]').innerText()));
  log(`day 2: the dawn names ${JSON.stringify(dawn.mask || [])}`);
  await api(base, 'POST', `/api/rooms/${id}/abort`, undefined, made.host_token).catch(() => {});
}

const srv = await startServer({ name: 'dancer', log });
watchdog();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
let code = 0;
try {
  await main(srv.base, browser);
  if (problems.length) fail('errors in the page:\n' + problems.join('\n'));
  log('ok');
} catch (e) {
  console.error('dancer: FAIL:', e.message);
  if (problems.length) console.error(problems.join('\n'));
  code = 1;
} finally {
  await browser.close().catch(() => {});
  await srv.stop();
}
process.exit(code);
