// Driving a pass-and-play device (?pass=1) through its prompts, for the
// browser tests that hand one page round a table (table.mjs, mix.mjs). The
// device shows one prompt at a time: a seat to deal to, a night's call, the
// seats awaited by day (or the count of raised hands), a seat's own screen,
// the end. playPass answers each as the test's handlers say; what is the
// same in every test (the deal's taps, opening a call once, a seat's
// screen closed after its move) is done here.

// act plays the pending action panel inside scope: the first target of
// `prefer` that is offered, else (with first) the first target offered,
// and its confirmation; else a pass (skip, abstain, the end of a speech).
// It returns what it pressed (a data-testid), or '' if nothing was pending
// or the step moved on under a click (the panel redrawn): the loop looks
// again.
export async function act(scope, prefer = [], { first = false } = {}) {
  return actOnce(scope, prefer, first).catch(() => '');
}

async function actOnce(scope, prefer, first) {
  // a speech on a pass-and-play screen: one large "I'm done"
  const done = scope.locator('[data-testid="pass-speech-done"]');
  if (await done.count()) {
    await done.click({ timeout: 3000 });
    return 'pass-speech-done';
  }
  const panel = scope.locator('[data-testid="action-panel"][data-pending="1"]');
  if ((await panel.count()) === 0) return '';
  const targets = [...prefer.map((n) => `button[data-testid^="target-"][data-testid$="-${n}"]:not([disabled])`)];
  if (first) targets.push('button[data-testid^="target-"]:not([disabled])');
  for (const sel of targets) {
    const t = panel.locator(sel).first();
    if (await t.count()) {
      const id = await t.getAttribute('data-testid');
      if ((await t.getAttribute('aria-pressed')) !== 'true') await t.click({ timeout: 3000 });
      await panel.locator('button[data-testid^="confirm-"]:not([disabled])').first().click({ timeout: 3000 });
      return id;
    }
  }
  for (const sel of ['[data-testid="act-skip"]', '[data-testid="act-abstain"]', '[data-testid^="act-"]:not([data-testid="act-explode"])']) {
    const b = panel.locator(sel).first();
    if (await b.count()) {
      const id = await b.getAttribute('data-testid');
      await b.click({ timeout: 3000 });
      return id;
    }
  }
  return '';
}

// closePrivate closes a seat's screen if it is still open: a night call's
// closes by itself when the call ends, and a click on a button gone waits
// its whole timeout.
export async function closePrivate(page) {
  const close = page.locator('[data-testid="pass-private"] [data-testid="pass-close"]');
  if (await close.count()) await close.click({ timeout: 3000 }).catch(() => {});
}

// pickSeat answers a call's "tap your own seat" (it shows the same
// whoever holds the role): the first of seats that is alive on the
// device's ring, else the first seat offered (a dead or absent holder:
// "nothing to do"). It returns the seat tapped.
export async function pickSeat(page, seats = []) {
  const pick = page.getByTestId('pass-pick');
  await pick.waitFor({ timeout: 5000 });
  const dead = new Set(await page.$$eval('[data-testid="table-device"] .seat.dead [data-testid^="seat-"]', (b) => b.map((x) => Number(x.dataset.testid.slice(5)))));
  const offered = await pick.locator('[data-testid^="pass-me-"]').evaluateAll((b) => b.map((x) => Number(x.dataset.testid.slice(8))));
  const seat = seats.find((s) => offered.includes(s) && !dead.has(s)) || offered[0];
  await page.getByTestId('pass-me-' + seat).click();
  return seat;
}

