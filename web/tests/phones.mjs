// Phones at a table (issue 16), in Chromium against the real server: three
// pages are three phones of one game, the other seats bots.
//
//   - the installable shell: the service worker registers, takes the page,
//     and the lobby opens with the network cut (the API is never kept);
//   - joining across the table: the host's phone shows the room's code and
//     its QR code (the server's SVG); one phone types the code in the
//     lobby's box (lower case, with a dash), one opens the QR code's link
//     (/j/CODE, the X-Join-Link of the SVG); a code no room has comes back
//     to the lobby, which says so;
//   - the card-seen step (a room made with card_seen): each phone confirms
//     ("I have seen my card"), every phone shows the same count (how many,
//     not who), and night falls after the last;
//   - night 1: every phone gets a task in each slot of the night at the same
//     instants (the public schedule, the same list on every phone): in the
//     wolves' and the witch's slots all three a decoy "tap any seat", in the
//     seer's (std-9 wakes him last) the seer his check, the villagers a
//     decoy; each phone buzzes at the same instants (and at daybreak); the
//     screen is kept on (a screen wake lock asked for);
//   - the decoys change nothing: a second room with the same seed and deal,
//     whose people make the same real choice over plain WebSockets and tap
//     no decoy, tells every seat the same events up to day 1's first step.
//
// Deterministic: practice rooms with a fixed seed and deal (the seer at the
// host's seat 1, villagers at 2 and 3, every other card a bot's), waits on
// states, never on time. Screenshots of a phone's decoy task and of the
// join QR into docs/screenshots/ with SCREENSHOTS=1 (else a temporary dir).
//
//   node tests/phones.mjs            builds the client and the server first
//   WOLFDEN_BIN=/path/wolfden ...    uses that binary (its embedded client)
//   CHROMIUM=/path/chromium ...      another Chromium than /usr/bin/chromium
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { api, repo, startServer } from './server.mjs';
import { PHONE, armSentClock, cardSigns, joinHere as joinHere1, openPhone, sentClock, taskOf as taskOf1, tapDecoy as tapDecoy1, whileHeld } from './lib/phone.mjs';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wolfden-phones-'));
const shots = process.env.SCREENSHOTS ? path.join(repo, 'docs', 'screenshots') : path.join(tmp, 'screenshots');
const started = Date.now();
const log = (...a) => console.log(`[phones ${((Date.now() - started) / 1000).toFixed(1)}s]`, ...a);
const problems = [];

process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));
setTimeout(() => {
  console.error('phones: over 300s, giving up');
  process.exit(1);
}, Number(process.env.PHONES_LIMIT_S || 300) * 1000).unref();

function fail(msg) {
  throw new Error(msg);
}

async function shot(page, name) {
  fs.mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, name + '.png') });
  log('screenshot', name + '.png');
}

function watch(page, who) {
  page.on('pageerror', (e) => problems.push(`${who}: page error: ${e.message}`));
  page.on('console', (m) => {
    // a phone offline, or the network cut on purpose, logs failed loads
    if (m.type() === 'error' && !/Failed to load resource|ERR_INTERNET_DISCONNECTED/.test(m.text())) problems.push(`${who}: console error: ${m.text()}`);
  });
}

// The deal, seat by seat: the host (seat 1) the seer, the two who join
// (seats 2 and 3) villagers; the wolves, the witch and the hunter bots.
const DEAL = ['seer', 'villager', 'villager', 'werewolf', 'witch', 'werewolf', 'hunter', 'werewolf', 'villager'];
const SEED = 16;
const CHECK = 4; // the seer checks seat 4, a wolf
// Night slots long enough to tap on a loaded machine; the day is not played.
const TIMERS = { setup: '2s', night: '12s', witch: '8s', speech: '60s', vote: '30s', other: '15s', bot: '0s' };

// Each phone records its vibrations, its screen wake lock requests and its
// WebSocket frames (lib/phone.mjs).
async function phone(browser, who, locale, auth) {
  return openPhone(browser, { who, locale, auth, watch });
}

async function joinHere(p, nick) {
  const seat = await joinHere1(p, nick);
  log(`${p.who} joined as ${nick} at seat ${seat}`);
  return seat;
}

