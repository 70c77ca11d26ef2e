// Issue 26's browser test of the voice: five people in a std-9 room (four
// bots fill the rest), each page's microphone a tone of its own (seat s:
// 300 + 200·s Hz), but seat 5's, which is refused: he listens and plays.
// Each page joins the voice; what each page hears is read from its voice
// panel (a WebAudio analyser per seat's track: whether it carries sound,
// and its loudest frequency). Checked, sample by sample, from the first
// night to the end of day 1's speeches:
//
//   - night: the two wolves (seats 1 and 2) hear each other, and only each
//     other; the seer and the villagers (3, 4, 5) hear nobody;
//   - day: whoever is heard is the seat holding the floor (a speech), and
//     when a person holds it every other page hears him, at his own tone;
//   - the dead are never heard by the living.
//
// And what each page sends through night 1 (its connection's outbound RTP,
// getStats): a wolf's page, a non-wolf's and the page of seat 4, whose user
// mutes himself for the night, send the same number of packets (within 5%:
// the pages are sampled one after another) of the same size; seat 5's page,
// whose microphone was refused, sends nothing.
//
// Samples taken in the 3 s after a page's view changed (night to day, a
// new floor) are not judged: the sound of the moment before is still in the
// pipes. Deterministic: a practice room with a fixed deal and seed; the test
// waits on states (what the pages show), never on time.
//
//   node tests/voice.mjs             builds the client and the server first
//   WOLFDEN_BIN=/path/wolfden ...    uses that binary (its embedded client)
import { chromium } from 'playwright-core';
import { api, startServer } from './server.mjs';

const LIMIT = Number(process.env.VOICE_LIMIT_S || 480) * 1000;
const started = Date.now();
const log = (...a) => console.log(`[voice ${((Date.now() - started) / 1000).toFixed(1)}s]`, ...a);
const fail = (msg) => {
  throw new Error(msg);
};
setTimeout(() => {
  console.error(`voice: over ${LIMIT / 1000}s, giving up`);
  process.exit(1);
}, LIMIT).unref();

// Seats 1–5 are people: wolves 1 and 2, the seer 3, villagers 4 and 5.
const DEAL = ['werewolf', 'werewolf', 'seer', 'villager', 'villager', 'werewolf', 'witch', 'hunter', 'villager'];
const PEOPLE = [1, 2, 3, 4, 5];
// Seat 5's browser refuses the microphone: it listens, and plays on.
const MUTE = 5;
// Seat 4 mutes himself through night 1 (Mute me): his page sends on.
const HUSHED = 4;
const WOLVES = new Set([1, 2]);
// Nights long enough for five browsers to join on a loaded machine; the
// people's speeches end when the test has heard them.
const TIMERS = { setup: '5s', night: '60s', witch: '5s', speech: '60s', vote: '5s', other: '5s', bot: '0s' };
const hz = (s) => 300 + 200 * s;
const near = (f, s) => Math.abs(f - hz(s)) <= 60;
// How long after a page's view changed its ears are not judged: the sound
// of the moment before is still in the jitter buffer and the analyser (a
// loaded machine stretches that to a second and more).
const GRACE = 3000;

const problems = [];
let browser = null;

// openSeat opens a seat's page. Its microphone is a tone of its own (freq
// Hz), or refused (0): Chromium's fake capture device takes one file for
// the whole browser, and five browsers are too heavy for a two-core CI
// machine, so each page's getUserMedia is the test's oscillator.
async function openSeat(base, id, { seat, token }, freq) {
  const ctx = await browser.newContext({ viewport: { width: 1200, height: 900 }, locale: 'en-US' });
  await ctx.addInitScript(([key, value]) => {
    if (!localStorage.getItem(key)) localStorage.setItem(key, JSON.stringify({ ...value, at: Date.now() }));
  }, ['wolfden.room.' + id, { token, seat, nick: 'P' + seat }]);
  await ctx.addInitScript((f) => {
    navigator.mediaDevices.getUserMedia = async () => {
      if (!f) throw new DOMException('the test refuses the microphone', 'NotAllowedError');
      const ac = new AudioContext();
      await ac.resume();
      const osc = ac.createOscillator();
      osc.frequency.value = f;
      const gain = ac.createGain();
      gain.gain.value = 0.4;
      const out = ac.createMediaStreamDestination();
      osc.connect(gain).connect(out);
      osc.start();
      return out.stream;
    };
  }, freq);
  // The page's voice connection, kept where the test can read its stats.
  await ctx.addInitScript(() => {
    const PC = window.RTCPeerConnection;
    window.RTCPeerConnection = function (...a) {
      const pc = new PC(...a);
      window.__voicePC = pc;
      return pc;
    };
    window.RTCPeerConnection.prototype = PC.prototype;
  });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => problems.push(`seat ${seat}: page error: ${e.message}`));
  page.on('console', (m) => {
    // A WebSocket refused on a loaded machine is retried by the page (lib/conn.js); the checks below need it connected.
    if (m.type() === 'error' && !/^WebSocket connection to .* failed/.test(m.text())) problems.push(`seat ${seat}: console error: ${m.text()}`);
  });
  await page.goto(`${base}/room/${id}`);
  return { seat, page };
}

