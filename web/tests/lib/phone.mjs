// A phone at a table, for the browser tests of issue 16 (phones.mjs,
// phonegame.mjs): a touch page of a phone's size whose vibration and screen
// wake lock are recorded (the headless browser has neither), whose
// WebSocket frames are kept (what it sent, its size, and the server's
// acknowledgements), and the steps every phone test takes with it: join a
// room, wait for a night task of a slot, answer a decoy.

// The phone's screen: 390×844, touch, no animations.
export const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, reducedMotion: 'reduce' };

// fakeDevice runs in the page before its scripts: it records the vibrations
// (window.__buzz, __buzzAt) and the screen wake lock requests (__locks).
export function fakeDevice() {
  window.__buzz = [];
  window.__locks = [];
  Object.defineProperty(Navigator.prototype, 'vibrate', {
    configurable: true,
    value: (p) => {
      window.__buzz.push(JSON.stringify(p));
      (window.__buzzAt ||= []).push(Date.now());
      return true;
    },
  });
  Object.defineProperty(Navigator.prototype, 'wakeLock', {
    configurable: true,
    get: () => ({
      request: async (type) => {
        const l = new EventTarget();
        l.type = type;
        l.release = async () => l.dispatchEvent(new Event('release'));
        window.__locks.push(type);
        return l;
      },
    }),
  });
}

// openPhone opens a phone's page. auth, [key, value], is put in its
// localStorage before the app reads it (the host's token). watch(page, who)
// follows its errors. It keeps every frame the page sends on a game's
// WebSocket (sent: {type, id, cmd, bytes}) and every ack and error it
// receives (acks: id → true, errors: id → code), so a test can wait for the
// server's answer to a tap, and the last state the server sent (state; states
// counts them), what the screen is drawn from.
export async function openPhone(browser, { who, locale, auth, watch }) {
  const ctx = await browser.newContext({ ...PHONE, locale });
  await ctx.addInitScript(fakeDevice);
  if (auth) {
    await ctx.addInitScript(([key, value]) => {
      if (!localStorage.getItem(key)) localStorage.setItem(key, JSON.stringify({ ...value, at: Date.now() }));
    }, auth);
  }
  const page = await ctx.newPage();
  if (watch) watch(page, who);
  const p = { who, locale, ctx, page, sent: [], acks: new Map(), state: null, states: 0, waiters: new Set() };
  const wake = () => {
    for (const w of p.waiters) w();
  };
  page.on('websocket', (ws) => {
    if (!/\/ws\//.test(ws.url())) return;
    ws.on('framesent', (f) => {
      const text = String(f.payload);
      let m = {};
      try {
        m = JSON.parse(text);
      } catch {
        // not JSON: kept as '?'
      }
      p.sent.push({ type: m.type || '?', id: m.id, cmd: m.cmd, target: m.target, bytes: Buffer.byteLength(text) });
      wake();
    });
    ws.on('framereceived', (f) => {
      // a message at night is several lines (tick, frames, pad)
      for (const line of String(f.payload).split('\n')) {
        if (line.startsWith('{"type":"state"')) {
          p.state = JSON.parse(line);
          p.states++;
        }
        if (!line.startsWith('{"type":"ack"') && !line.startsWith('{"type":"error"')) continue;
        const m = JSON.parse(line);
        if (m.id) p.acks.set(m.id, m.type === 'ack' ? true : m.code || 'error');
      }
      wake();
    });
  });
  return p;
}

// answered waits until the server answered the first frame of type (and
// cmd) the phone sent after the index from (p.sent.length before the
// tap): its id acknowledged, or it throws with the error's code. At night
// the frame leaves at a tick of the beat and its ack comes at a later one.
export function answered(p, { type = 'act', cmd, from, timeout = 30000 }) {
  return new Promise((resolve, reject) => {
    const check = () => {
      const f = p.sent.slice(from).find((x) => x.type === type && (!cmd || x.cmd === cmd) && x.id);
      if (!f || !p.acks.has(f.id)) return;
      done();
      const a = p.acks.get(f.id);
      if (a === true) resolve(f);
      else reject(new Error(`${p.who}: the server refused ${type} ${cmd || ''}: ${a}`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`${p.who}: no answer to ${type} ${cmd || ''} in ${timeout / 1000}s (sent: ${JSON.stringify(p.sent.slice(from))})`));
    }, timeout);
    const done = () => {
      clearTimeout(timer);
      p.waiters.delete(check);
    };
    p.waiters.add(check);
    check();
  });
}