// 1. The shell: the worker registers and takes the page; with the network
// cut the lobby still opens, and the API is not answered from a cache.
async function shell(browser, base) {
  const ctx = await browser.newContext({ ...PHONE, locale: 'en-US' });
  const page = await ctx.newPage();
  watch(page, 'shell');
  await page.goto(base + '/');
  await page.getByTestId('lobby').waitFor();
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  if (scope !== base + '/') fail(`the service worker's scope is ${scope}`);
  await page.reload();
  await page.waitForFunction(() => !!navigator.serviceWorker.controller);
  const manifest = await page.evaluate(async () => {
    const r = await fetch(document.querySelector('link[rel="manifest"]').href);
    return { type: r.headers.get('content-type'), body: await r.json() };
  });
  if (manifest.type !== 'application/manifest+json' || manifest.body.start_url !== '/' || !manifest.body.icons.some((i) => i.sizes === '512x512')) {
    fail('manifest: ' + JSON.stringify(manifest));
  }
  // a room made for a table from the create page waits for the cards: on a
  // phone the page asks first online or at one table, then offers the five
  // boards most played (the others behind "more boards")
  await page.goto(base + '/new');
  await page.getByTestId('where-table').waitFor();
  if (await page.getByTestId('create-submit').count()) fail('the create page on a phone shows its form before asking where the game is played');
  await page.getByTestId('where-table').click();
  const boards = await page.locator('[data-testid^="preset-"]').count();
  if (boards !== 5) fail(`the create page on a phone lists ${boards} boards, not the five most played`);
  await page.getByTestId('more-boards').click();
  if ((await page.locator('[data-testid^="preset-"]').count()) <= 5) fail('"more boards" shows no more boards');
  await page.getByTestId('preset-std-9').click();
  // at a table the pace is quick unless chosen: the server's default there, so not sent
  if (!(await page.getByTestId('pace-quick').locator('input').isChecked())) fail('at one table the pace is not quick');
  await page.locator('#cnick').fill('Ann');
  const sent = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/rooms');
  await page.getByTestId('create-submit').click();
  const req = JSON.parse((await sent).postData() || '{}');
  if ('pace' in req || req.timers) fail('a quick room at a table sent ' + JSON.stringify(req));
  await page.waitForURL(/\/room\//);
  const made = await api(base, 'GET', '/api/rooms/' + page.url().split('/room/')[1]);
  if (made.card_seen !== true) fail('the create page\'s "at one table" made a room without card_seen');
  await ctx.setOffline(true);
  await page.goto(base + '/new');
  await page.getByTestId('create').waitFor();
  await page.goto(base + '/');
  await page.getByTestId('lobby').waitFor();
  const offlineApi = await page.evaluate(() => fetch('/api/presets').then((r) => 'answered ' + r.status, () => 'refused'));
  if (offlineApi !== 'refused') fail('offline, the API was ' + offlineApi + ' (from a cache?)');
  await ctx.setOffline(false);
  log('shell: the service worker took the page; offline the lobby and the create page open, the API does not answer');
  await ctx.close();
}

// A page that holds plain WebSockets for seats: it records each seat's
// events, and makes each seat's real choices (cmd → target) once offered.
async function wsRecorder(browser, base) {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  watch(page, 'recorder');
  await page.goto(base + '/healthz');
  await page.evaluate(() => {
    window.streams = {};
    window.record = (name, room, token, acts, seen) => {
      const out = (window.streams[name] = { events: [], state: null, acted: {} });
      const ws = new WebSocket(`ws://${location.host}/ws/${room}`);
      let id = 1;
      ws.onopen = () => ws.send(JSON.stringify({ type: 'hello', token, since: 0, chat_since: 0 }));
      ws.onmessage = (m) => {
        for (const line of String(m.data).split('\n')) {
          if (!line || line.startsWith('{"type":"pad"') || line.startsWith('{"type":"tick"')) continue;
          const f = JSON.parse(line);
          if (f.type === 'event') {
            const e = { ...f };
            delete e.type;
            out.events.push(e);
          } else if (f.type === 'state') {
            out.state = f;
            if (seen && f.see_card && !out.seen) {
              out.seen = true;
              ws.send(JSON.stringify({ type: 'seen', id: id++ }));
            }
            for (const c of f.choices || []) {
              const target = acts[c.cmd];
              if (target && !out.acted[c.cmd] && c.targets.includes(target)) {
                out.acted[c.cmd] = true;
                ws.send(JSON.stringify({ type: 'act', id: id++, cmd: c.cmd, target }));
              }
            }
          }
        }
      };
    };
  });
  return { ctx, page };
}

// The events of a stream up to day 1's first step after the dawn.
function throughDawn(events) {
  const day = events.findIndex((e) => e.kind === 'day');
  if (day < 0) return null;
  const next = events.findIndex((e, i) => i > day && e.kind === 'step');
  return next < 0 ? null : events.slice(0, next + 1);
}

async function taskOf(p, slot, want) {
  return taskOf1(p, slot, want).catch((err) => {
    if (problems.length) console.error(problems.join('\n'));
    fail(err.message);
  });
}

async function tapDecoy(p, seat, screenshot) {
  await tapDecoy1(p, seat, screenshot && (async (page) => {
    // the task whole at the bottom of the screen, the night's ring above it
    await page.getByTestId('decoy-task').evaluate((el) => el.scrollIntoView({ block: 'end', behavior: 'instant' }));
    await shot(page, screenshot);
  }));
}

const srv = await startServer({ name: 'phones', log });
const base = srv.base;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
try {
  await shell(browser, base);

  // 2. The room, and the same one again for the comparison.
  const create = (name) => api(base, 'POST', '/api/rooms', { name, preset: 'std-9', practice: true, seed: SEED, deal: DEAL, timers: TIMERS, nickname: 'Ann', card_seen: true });
  const made = await create('Phones');
  const twin = await create('Phones without decoys');
  const id = made.room.id;
  const code = made.room.code;
  if (!/^[2-9A-HJKMNP-Z]{4,6}$/.test(code || '')) fail('the room has no code: ' + JSON.stringify(made.room.code));
  log(`room ${id} code ${code}; its twin ${twin.room.id}`);

  const A = await phone(browser, 'phone A (host, seer)', 'en-US', ['wolfden.room.' + id, { token: made.token, seat: made.seat, host: made.host_token, nick: 'Ann', name: 'Phones', preset: 'std-9' }]);
  await A.page.goto(`${base}/room/${id}`);
  await A.page.getByTestId('room').waitFor();
  const shown = await A.page.getByTestId('room-code').getAttribute('data-code');
  if (shown !== code) fail(`the room screen shows the code ${shown}, not ${code}`);
  const qr = A.page.getByTestId('join-qr');
  await A.page.waitForFunction(() => {
    const img = document.querySelector('[data-testid="join-qr"]');
    return img && img.complete && img.naturalWidth > 0;
  });
  const qrRes = await fetch(`${base}/api/rooms/${id}/qr.svg`);
  const link = qrRes.headers.get('x-join-link');
  if (!/image\/svg\+xml/.test(qrRes.headers.get('content-type')) || link !== `${base}/j/${code}`) fail(`the QR code: ${qrRes.headers.get('content-type')}, link ${link}`);
  if ((await A.page.getByTestId('join-link').getAttribute('href')) !== link) fail('the room screen links another URL than its QR code');
  log('the room shows its code and its QR code of', link, `(${(await qr.boundingBox()).width}px)`);

  // B types the code in the lobby's box, as read across the table
  const B = await phone(browser, 'phone B (villager, code)', 'zh-CN');
  await B.page.goto(base + '/');
  await B.page.locator('#code').fill(code.slice(0, 2).toLowerCase() + '-' + code.slice(2).toLowerCase());
  await B.page.getByTestId('code-go').click();
  await B.page.waitForURL(`${base}/room/${id}`);
  const seatB = await joinHere(B, 'Bea');

  // C scans the QR code: its link, then the room
  const C = await phone(browser, 'phone C (villager, QR)', 'en-US');
  await C.page.goto(link);
  await C.page.waitForURL(`${base}/room/${id}`);
  const seatC = await joinHere(C, 'Cai');
  if (seatB !== 2 || seatC !== 3) fail(`seats ${seatB} and ${seatC}, the deal wants 2 and 3`);

  // a code no room has: the link comes back to the lobby, which says so
  await C.page.goto(base + '/j/ZZZZ');
  await C.page.waitForURL(/\/\?code=ZZZZ$/);
  const said = await C.page.getByTestId('code-error').innerText();
  if (!said.includes('ZZZZ')) fail('the lobby does not say that no room has the code: ' + said);
  await C.page.goto(`${base}/room/${id}`);
  await C.page.getByTestId('room').waitFor();

  await A.page.getByTestId('room-seat-3').locator('text=Cai').waitFor();
  await A.page.getByTestId('room-code').scrollIntoViewIfNeeded();
  await shot(A.page, 'join-qr');

  // the twin's people join over the API
  const twinB = await api(base, 'POST', `/api/rooms/${twin.room.id}/join`, { nickname: 'Bea' });
  const twinC = await api(base, 'POST', `/api/rooms/${twin.room.id}/join`, { nickname: 'Cai' });

  const tokens = { 1: made.token, [seatB]: await B.page.evaluate((k) => JSON.parse(localStorage.getItem(k)).token, 'wolfden.room.' + id),
    [seatC]: await C.page.evaluate((k) => JSON.parse(localStorage.getItem(k)).token, 'wolfden.room.' + id) };
  const twinTokens = { 1: twin.token, [twinB.seat]: twinB.token, [twinC.seat]: twinC.token };

  // 3. The start: the host fills the seats with bots and starts; the twin too.
  await A.page.getByTestId('fill-bots').click();
  await A.page.locator('[data-testid="room-seat-9"]:not([data-state="empty"])').waitFor();
  await api(base, 'POST', `/api/rooms/${twin.room.id}/bots`, {}, twin.host_token);
  await A.page.getByTestId('start').click();
  await api(base, 'POST', `/api/rooms/${twin.room.id}/start`, undefined, twin.host_token);
  const rec = await wsRecorder(browser, base);
  for (const s of [1, 2, 3]) {
    // the phones' room watched (it confirms nothing); the twin's people confirm their cards and make the check
    await rec.page.evaluate(([n, r, tk]) => window.record(n, r, tk, {}, false), ['A' + s, id, tokens[s]]);
    await rec.page.evaluate(([n, r, tk, acts]) => window.record(n, r, tk, acts, true), ['B' + s, twin.room.id, twinTokens[s], s === 1 ? { check: CHECK } : {}]);
  }
  const phones = [A, B, C];
  for (const p of phones) await p.page.getByTestId('table').waitFor();
  log('the game started on the three phones');

  // 4. The card-seen step: each phone confirms; every phone shows the same
  // count (how many, not who); night falls after the last.
  const info = await api(base, 'GET', `/api/rooms/${id}`);
  if (!info.card_seen) fail('the room for a table does not wait for the cards: ' + JSON.stringify(info));
  // at a table the card lies face down: nothing of the seer's card on his
  // phone until he holds it, then nothing again once let go
  await A.page.waitForFunction(() => document.querySelector('[data-testid="role-card"][data-hold="1"]'));
  const face = [await cardSigns(A.page)];
  face.push(await whileHeld(A.page, async () => {
    await A.page.getByTestId('my-role').waitFor({ timeout: 5000 });
    return cardSigns(A.page);
  }));
  face.push(await cardSigns(A.page));
  if (face[0].role || face[0].ring || face[2].role || face[2].ring || !face[1].role) fail('the card at a table (before, held, let go): ' + JSON.stringify(face));
  log('the card at a table: hidden, shown while held (' + JSON.stringify(face[1]) + '), hidden again');
  const counts = async () => Promise.all(phones.map((p) => p.page.getByTestId('card-seen-count').getAttribute('data-count')));
  for (const [i, p] of phones.entries()) {
    await p.page.getByTestId('card-seen-button').click();
    if (i < 2) {
      await p.page.getByTestId('card-seen-done').waitFor(); // the last one's is gone with the night
      for (const q of phones) await q.page.locator(`[data-testid="card-seen-count"][data-count="${i + 1}"][data-of="3"]`).waitFor();
      log(`card seen: ${i + 1} confirmed, every phone shows`, (await counts()).join(', '), 'of 3');
    }
  }
  for (const p of phones) await p.page.locator('[data-testid="table"][data-night="1"]').waitFor();
  if (await A.page.getByTestId('card-seen').count()) fail('the card-seen step is still shown at night');
  log('card seen: the third confirmed, night fell on every phone');

  // 5. Night 1, in std-9's order (night_order=wolves_first): the wolves'
  // slot, the witch's, the seer's. In the first two none of the three has
  // a task: each a decoy, at the same instants on every phone.
  const first = await Promise.all(phones.map((p) => taskOf(p, 0, 'decoy')));
  log('slot 0:', first.map((t, i) => `${phones[i].who}: ${t.kind} at ${t.at}`).join('; '));
  if (first.some((t) => t.kind !== 'decoy')) fail('slot 0 kinds: ' + first.map((t) => t.kind).join());
  if (new Set(first.map((t) => t.at)).size !== 1 || new Set(first.map((t) => t.instants)).size !== 1) {
    fail('the phones do not share the night\'s task instants: ' + JSON.stringify(first));
  }
  if (first[0].instants.split(',').length !== 3) fail('std-9 night 1 should have three slots (the wolves, the witch, the seer): ' + first[0].instants);
  await tapDecoy(A, 2);
  await tapDecoy(B, 6);
  await tapDecoy(C, 5, 'phone-decoy');
  const second = await Promise.all(phones.map((p) => taskOf(p, 1, 'decoy')));
  log('slot 1:', second.map((t) => t.kind).join(', '));
  if (second.some((t) => t.kind !== 'decoy') || new Set(second.map((t) => t.at)).size !== 1) fail('slot 1: ' + JSON.stringify(second));
  await tapDecoy(A, 3);
  await tapDecoy(B, 3);
  await tapDecoy(C, 1);

  // the seer's slot: his real check, the villagers' decoys
  const third = await Promise.all(phones.map((p, i) => taskOf(p, 2, i === 0 ? 'real' : 'decoy')));
  log('slot 2:', third.map((t) => t.kind).join(', '));
  if (third.map((t) => t.kind).join() !== 'real,decoy,decoy' || new Set(third.map((t) => t.at)).size !== 1) fail('slot 2: ' + JSON.stringify(third));
  // a night tap shows as sent at once, never waiting for the server: the
  // seer's check and a villager's decoy alike, the same words
  await A.page.getByTestId('target-check-' + CHECK).click();
  await armSentClock(A.page);
  await armSentClock(C.page);
  await A.page.getByTestId('confirm-check').click();
  await tapDecoy(B, 2);
  await tapDecoy(C, 6, 'phone-decoy');
  const marks = [await sentClock(A.page), await sentClock(C.page)];
  log('sent mark:', marks.map((m, i) => `${[A, C][i].who}: "${m.text}" ${m.ms.toFixed(1)} ms after the tap`).join('; '));
  for (const [i, m] of marks.entries()) if (!(m.ms <= 100)) fail(`${[A, C][i].who}: the tap's sent mark came ${m.ms} ms after it (over 100 ms)`);
  if (marks[0].text !== marks[1].text) fail(`the seer's sent mark "${marks[0].text}" differs from a decoy's "${marks[1].text}"`);
  // then confirmed at a tick, on both
  for (const p of [A, C]) await p.page.locator('[data-testid="sent"][data-state="ok"]').waitFor({ timeout: 30000 });
  // and the seer's phone, his check done, shows what a decoy done shows
  await A.page.getByTestId('real-done').waitFor({ timeout: 30000 });
  const looks = [];
  for (const p of [A, C]) looks.push(await p.page.evaluate(() => ['phone-task', 'sent'].map((id) => document.querySelector(`[data-testid="${id}"]`)?.innerText.trim()).join(' | ')));
  if (looks[0] !== looks[1]) fail(`the seer's phone after his check shows "${looks[0]}", a decoy's "${looks[1]}"`);
  log('sent mark: confirmed on the seer\'s phone and on the decoy\'s, the two screens\' tasks alike:', looks[0]);
  // a villager's decoy never turns into a task of his
  for (const p of [B, C]) if ((await p.page.getByTestId('phone-task').getAttribute('data-kind')) !== 'decoy') fail(p.who + ': the decoy turned real');

  // 6. The dawn: every phone buzzed the same, and kept its screen on.
  for (const p of phones) await p.page.locator('[data-testid="table"][data-night="0"]').waitFor({ timeout: 60000 });

  // On the wire each phone sent the same at night, whether it checked or
  // tapped decoys: frames of 4096 bytes, one a tick, its check or decoys
  // among the covers (the last tap went at a tick before the dawn).
  const wire = phones.map((p) => {
    const night = p.sent.filter((f) => f.bytes === 4096);
    return { types: night.map((f) => f.type).filter((t) => t !== 'cover'), sizes: new Set(p.sent.filter((f) => f.type === 'decoy' || f.type === 'act').map((f) => f.bytes)) };
  });
  log('night frames sent, besides covers:', wire.map((w, i) => `${phones[i].who}: ${w.types.join(' ') || 'none'}`).join('; '));
  if (wire[0].types.join() !== 'decoy,decoy,act' || wire[1].types.join() !== 'decoy,decoy,decoy' || wire[2].types.join() !== 'decoy,decoy,decoy') fail('the night frames: ' + JSON.stringify(wire.map((w) => w.types)));
  for (const w of wire) if ([...w.sizes].some((b) => b !== 4096)) fail('a command or decoy went out unpadded at night: ' + [...w.sizes]);

  const after = await rec.page.waitForFunction(() => {
    const s = window.streams.A1 && window.streams.A1.state;
    return s && !s.night && s.alive ? s.alive : null;
  });
  const alive = await after.jsonValue();
  const buzzes = [];
  for (const p of phones) buzzes.push(await p.page.evaluate(() => window.__buzz.slice()));
  log('buzzes:', buzzes.map((b, i) => `${phones[i].who}: ${b.length}`).join('; '), '· alive after the dawn:', alive.join(','));
  for (const [i, b] of buzzes.entries()) {
    const seat = [1, seatB, seatC][i];
    // three slots (the wolves, the witch, the seer), then the daybreak for those who saw it alive
    if (b.length < 3 || b.some((x) => x !== buzzes[0][0])) fail(`${phones[i].who} buzzed ${JSON.stringify(b)}`);
    if (alive.includes(seat) && b.length !== 4) {
      const at = await phones[i].page.evaluate(() => window.__buzzAt);
      fail(`${phones[i].who} (alive) buzzed ${b.length} times, not 4: at ${at} (the night's instants ${first[0].instants})`);
    }
  }
  for (const p of phones) {
    const locks = await p.page.evaluate(() => window.__locks);
    if (!locks.includes('screen') || (await p.page.getByTestId('room-foot').getAttribute('data-awake')) !== '1') fail(p.who + ' did not keep its screen on');
  }

  // 7. The decoys changed nothing: every seat of the twin room, whose
  // people made the same check and tapped no decoy, was told the same.
  const compare = await rec.page.waitForFunction(
    () => {
      const out = {};
      for (const [k, v] of Object.entries(window.streams)) {
        const day = v.events.findIndex((e) => e.kind === 'day');
        if (day < 0 || !v.events.some((e, i) => i > day && e.kind === 'step')) return null;
        out[k] = v.events;
      }
      return out;
    },
    undefined,
    { timeout: 60000 },
  );
  const streams = await compare.jsonValue();
  for (const s of [1, 2, 3]) {
    const a = JSON.stringify(throughDawn(streams['A' + s]));
    const b = JSON.stringify(throughDawn(streams['B' + s]));
    if (a !== b) fail(`seat ${s} was told other things with the decoys:\n  ${a}\n  ${b}`);
  }
  const checked = throughDawn(streams.A1).find((e) => e.kind === 'check');
  if (!checked || checked.target !== CHECK) fail('the seer\'s check is not in his stream: ' + JSON.stringify(streams.A1));
  log(`the decoys changed nothing: seats 1-3 were told the same ${throughDawn(streams.A1).length}, ${throughDawn(streams.A2).length} and ${throughDawn(streams.A3).length} events in both rooms through the dawn`);

  await api(base, 'POST', `/api/rooms/${id}/abort`, undefined, made.host_token);
  await api(base, 'POST', `/api/rooms/${twin.room.id}/abort`, undefined, twin.host_token);
  if (problems.length) fail('problems:\n  ' + problems.join('\n  '));
  log('ok');
} finally {
  await browser.close();
  await srv.stop();
}
process.exit(0);