// look reads what a page shows: night or day, the floor (the ring's
// speaking seat), the dead, and the seats its voice panel hears (with the
// loudest frequency of each).
function look(page) {
  return page.evaluate(() => {
    const table = document.querySelector('[data-testid="table"]');
    const floor = document.querySelector('.disc.speaking');
    const heard = [...document.querySelectorAll('[data-testid="voice-seat"][data-heard="1"]')].map((x) => [Number(x.dataset.seat), Number(x.dataset.hz)]);
    const dead = [...document.querySelectorAll('.seat.dead [data-testid^="seat-"]')].map((x) => Number(x.dataset.testid.slice(5)));
    return {
      night: table ? table.dataset.night === '1' : null,
      floor: floor ? Number(floor.dataset.testid.slice(5)) : 0,
      heard,
      dead,
      over: !!document.querySelector('[data-testid="end-panel"]'),
      pending: document.querySelector('[data-testid="action-panel"]')?.dataset.pending === '1',
    };
  });
}

// sent reads what a page's voice connection has sent so far: its outbound
// audio RTP (null: no connection; a refused microphone has no stream).
function sent(page) {
  return page.evaluate(async () => {
    const pc = window.__voicePC;
    if (!pc) return null;
    const out = { packets: 0, bytes: 0, headers: 0 };
    (await pc.getStats()).forEach((r) => {
      if (r.type === 'outbound-rtp' && r.kind === 'audio') {
        out.packets += r.packetsSent || 0;
        out.bytes += r.bytesSent || 0;
        out.headers += r.headerBytesSent || 0;
      }
    });
    return out;
  });
}

// checkSent compares what the pages sent between two samples of night 1.
function checkSent(from, to) {
  const d = {};
  for (const s of PEOPLE) {
    d[s] = { packets: to[s].packets - from[s].packets, bytes: to[s].bytes - from[s].bytes, headers: to[s].headers - from[s].headers };
  }
  log('night 1, sent by each page: ' + PEOPLE.map((s) => `${s}: ${d[s].packets} packets, ${d[s].bytes} B (+${d[s].headers} B of headers)`).join('; '));
  if (to[MUTE].packets !== 0) fail(`seat ${MUTE}'s page, without a microphone, sent ${to[MUTE].packets} packets`);
  const speakers = PEOPLE.filter((s) => s !== MUTE);
  const ref = d[speakers[0]];
  if (ref.packets < 100) fail(`night 1 was sampled over ${ref.packets} packets only`);
  for (const s of speakers) {
    if (Math.abs(d[s].packets - ref.packets) > 0.05 * ref.packets) fail(`night 1: seat ${s}'s page sent ${d[s].packets} packets, seat ${speakers[0]}'s ${ref.packets}`);
    const per = (x) => [x.bytes / x.packets, x.headers / x.packets].map((v) => v.toFixed(2)).join('/');
    if (per(d[s]) !== per(ref)) fail(`night 1: seat ${s}'s page sent packets of ${per(d[s])} bytes (payload/header), seat ${speakers[0]}'s of ${per(ref)}`);
  }
}

