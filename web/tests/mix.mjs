// A mix at one table, in Chromium against the real server: one player joins
// a std-9 room made for a table (card_seen) on his phone and takes seat 1;
// the pass-and-play device (?pass=1, the host's) seats the eight others
// and plays them. docs/table.md promises (2c) that the phone
// keeps its seat and plays it while the device plays only its own:
//
//   - the device's setup, opened before the phone joins, drops the phone's
//     seat when he takes it and offers the eight empty ones;
//   - the phone confirms its card on the phone; the device deals 2..9 only;
//   - night 1: the phone is the seer and checks on the phone (its result
//     shown there, never on the device's public screen); the device's
//     seer call opens nothing to do; its wolves and witch act on it;
//   - day 1: the device's queue never names seat 1 (turns, ballots, the
//     count of hands); the phone's ballot comes from the phone, the
//     device's seats' from the device, and the vote's result holds both.
//
//   node tests/mix.mjs               builds the client and the server first
//   WOLFDEN_BIN=/path/wolfden ...    uses that binary (its embedded client)
//   DEBUG=1 ...                      logs every prompt the device shows
//
// Deterministic: a practice room with a fixed deal and seed. It waits on
// states (what the pages show), never on time.
import { chromium } from 'playwright-core';
import { api, startServer } from './server.mjs';
import { act, playPass } from './lib/pass.mjs';
import { whileHeld } from './lib/phone.mjs';

const LIMIT = Number(process.env.MIX_LIMIT_S || 240) * 1000;
const started = Date.now();
const problems = [];
const log = (...a) => console.log(`[mix ${((Date.now() - started) / 1000).toFixed(1)}s]`, ...a);
function fail(msg) {
  throw new Error(msg);
}
setTimeout(() => {
  console.error(`mix: over ${LIMIT / 1000}s, giving up`);
  process.exit(1);
}, LIMIT).unref();