// prompt reads what the device asks now: {over}, {private} (a seat's
// screen left open), {deal: seat}, {call, night}, {seats: [...], hands}
// (the seats awaited by day, and whether the count of hands is offered),
// or null while it shows none.
function prompt() {
  const q = (s) => document.querySelector(s);
  if (q('[data-testid="pass-over"]')) return { over: true };
  if (q('[data-testid="pass-private"]')) return { private: true };
  const see = q('[data-testid="pass-deal"]');
  if (see && q('[data-testid="pass-see"]')) return { deal: Number(see.dataset.seat) };
  const call = q('[data-testid="pass-call"]');
  if (call) return { call: call.dataset.who, night: Number(call.dataset.night) };
  const hands = !!q('[data-testid="pass-hands"]');
  const seats = [...document.querySelectorAll('[data-testid^="pass-seat-"]')].map((b) => Number(b.dataset.testid.slice(10)));
  if (seats.length || hands) return { seats, hands };
  return null;
}

// playPass answers the device's prompts until the end (it returns 'over')
// or until stop() says so ('stopped'), within limit ms (else it throws,
// naming what it did). The handlers, each optional:
//
//   deal(seat, priv)             the seat's card is shown (after its tap)
//   call({night, who}, priv)     a night's call, opened once: priv is the
//                                screen of the seat tapped (holders)
//   holders(who)                 the seats that may hold the role called
//                                (the first alive is tapped), else none
//   day({seats, hands})          the seats awaited by day: true when it
//                                handled the prompt (a count of hands)
//   turn(seat, priv)             the first seat awaited, his screen open
//
// poll is how long one look waits for a prompt before stop() is asked.
// It returns {end, dealt, calls} (the seats dealt to in order, the calls
// as "night:who").
export async function playPass(page, { limit, poll = 120000, stop = () => false, deal, call, holders = () => [], day, turn, debug }) {
  const dealt = [];
  const calls = [];
  const handled = new Set();
  const until = Date.now() + limit;
  for (;;) {
    if (Date.now() > until) throw new Error(`pass-and-play: no end after ${limit / 1000} s (dealt ${dealt.join()}, calls ${calls.join(' ')})`);
    const what = (await page.waitForFunction(prompt, null, { timeout: poll, polling: 100 }).then((h) => h.jsonValue()).catch(() => null)) || {};
    if (stop()) return { end: 'stopped', dealt, calls };
    if (debug && Object.keys(what).length) debug(JSON.stringify(what));
    if (what.over) return { end: 'over', dealt, calls };
    if (what.private) {
      // a screen left open (the step moved on under it): close it
      await page.locator('[data-testid="pass-close"], [data-testid="pass-seen"]').first().click({ timeout: 2000 }).catch(() => {});
      continue;
    }
    if (what.deal) {
      await page.getByTestId('pass-see').click();
      const priv = page.getByTestId('pass-private');
      const shown = Number(await priv.getAttribute('data-seat'));
      if (shown !== what.deal) throw new Error(`pass-and-play: the deal called seat ${what.deal} and showed seat ${shown}'s card`);
      if (deal) await deal(what.deal, priv);
      await page.getByTestId('pass-seen').click();
      dealt.push(what.deal);
      continue;
    }
    if (what.call) {
      const key = `${what.night}:${what.call}`;
      if (handled.has(key)) {
        // answered: wait for the next call
        await page.waitForFunction((k) => {
          const c = document.querySelector('[data-testid="pass-call"]');
          return !c || `${c.dataset.night}:${c.dataset.who}` !== k;
        }, key, { timeout: 60000, polling: 100 });
        continue;
      }
      handled.add(key);
      calls.push(key);
      await page.getByTestId('pass-open').click();
      await pickSeat(page, holders(what.call));
      const priv = page.locator('[data-testid="pass-private"][data-mode="night"]');
      await priv.waitFor({ timeout: 5000 });
      if (call) await call({ night: what.night, who: what.call }, priv);
      await closePrivate(page);
      continue;
    }
    if (what.seats) {
      if (day && (await day(what))) continue;
      const s = what.seats[0];
      if (!s) continue;
      await page.getByTestId('pass-seat-' + s).click({ timeout: 3000 }).catch(() => {});
      const priv = page.getByTestId('pass-private');
      if (await priv.isVisible().catch(() => false)) {
        if (turn) await turn(s, priv);
        await closePrivate(page);
      }
    }
  }
}