async function main() {
  const srv = await startServer({ name: 'voice', log });
  const base = srv.base;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--autoplay-policy=no-user-gesture-required'],
  });

  const made = await api(base, 'POST', '/api/rooms', { preset: 'std-9', practice: true, seed: 11, deal: DEAL, timers: TIMERS, nickname: 'P1' });
  const id = made.room.id;
  const creds = [{ seat: made.seat, token: made.token }];
  for (let i = 1; i < PEOPLE.length; i++) {
    const j = await api(base, 'POST', `/api/rooms/${id}/join`, { nickname: 'P' + (i + 1) });
    creds.push({ seat: j.seat, token: j.token });
  }
  if (creds.map((c) => c.seat).join() !== PEOPLE.join()) fail('the people sit at ' + creds.map((c) => c.seat).join());
  await api(base, 'POST', `/api/rooms/${id}/bots`, {}, made.host_token);
  const seats = [];
  for (const c of creds) seats.push(await openSeat(base, id, c, c.seat === MUTE ? 0 : hz(c.seat)));
  await api(base, 'POST', `/api/rooms/${id}/start`, undefined, made.host_token);
  log(`room ${id} started; the five people open the voice`);
  for (const p of seats) {
    await p.page.getByTestId('voice-join').click({ timeout: 120000 });
  }
  for (const p of seats) {
    await p.page.locator('[data-testid="voice"][data-on="1"]').waitFor({ timeout: 120000 });
    const noMic = (await p.page.getByTestId('voice-no-mic').count()) > 0;
    if (noMic !== (p.seat === MUTE)) fail(`seat ${p.seat}: the page says "no microphone": ${noMic}`);
  }
  log('every page is in the voice');

  const last = new Map(); // seat → { key, at } of its last view change
  const wolvesHeard = new Set(); // "1>2": page 1 heard seat 2 at night
  const floorsHeard = new Map(); // floor seat → pages that heard him
  let sawDay = false;
  // What each page sent, sampled when every page is at night 1 and
  // sending (then seat 4 mutes himself), and again at its dawn.
  const hush = () => seats.find((p) => p.seat === HUSHED).page.getByTestId('voice-mute').click();
  let nightFrom = null;
  let nightChecked = false;
  const sample = async () => Object.fromEntries(await Promise.all(seats.map(async (p) => [p.seat, await sent(p.page)])));
  for (;;) {
    const views = await Promise.all(seats.map(async (p) => ({ seat: p.seat, page: p.page, v: await look(p.page) })));
    if (!nightFrom && !sawDay && views.every(({ v }) => v.night)) {
      const s = await sample();
      if (PEOPLE.every((p) => s[p] && (p === MUTE || s[p].packets > 0))) {
        nightFrom = s;
        await hush();
      }
    }
    if (nightFrom && !nightChecked && views.some(({ v }) => v.night === false)) {
      checkSent(nightFrom, await sample());
      nightChecked = true;
      await hush(); // he speaks by day
    }
    const now = Date.now();
    let done = false;
    for (const { seat, page, v } of views) {
      if (v.over) done = true;
      const key = `${v.night}/${v.floor}`;
      const prev = last.get(seat);
      if (!prev || prev.key !== key) {
        last.set(seat, { key, at: now });
        continue; // just changed: the last moment's sound may still play
      }
      if (now - prev.at < GRACE) continue;
      const alive = !v.dead.includes(seat);
      for (const [s, f] of v.heard) {
        if (!near(f, s)) fail(`seat ${seat} hears seat ${s} at ${f} Hz, not its tone ${hz(s)} Hz`);
        if (v.night) {
          if (!alive) continue; // the dead among themselves
          if (!WOLVES.has(seat) || !WOLVES.has(s)) fail(`night: seat ${seat} hears seat ${s}`);
          wolvesHeard.add(`${seat}>${s}`);
        } else {
          // The dead speak to the living only with the floor: last words (遗言).
          if (alive && v.dead.includes(s) && s !== v.floor) fail(`day: the living seat ${seat} hears the dead seat ${s}`);
          if (s !== v.floor && alive) fail(`day: seat ${seat} hears seat ${s} while seat ${v.floor} holds the floor`);
          if (s === v.floor) {
            if (!floorsHeard.has(s)) floorsHeard.set(s, new Set());
            floorsHeard.get(s).add(seat);
          }
        }
      }
      if (!v.night && v.night !== null) sawDay = true;
      // A person who holds the floor ends his speech once every other page heard him.
      if (!v.night && v.floor === seat && v.pending) {
        const by = floorsHeard.get(seat) || new Set();
        const others = seats.filter((o) => o.seat !== seat).length;
        if (by.size === others || seat === MUTE) {
          log(seat === MUTE ? `day: seat ${seat} (no microphone) ends his speech` : `day: seat ${seat} was heard by the ${others} other pages at ${hz(seat)} Hz; he ends his speech`);
          await page.getByTestId('act-skip').click().catch(() => {});
        }
      }
    }
    if (process.env.DEBUG) log(JSON.stringify(views.map(({ seat, v }) => [seat, v.night, v.floor, v.heard, v.dead])));
    if (sawDay && views.every(({ v }) => v.night)) done = true; // the second night: day 1 is over
    if (done) break;
    if (problems.length) fail('errors in the pages:\n' + problems.join('\n'));
    await new Promise((r) => setTimeout(r, 150));
  }
  if (!nightChecked) fail('night 1: what the pages sent was not sampled at its start and its dawn');
  const quiet = await sent(seats.find((p) => p.seat === MUTE).page);
  if (quiet.packets !== 0) fail(`seat ${MUTE}'s page, without a microphone, sent ${quiet.packets} packets by day`);
  if (!wolvesHeard.has('1>2') || !wolvesHeard.has('2>1')) fail('night 1: the wolves did not hear each other: ' + [...wolvesHeard].join());
  const peopleSpoke = [...floorsHeard.keys()].filter((s) => PEOPLE.includes(s));
  if (!peopleSpoke.length) fail('day 1: no person held the floor and was heard');
  log(`night 1: the wolves heard each other (${[...wolvesHeard].join(', ')}), nobody else anybody; day 1: heard on the floor ${peopleSpoke.join(', ')}`);
  if (problems.length) fail('errors in the pages:\n' + problems.join('\n'));
}

main()
  .then(() => {
    log('passed');
  })
  .catch((err) => {
    console.error('voice: FAILED:', err.message);
    if (problems.length) console.error(problems.join('\n'));
    process.exitCode = 1;
  })
  .finally(async () => {
    if (browser) await browser.close().catch(() => {});
    process.exit(process.exitCode || 0);
  });