function watch(page, who) {
  page.on('pageerror', (e) => problems.push(`${who}: page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`${who}: console error: ${m.text()}`);
  });
}

// seat 1 (the phone) the seer; the wolves 2, 5, 8 (the device's) kill the
// villager at 3; the seer checks wolf 2; day 1 exiles 2.
const DEAL = ['seer', 'werewolf', 'villager', 'witch', 'werewolf', 'hunter', 'villager', 'werewolf', 'villager'];
const PHONE = 1;
const CHECK = 2;
const VICTIM = 3;
const EXILE = 2;
// long enough for the device to be handed round its eight seats on a busy machine
const TIMERS = { setup: '5s', night: '16s', witch: '8s', speech: '20s', vote: '40s', other: '10s', bot: '0s' };

// the device's public screen: everything but a player's private screen
const publicText = (page) =>
  page.evaluate(() => {
    const root = document.body.cloneNode(true);
    root.querySelectorAll('[data-testid="pass-private"]').forEach((x) => x.remove());
    return root.innerText;
  });

async function main(base, browser) {
  const made = await api(base, 'POST', '/api/rooms', {
    preset: 'std-9', practice: true, seed: 9, deal: DEAL, card_seen: true, timers: TIMERS,
  });
  const id = made.room.id;
  if (!made.room.card_seen) fail('the room for a table does not wait for the cards');

  // 1. The device (the host's) opens pass-and-play before anyone joins: every seat is offered.
  const devCtx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US', reducedMotion: 'reduce' });
  await devCtx.addInitScript(([room, host]) => localStorage.setItem('wolfden.room.' + room, JSON.stringify({ host })), [id, made.host_token]);
  const dev = await devCtx.newPage();
  watch(dev, 'device');
  await dev.goto(`${base}/room/${id}?pass=1`);
  await dev.getByTestId('pass-setup').waitFor();
  await dev.getByTestId('pass-name-' + PHONE).waitFor();
  const offers = () => dev.locator('[data-testid^="pass-name-"]').evaluateAll((xs) => xs.map((x) => Number(x.dataset.testid.slice(10))));
  if ((await offers()).join() !== '1,2,3,4,5,6,7,8,9') fail('the device\'s setup offers ' + (await offers()).join() + ' of an empty room');

  // 2. The phone joins on its own screen and takes the first empty seat.
  const phoneCtx = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US', reducedMotion: 'reduce', isMobile: true, hasTouch: true });
  const phone = await phoneCtx.newPage();
  watch(phone, 'phone');
  await phone.goto(`${base}/room/${id}`);
  await phone.locator('#join-nick').fill('Pia');
  await phone.getByTestId('join').click();
  await phone.locator(`[data-testid="room-seat-${PHONE}"].me`).waitFor();
  log(`room ${id}: the phone joined as Pia at seat ${PHONE}`);

  // 3. The device's setup, open all along, drops the phone's seat (the room info is pushed).
  await dev.getByTestId('pass-name-' + PHONE).waitFor({ state: 'detached', timeout: 15000 }).catch(() => fail('the device\'s setup still offers seat ' + PHONE + ' after the phone took it'));
  const offered = await offers();
  if (offered.join() !== '2,3,4,5,6,7,8,9') fail('the device offers the seats ' + offered.join() + ' (want 2..9, the phone holds 1)');
  if (await dev.locator(`[data-testid="pass-bot-${PHONE}"]`).count()) fail('the device offers a bot for the phone\'s seat');
  await dev.getByTestId('pass-name-2').fill('Dev');
  await dev.getByTestId('pass-start').click();
  await dev.getByTestId('pass-panel').waitFor({ timeout: 20000 });
  const room = await api(base, 'GET', `/api/rooms/${id}`);
  if (room.seats[0].nick !== 'Pia' || room.seats[1].nick !== 'Dev' || room.seats.some((s) => s.bot || !s.nick)) fail('the seats after the device seated its players: ' + JSON.stringify(room.seats));
  log('the device\'s setup dropped seat 1 when the phone took it, offered 2..9 and seated them');

  // What the phone does, beside the device: it confirms its card, checks
  // at night when its task is real, and votes by day.
  const phoneDid = { seen: false, role: '', check: '', told: '', ballot: '', result: false };
  const phoneSide = (async () => {
    await phone.getByTestId('table').waitFor({ timeout: 20000 });
    // at a table the card shows only while held (as a player holds it)
    phoneDid.role = await whileHeld(phone, () => phone.getByTestId('table').innerText());
    await phone.getByTestId('card-seen-button').click({ timeout: 20000 });
    phoneDid.seen = true;
    log('the phone confirmed its card on the phone');
    // night 1: the seer's real task, on the phone
    await phone.waitForFunction(() => {
      const t = document.querySelector('[data-testid="phone-task"]');
      return t && t.dataset.kind === 'real' && document.querySelector(`[data-testid="action-panel"][data-pending="1"] [data-testid^="target-check-"]`);
    }, null, { timeout: 60000, polling: 100 });
    await phone.getByTestId('target-check-' + CHECK).click();
    await phone.getByTestId('confirm-check').click();
    phoneDid.check = 'check-' + CHECK;
    // the result, on the phone: what the log says of seat 2 once checked
    // the result and the ring's marks are the seer's: shown while he holds his card
    const told = await whileHeld(phone, () => phone.waitForFunction((c) => {
      const txt = document.body.innerText;
      const line = txt.split('\n').find((l) => /check/i.test(l) && new RegExp(`\\b${c}\\b`).test(l) && /wolf/i.test(l));
      return line || null;
    }, CHECK, { timeout: 20000, polling: 100 }).then((h) => h.jsonValue()).catch(() => ''));
    phoneDid.told = told.trim();
    // what the device's whole table sees at that moment, and the phone's own ring
    phoneDid.devAtCheck = await publicText(dev);
    const ringSeat = (page) => page.evaluate((c) => [...document.querySelectorAll(`[data-testid="seat-${c}"]`)].map((b) => (b.closest('.seat') || b).innerText).join(' / '), CHECK);
    phoneDid.phoneRing = await whileHeld(phone, () => ringSeat(phone));
    phoneDid.devRing = await ringSeat(dev);
    if (process.env.DEBUG) log('phone after its check:', (await phone.evaluate(() => document.body.innerText)).replace(/\n+/g, ' | '));
    log(`the phone checked seat ${CHECK}; it reads: "${told}"`);
    // day 1: the phone ends its speech on the phone, then votes there
    for (;;) {
      const h = await phone.waitForFunction((e) => {
        const p = document.querySelector('[data-testid="action-panel"][data-pending="1"]');
        if (!p || !document.querySelector('[data-testid="table"][data-night="0"]')) return null;
        if (p.querySelector(`[data-testid="target-vote-${e}"]:not([disabled])`)) return 'vote';
        return p.querySelector('[data-testid="act-skip"]:not([disabled])') ? 'speech' : null;
      }, EXILE, { timeout: 120000, polling: 100 }).then((x) => x.jsonValue());
      if (h === 'vote') break;
      await phone.locator('[data-testid="action-panel"][data-pending="1"] [data-testid="act-skip"]').click({ timeout: 3000 }).catch(() => {});
      await phone.locator('[data-testid="action-panel"][data-pending="1"] [data-testid="act-skip"]').waitFor({ state: 'detached', timeout: 10000 }).catch(() => {});
      if (!phoneDid.spoke) log('the phone ended its speech on the phone');
      phoneDid.spoke = true;
    }
    await phone.getByTestId('target-vote-' + EXILE).click();
    await phone.getByTestId('confirm-vote').click();
    phoneDid.ballot = 'vote-' + EXILE;
    log(`the phone voted for seat ${EXILE} on the phone`);
    // the vote's result, on the phone: the public event every screen gets
    await phone.locator(`[data-testid="vote-result"] li[data-target="${EXILE}"]`).first().waitFor({ timeout: 120000 });
    // the device's claims board (public; shown by day only, so read now,
    // before night 2 can fall): each seat's last entry, once the phone's
    // ballot is on it
    phoneDid.claims = await dev.waitForFunction(({ p, e }) => {
      const last = {};
      for (const el of document.querySelectorAll('[data-testid^="claims-"] .entries')) {
        last[el.closest('[data-testid^="claims-"]').dataset.testid.split('-')[1]] = [...el.querySelectorAll('.entry')].map((x) => x.textContent).pop() || '';
      }
      return last[p] && last[p].includes(String(e)) ? last : null;
    }, { p: PHONE, e: EXILE }, { timeout: 30000, polling: 100 }).then((h) => h.jsonValue());
    phoneDid.result = true;
  })();
  phoneSide.catch((e) => {
    phoneDid.error = e;
  });

  // 4. The device, from the deal to the end of day 1's vote.
  const ballots = {};
  let seerScreen = '';
  let handsOffered = null;
  const { end, dealt, calls } = await playPass(dev, {
    limit: 180000,
    poll: 2000,
    debug: process.env.DEBUG && ((w) => log('device:', w)),
    stop() {
      if (phoneDid.error) throw phoneDid.error;
      return phoneDid.result;
    },
    async deal(seat) {
      if (seat === PHONE) fail('the device deals the phone\'s seat');
    },
    holders: (who) => DEAL.flatMap((r, i) => ((who === 'wolves' ? r === 'werewolf' : r === who) && i + 1 !== PHONE ? [i + 1] : [])),
    async call({ night, who }, priv) {
      const seat = Number(await priv.getAttribute('data-seat'));
      if (who === 'seer') {
        // the seer is the phone's: the seat tapped at the call is shown nothing to do, and nothing of the check
        seerScreen = await priv.innerText();
        if (!(await priv.getByTestId('pass-nothing').count())) fail(`the device's seer call opened seat ${seat}'s task: ${seerScreen}`);
        return;
      }
      if (seat === PHONE) fail(`the device opened the phone's seat at the ${who}' call`);
      const did = await act(priv, who === 'wolves' ? [VICTIM] : []);
      log(`night ${night}: the ${who} called, seat ${seat} on the device: ${did || 'nothing to do'}`);
    },
    async day(what) {
      if (what.seats.includes(PHONE)) fail('the device\'s day queue names the phone\'s seat: ' + what.seats.join());
      if (!what.hands || handsOffered !== null) return false;
      // the count of hands lists the device's voters only
      await dev.getByTestId('pass-hands').click();
      await dev.getByTestId('pass-hands-count').waitFor();
      handsOffered = [...new Set(await dev.locator('[data-testid^="hand-"]').evaluateAll((bs) => bs.map((b) => Number(b.dataset.testid.split('-')[2]))))].sort();
      await dev.locator('[data-testid="pass-hands-count"] .btn.ghost').click();
      if (handsOffered.includes(PHONE)) fail('the count of hands offers the phone\'s hand: ' + handsOffered.join());
      return true;
    },
    async turn(s, priv) {
      // After the vote, the exiled seat's last words end day 1: the phone
      // reads the claims board (shown by day only) first, or night 2 may
      // fall before it does. The device knows it is past the vote by its own
      // ballots cast and no ballot offered; the phone may not have seen the
      // result yet.
      const lastWords = s === EXILE && Object.keys(ballots).length > 0 && !(await priv.locator('[data-testid^="target-vote-"]').count());
      if (lastWords) {
        while (!phoneDid.result && !phoneDid.error) await new Promise((r) => setTimeout(r, 100));
      }
      const did = await act(priv, s === EXILE ? [4] : [EXILE]);
      if (did.startsWith('target-vote-')) ballots[s] = Number(did.split('-')[2]);
      if (process.env.DEBUG) log(`day: seat ${s} on the device: ${did}`);
    },
  });
  if (end === 'over') fail('the game ended before day 1\'s vote');
  await phoneSide;

  // the deal: the device's seats in turn, never the phone's; the phone confirmed its own
  if (dealt.join() !== '2,3,4,5,6,7,8,9') fail('the device dealt to ' + dealt.join());
  if (!phoneDid.seen) fail('the phone never confirmed its card');
  log('the deal: the phone confirmed seat 1 on the phone, the device dealt 2..9');
  // std-9 calls the night as clubs do (night_order=wolves_first): 狼人 → 女巫 → 预言家
  if (calls.filter((c) => c.startsWith('1:')).join() !== '1:wolves,1:witch,1:seer') fail('night 1 called ' + calls.join());
  if (!/seer/i.test(phoneDid.role)) fail('the phone does not show the seer\'s card');
  if (!phoneDid.told) fail('the phone was not shown its check\'s result');
  if (/werewolf/i.test(seerScreen)) fail('the device\'s seer screen tells a card: ' + seerScreen);
  const pub = await publicText(dev);
  for (const [when, text] of [['when the phone was told', phoneDid.devAtCheck], ['after the vote', pub]]) {
    if (text.includes(phoneDid.told) || /your check/i.test(text)) fail(`the device's public screen shows the phone's check ${when}: "${phoneDid.told}"`);
  }
  if (!/wolf/i.test(phoneDid.phoneRing)) fail(`the phone's ring does not mark seat ${CHECK} checked: "${phoneDid.phoneRing}"`);
  if (/wolf/i.test(phoneDid.devRing)) fail(`the device's ring marks seat ${CHECK} as the phone's check found it: "${phoneDid.devRing}"`);
  log(`night 1: the seer checked on the phone ("${phoneDid.told}"), which the device never showed; the device's seer call showed nothing to do`);

  // day 1's result: the phone's ballot and the device's, on both screens
  // the phone's table shows the last vote (its first vote-result; the log holds another)
  const onPhone = await phone.locator('[data-testid="vote-result"]').first().evaluate((v, e) => [...v.querySelectorAll(`li[data-target="${e}"] .chip`)].map((c) => Number(c.textContent)).sort((a, b) => a - b), EXILE);
  const want = [PHONE, ...Object.entries(ballots).filter(([, t]) => t === EXILE).map(([s]) => Number(s))].sort((a, b) => a - b);
  if (!Object.keys(ballots).length) fail('the device cast no ballot');
  if (Object.keys(ballots).map(Number).includes(PHONE)) fail('the device cast the phone\'s ballot');
  if (onPhone.join() !== want.join()) fail(`the votes for seat ${EXILE}: the phone shows ${onPhone.join()}, want ${want.join()}`);
  // the device's claims board (public) holds the phone's ballot as it holds its own seats'
  const viaDev = Number(Object.entries(ballots).find(([, t]) => t === EXILE)[0]);
  const [mine, theirs] = [phoneDid.claims[PHONE], phoneDid.claims[viaDev]];
  if (!mine || mine !== theirs) fail(`the device's claims board: seat ${PHONE}'s last entry "${mine}", seat ${viaDev}'s "${theirs}" (both voted ${EXILE})`);
  log(`day 1: seat ${EXILE} voted out by ${want.join(',')} (the phone's ballot from the phone, ${Object.keys(ballots).join(',')} on the device; claims board: "${mine}"); the count of hands offered ${handsOffered ? handsOffered.join(',') : '(not shown)'}`);
  await api(base, 'POST', `/api/rooms/${id}/abort`, undefined, made.host_token).catch(() => {});
}

const srv = await startServer({ name: 'mix', log });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--autoplay-policy=no-user-gesture-required'],
});
let code = 0;
try {
  await main(srv.base, browser);
  if (problems.length) fail('errors in the pages:\n' + problems.join('\n'));
  log('ok');
} catch (e) {
  console.error('mix: FAIL:', e.message);
  if (problems.length) console.error(problems.join('\n'));
  code = 1;
} finally {
  await browser.close().catch(() => {});
  await srv.stop();
}
process.exit(code);