// frame waits until the phone receives or sends a frame, or timeout ms.
export function frame(p, timeout = 1000) {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      p.waiters.delete(done);
      resolve();
    };
    const timer = setTimeout(done, timeout);
    p.waiters.add(done);
  });
}

// joinHere joins the room the page shows under nick: the seat it took.
export async function joinHere(p, nick) {
  await p.page.locator('#join-nick').fill(nick);
  await p.page.getByTestId('join').click();
  await p.page.locator('[data-testid^="room-seat-"].me').waitFor();
  return Number((await p.page.locator('[data-testid^="room-seat-"].me').getAttribute('data-testid')).split('-').pop());
}

// taskOf waits until the phone shows the task of slot `slot` of the kind
// it should have (a woken phone may show the decoy for the moment its
// state takes to come, then its real task), and reads what it shows:
// {kind, at, instants}. It throws naming what the phone showed instead.
export async function taskOf(p, slot, want, timeout = 60000) {
  const el = p.page.getByTestId('phone-task');
  await p.page.waitForFunction(([s, want]) => {
    const t = document.querySelector('[data-testid="phone-task"]');
    if (!t || t.dataset.slot !== String(s) || t.dataset.kind !== want) return false;
    // a real task is the action panel's, on the screen
    return want === 'decoy' || !!document.querySelector('[data-testid="action-panel"][data-pending="1"]');
  }, [slot, want], { timeout, polling: 100 }).catch(async (err) => {
    const seen = await p.page.evaluate(() => {
      const t = document.querySelector('[data-testid="phone-task"]');
      const table = document.querySelector('[data-testid="table"]');
      return { task: t ? { ...t.dataset } : null, night: table && table.dataset.night, now: Date.now() };
    });
    throw new Error(`${p.who}: no ${want} task in slot ${slot}: ${JSON.stringify(seen)} (${err.message.split('\n')[0]})`);
  });
  return { kind: await el.getAttribute('data-kind'), at: await el.getAttribute('data-at'), instants: await el.getAttribute('data-instants') };
}

// tapDecoy answers the decoy on the screen: taps seat, then confirms, and
// waits for the phone to say it is done (the decoy is acknowledged later,
// at the beat's tick). before(page) runs between the tap and the confirm
// (a screenshot).
export async function tapDecoy(p, seat, before) {
  await p.page.getByTestId('decoy-seat-' + seat).click();
  if (before) await before(p.page);
  await p.page.getByTestId('decoy-confirm').click();
  await p.page.getByTestId('decoy-done').waitFor();
}

// armSentClock makes the page time its next confirming tap (a command's
// confirm-*, act-* or a decoy's): performance.now() at the click, and in the
// first animation frame (before its paint) that holds the "sent" mark
// (SentMark). sentClock then reads {ms, text, state}, or null before.
export async function armSentClock(page) {
  await page.evaluate(() => {
    window.__sent = null;
    const onTap = (e) => {
      if (!e.target.closest('[data-testid^="confirm-"], [data-testid^="act-"], [data-testid="decoy-confirm"]')) return;
      document.removeEventListener('click', onTap, true);
      const tap = performance.now();
      const look = () => {
        const m = document.querySelector('[data-testid="sent"][data-state="sent"]');
        if (m) window.__sent = { ms: performance.now() - tap, text: m.textContent.trim(), state: m.dataset.state };
        else if (performance.now() - tap < 5000) requestAnimationFrame(look);
        else window.__sent = { ms: Infinity, text: '', state: '' };
      };
      requestAnimationFrame(look);
    };
    document.addEventListener('click', onTap, true);
  });
}

export async function sentClock(page) {
  return (await page.waitForFunction(() => window.__sent, null, { timeout: 10000 })).jsonValue();
}

// cardSigns: what the page shows of its seat's card (RoleCard, the ring).
export function cardSigns(page) {
  return page.evaluate(() => ({
    role: document.querySelectorAll('[data-testid="my-role"]').length,
    known: document.querySelectorAll('.rolecard .known li').length,
    ring: document.querySelectorAll('[data-testid="ring"] .role, [data-testid="ring"] .wolfmate').length,
  }));
}

// whileHeld presses the card (a pointer held down on it), runs fn, lets go.
export async function whileHeld(page, fn) {
  const card = page.getByTestId('role-card');
  await card.scrollIntoViewIfNeeded();
  const box = await card.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  try {
    return await fn();
  } finally {
    await page.mouse.up();
  }
}
