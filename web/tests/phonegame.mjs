// A whole phone-mode game at a table (issue 16), in Chromium against the
// real server: four phones (390×844, touch; en, 简体中文, 繁體中文) hold the
// seats that matter, a wolf, the seer, the witch and a villager, bots the
// five others, and a table device (?table=1) is the judge. The room waits
// for the cards (card_seen); it is played to its end screen, every phone
// acting through its screen:
//
//   - each night, every living phone gets a task in each slot of the night
//     at the same instant (the same instants on every phone, the instants
//     the table device calls the slot's roles at): its real one (the seer's
//     check, the wolf's attack, the witch's choice) or a decoy, which it
//     answers; a dead phone gets none;
//   - each day, the phones end their speeches and last words and vote on
//     their screens;
//   - the table device called each night's roles in order (std-9 calls
//     them as clubs do: wolves, witch, seer), from nightfall, the dead
//     seer and witch too;
//   - in each slot, every living phone's banner (title, line, the instant it
//     counts to) and ring (no target, pick, turn, prompt or victim on it)
//     are the same, real task or decoy;
//   - the decoys change nothing: a twin room, the same seed and deal, whose
//     people make the same moves over plain WebSockets in the same order
//     and tap no decoy, plays the same game: the two replays hold the same
//     events, and no decoy is in either;
//   - the end screen of every phone shows the winner of the replay and
//     every card of it, in the phone's language; every decoy went out at
//     night in a frame of 4096 bytes.
//
// Deterministic: practice rooms with a fixed seed and deal. Where two
// people are asked at once (the voters) they move one after another, each once the server
// answered the one before, so the log holds their moves in one order; it
// logs the game's fingerprint, the same every run. It waits on states,
// never on time.
//
//   node tests/phonegame.mjs         builds the client and the server first
//   WOLFDEN_BIN=/path/wolfden ...    uses that binary (its embedded client)
//   CHROMIUM=/path/chromium ...      another Chromium than /usr/bin/chromium
//   TRACE=1 ...                      logs every move
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { api, repo, startServer } from './server.mjs';
import { answered, cardSigns, frame, joinHere, openPhone, taskOf, tapDecoy, whileHeld } from './lib/phone.mjs';

const LIMIT = Number(process.env.PHONEGAME_LIMIT_S || 300) * 1000; // the builds included; std-9's nights have three slots (wolves_first)
const started = Date.now();
const log = (...a) => console.log(`[phonegame ${((Date.now() - started) / 1000).toFixed(1)}s]`, ...a);
const trace = (...a) => process.env.TRACE && log(...a);
const problems = [];
function fail(msg) {
  throw new Error(msg);
}
setTimeout(() => {
  console.error(`phonegame: over ${LIMIT / 1000}s, giving up`);
  process.exit(1);
}, LIMIT).unref();

function watch(page, who) {
  page.on('pageerror', (e) => problems.push(`${who}: page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`${who}: console error: ${m.text()}`);
  });
}

// The deal, seat by seat: the four phones at 1 to 4 (the host the wolf),
// the bots at 5 to 9 (two wolves, the hunter, two villagers).
const DEAL = ['werewolf', 'seer', 'witch', 'villager', 'werewolf', 'hunter', 'villager', 'werewolf', 'villager'];
const SEED = 1616;
const WOLF = 1;
const SEER = 2;
const WITCH = 3;
const VILLAGER = 4;
const PEOPLE = [WOLF, SEER, WITCH, VILLAGER];
const PLAYERS = DEAL.length;
// What the people do. With the bots' moves that the seed makes, the game
// goes: night 1 the seer checks the wolf at seat 1, the wolves kill the
// seer, the witch lets him die; day 1's vote ties, and the PK exiles the
// witch; night 2 the wolves kill the hunter, the last god, and win at dawn
// (kill_side). The test checks what any game must hold, and that the seer
// died before the last night (so that a dead role was called); should the
// bots change, the plan's later nights and abstentions play on.
const PLAN = {
  check: { 1: WOLF },
  attack: { 1: SEER, 2: 6 },
  witch: {}, // she passes each night
  vote: { 1: { [WOLF]: WITCH, [WITCH]: 5, [VILLAGER]: WITCH } },
};
// Night slots long enough to tap on a loaded machine; the day's clocks are
// never reached (the phones move at once), the bots think at once.
const TIMERS = { setup: '2s', night: '12s', witch: '8s', speech: '30s', vote: '30s', other: '10s', bot: '0s' };
// What each phone's person is called, and in which language its phone is.
const PHONES = {
  [WOLF]: { nick: 'Wu', locale: 'zh-CN', lang: 'zh-Hans' },
  [SEER]: { nick: 'Sam', locale: 'en-US', lang: 'en' },
  [WITCH]: { nick: 'Wen', locale: 'zh-TW', lang: 'zh-Hant' },
  [VILLAGER]: { nick: 'Val', locale: 'en-US', lang: 'en' },
};
const ROLE_OF = { [WOLF]: 'the wolf', [SEER]: 'the seer', [WITCH]: 'the witch', [VILLAGER]: 'the villager' };

const catalogue = Object.fromEntries(['en', 'zh-Hans', 'zh-Hant'].map((l) => [l, JSON.parse(fs.readFileSync(path.join(repo, 'internal', 'i18n', 'locales', l + '.json'), 'utf8'))]));

// lookState is what the test reads of a seat's last state (the one its
// screen is drawn from): night or day and the night's number, the step,
// the living, the end, and the commands it may send (cmd → seats).
function lookState(st) {
  if (!st) return { table: false, night: false, n: -1, day: -1, step: '', over: false, winner: '', alive: [], cmds: {} };
  return {
    table: true,
    night: !!st.night && !st.over,
    n: st.night ? (st.day || 0) + 1 : st.day || 0,
    day: st.day || 0,
    step: st.step || '',
    over: !!st.over,
    winner: st.winner || '',
    alive: st.alive || [],
    cmds: Object.fromEntries((st.choices || []).map((c) => [c.cmd, c.targets || []])),
  };
}

// The phones' table, through their screens. look() reads what each phone
// shows: the night or day and the night's number, the living (the ring),
// the end, and the commands its action panel offers (cmd → seats).
function screens(phones) {
  return {
    name: 'phones',
    async look() {
      return Object.fromEntries(PEOPLE.map((s) => [s, lookState(phones[s].state)]));
    },
    // act makes a move on a phone's action panel, a seat and its confirm or
    // a button, and waits for the server's answer.
    async act(s, cmd, target) {
      const p = phones[s];
      const panel = p.page.locator('[data-testid="action-panel"][data-pending="1"]');
      const button = panel.locator(target ? `[data-testid="target-${cmd}-${target}"]:not([disabled])` : `[data-testid="act-${cmd}"]:not([disabled])`);
      await button.waitFor({ timeout: 30000 }).catch(() => fail(`${p.who}: no ${cmd}${target ? ' ' + target : ''} on the phone's screen`));
      const from = p.sent.length;
      const states = p.states;
      if (target) {
        if ((await button.getAttribute('aria-pressed')) !== 'true') await button.click();
        await panel.locator(`[data-testid="confirm-${cmd}"]:not([disabled])`).click();
      } else {
        await button.click();
      }
      await answered(p, { cmd, from });
      // the state the move made (the screen's next), so that the next look
      // does not read the one before it
      if (p.states === states) await frame(p);
      trace(`${p.who}: ${cmd}${target ? ' ' + target : ''}`);
    },
    // settle waits for a frame on any phone's connection (or a second)
    settle: () => Promise.race(PEOPLE.map((s) => frame(phones[s]))),
    phones,
  };
}

// The twin's table, over plain WebSockets in one page: each seat's state,
// events and answers; a move is sent once the state offers it.
async function sockets(browser, base, room, tokens) {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  // a page of its own, /healthz: no app, only its sockets (its failed favicon is no error)
  page.on('pageerror', (e) => problems.push(`twin: page error: ${e.message}`));
  await page.goto(base + '/healthz');
  await page.evaluate(([room, tokens]) => {
    window.seats = {};
    for (const [s, token] of Object.entries(tokens)) {
      const me = (window.seats[s] = { state: null, states: 0, acks: {}, id: 1 });
      const ws = new WebSocket(`ws://${location.host}/ws/${room}`);
      me.send = (f) => {
        const id = me.id++;
        ws.send(JSON.stringify({ ...f, id }));
        return id;
      };
      ws.onopen = () => ws.send(JSON.stringify({ type: 'hello', token, since: 0, chat_since: 0 }));
      ws.onmessage = (m) => {
        for (const line of String(m.data).split('\n')) {
          if (!line || line.startsWith('{"type":"pad"') || line.startsWith('{"type":"tick"')) continue;
          const f = JSON.parse(line);
          if (f.type === 'ack') me.acks[f.id] = true;
          if (f.type === 'error' && f.id) me.acks[f.id] = f.code || 'error';
          if (f.type === 'state') {
            me.state = f;
            me.states++;
            window.version = (window.version || 0) + 1;
            // the twin's people see their cards at once
            if (f.see_card && !me.seen) me.seen = me.send({ type: 'seen' });
          }
        }
      };
    }
  }, [room, tokens]);
  const look = async () => {
    const states = await page.evaluate(() => Object.fromEntries(Object.entries(window.seats).map(([s, me]) => [s, me.state])));
    return Object.fromEntries(PEOPLE.map((s) => [s, lookState(states[s])]));
  };
  return {
    name: 'twin',
    look,
    async act(s, cmd, target, step) {
      await page.waitForFunction(([s, cmd, target, step]) => {
        const st = window.seats[s].state;
        const c = st && (st.choices || []).find((x) => x.cmd === cmd);
        return c && (!target || (c.targets || []).includes(target)) && (!step || st.step === step);
      }, [s, cmd, target, step], { timeout: 30000, polling: 50 }).catch(() => fail(`twin: seat ${s} was never offered ${cmd} ${target || ''}`));
      const [id, states] = await page.evaluate(([s, f]) => [window.seats[s].send(f), window.seats[s].states], [s, target ? { type: 'act', cmd, target } : { type: 'act', cmd }]);
      const h = await page.waitForFunction(([s, id]) => window.seats[s].acks[id], [s, id], { timeout: 30000, polling: 50 });
      const a = await h.jsonValue();
      if (a !== true) fail(`twin: seat ${s}'s ${cmd} refused: ${a}`);
      await page.waitForFunction(([s, n]) => window.seats[s].states !== n, [s, states], { timeout: 1000, polling: 50 }).catch(() => {});
      trace(`twin seat ${s}: ${cmd}${target ? ' ' + target : ''}`);
    },
    // settle waits for a state on any of the twin's connections (or a second)
    async settle() {
      const v = await page.evaluate(() => window.version || 0);
      await page.waitForFunction((v) => (window.version || 0) !== v, v, { timeout: 1000, polling: 50 }).catch(() => {});
    },
    page,
    ctx,
  };
}

// The people's moves, the same on both tables, in one order. The night's,
// in std-9's order (night_order=wolves_first: 狼人 → 女巫 → 预言家): the
// wolf's attack in the night's first slot, the witch in hers, the seer's
// check in the last. hooks.slot
// (the phones' only) checks each slot's tasks and returns the decoys'
// answers, made meanwhile (the log never holds them).
async function night(t, n, L, hooks) {
  const alive = L[WOLF].alive.filter((s) => PEOPLE.includes(s));
  const real = [[WOLF], [WITCH], [SEER]];
  // the plan's seat, or (should it be dead) the first living one the role may take
  const pick = (want, not) => (L[WOLF].alive.includes(want) ? want : L[WOLF].alive.find((s) => !not.includes(s)));
  const wolves = DEAL.flatMap((r, i) => (r === 'werewolf' ? [i + 1] : []));
  const slot = async (i, moves) => {
    const decoys = hooks.slot ? await hooks.slot(n, i, alive, real[i].filter((s) => alive.includes(s)), L[WOLF].alive) : async () => {};
    await Promise.all([moves(), decoys()]);
  };
  await slot(0, async () => {
    if (alive.includes(WOLF)) await t.act(WOLF, 'attack', pick(PLAN.attack[n], wolves));
  });
  await slot(1, async () => {
    const w = PLAN.witch[n] || { cmd: 'skip' };
    if (alive.includes(WITCH)) await t.act(WITCH, w.cmd, w.target, 'witch');
  });
  await slot(2, async () => {
    if (alive.includes(SEER)) await t.act(SEER, 'check', pick(PLAN.check[n], [SEER]), 'check');
  });
}

// play runs a table to its end: each night's moves, then by day every
// speech, last word and skill ended at once and the votes of the plan (an
// abstention where it names none), the voters one after another once all
// are asked.
async function play(t, hooks = {}) {
  let n = 0; // the last night played
  for (;;) {
    if (Date.now() - started > LIMIT - 15000) fail(`${t.name}: the game did not end in time (night ${n})`);
    const L = await t.look();
    const all = Object.values(L);
    if (all.every((x) => x.over)) return n;
    const fell = all.find((x) => x.night && x.n > n);
    if (fell && PEOPLE.every((s) => L[s].table && (L[s].night || !L[s].alive.includes(s)))) {
      n = fell.n;
      log(`${t.name}: night ${n} (alive: ${fell.alive.join(',')})`);
      await night(t, n, L, hooks);
      continue;
    }
    if (all.some((x) => x.night) || all.some((x) => x.over)) {
      await t.settle(L);
      continue;
    }
    const ballot = all.find((x) => x.cmds.vote);
    if (ballot) {
      // everyone living in the vote's step first: then those it asks (a PK's
      // candidates are not), one after another in seat order
      const living = PEOPLE.filter((s) => L[s].alive.includes(s));
      if (!living.every((s) => L[s].step === ballot.step && L[s].day === ballot.day)) {
        await t.settle(L);
        continue;
      }
      const voters = living.filter((s) => L[s].cmds.vote);
      const plan = PLAN.vote[n] || {};
      const to = (s) => (L[s].cmds.vote.includes(plan[s]) ? plan[s] : 0);
      for (const s of voters) await t.act(s, to(s) ? 'vote' : 'abstain', to(s));
      log(`${t.name}: day ${n}: ${ballot.step} ${voters.map((s) => `${s}→${to(s) || '-'}`).join(' ')}`);
      // the voters' states offer the vote until the step moves on
      for (let x = await t.look(); x[voters[0]].step === ballot.step && x[voters[0]].day === ballot.day; x = await t.look()) await t.settle(x);
      continue;
    }
    const speaker = PEOPLE.find((s) => L[s].cmds.skip && !L[s].cmds.vote);
    if (speaker) {
      await t.act(speaker, 'skip');
      continue;
    }
    await t.settle(L);
  }
}

const transcript = (page) =>
  page.$$eval('[data-testid="narration-log"] li', (ls) => ls.map((l) => ({ id: l.dataset.id, key: l.dataset.key, at: Number(l.dataset.at), text: l.textContent })));

// The replay's events as the two rooms compare them: all of each event,
// its audience too.
const gameOf = (replay) => replay.events.map((e) => JSON.stringify(e));

// faceDown: at a table the wolf's phone shows neither his card nor (once
// the pack has met, mates) his mates until he holds the card, and nothing
// again once let go.
async function faceDown(page, mates) {
  const face = [await cardSigns(page)];
  face.push(await whileHeld(page, async () => {
    await page.getByTestId('my-role').waitFor({ timeout: 10000 });
    if (mates) await page.locator('.rolecard .known li').first().waitFor({ timeout: 10000 });
    return cardSigns(page);
  }));
  face.push(await cardSigns(page));
  const none = (f) => !f.role && !f.known && !f.ring;
  if (!none(face[0]) || !face[1].role || (mates && (!face[1].known || face[1].ring < 3)) || !none(face[2])) {
    fail(`the wolf's card at a table (before, held, let go)${mates ? ' with his mates' : ''}: ` + JSON.stringify(face));
  }
  log(`the wolf's card${mates ? ' and mates' : ''}: not on his phone until held, then hidden again`, JSON.stringify(face[1]));
}

async function main(base, browser) {
  const create = (name) => api(base, 'POST', '/api/rooms', {
    name, preset: 'std-9', practice: true, seed: SEED, deal: DEAL, timers: TIMERS, nickname: PHONES[WOLF].nick, card_seen: true,
  });
  const made = await create('Phones to the end');
  const twin = await create('Phones to the end, no decoys');
  const id = made.room.id;
  log(`room ${id} (code ${made.room.code}); its twin ${twin.room.id}`);

  // 1. The phones: the host's, then three join through the room's code link.
  const phones = {};
  phones[WOLF] = await openPhone(browser, {
    who: `phone ${WOLF} (${ROLE_OF[WOLF]})`, locale: PHONES[WOLF].locale, watch,
    auth: ['wolfden.room.' + id, { token: made.token, seat: made.seat, host: made.host_token, nick: PHONES[WOLF].nick, name: 'Phones to the end', preset: 'std-9' }],
  });
  await phones[WOLF].page.goto(`${base}/room/${id}`);
  await phones[WOLF].page.getByTestId('room').waitFor();
  for (const s of [SEER, WITCH, VILLAGER]) {
    const p = (phones[s] = await openPhone(browser, { who: `phone ${s} (${ROLE_OF[s]})`, locale: PHONES[s].locale, watch }));
    await p.page.goto(`${base}/j/${made.room.code}`);
    await p.page.waitForURL(`${base}/room/${id}`);
    const seat = await joinHere(p, PHONES[s].nick);
    if (seat !== s) fail(`${p.who} took seat ${seat}`);
  }
  const tokens = {};
  for (const s of PEOPLE) tokens[s] = s === WOLF ? made.token : await phones[s].page.evaluate((k) => JSON.parse(localStorage.getItem(k)).token, 'wolfden.room.' + id);
  const twinTokens = { [WOLF]: twin.token };
  for (const s of [SEER, WITCH, VILLAGER]) {
    const j = await api(base, 'POST', `/api/rooms/${twin.room.id}/join`, { nickname: PHONES[s].nick });
    if (j.seat !== s) fail(`twin: ${PHONES[s].nick} took seat ${j.seat}`);
    twinTokens[s] = j.token;
  }
  log(`phones at seats ${PEOPLE.join(', ')} (${PEOPLE.map((s) => PHONES[s].lang).join(', ')})`);

  // 2. The table device, watching from before the start.
  const devCtx = await browser.newContext({ viewport: { width: 800, height: 1280 }, locale: 'zh-CN', reducedMotion: 'reduce' });
  const dev = await devCtx.newPage();
  watch(dev, 'table device');
  await dev.goto(`${base}/room/${id}?table=1`);
  await dev.getByTestId('room').waitFor();

  // 3. The start: the host's phone fills the seats with bots and starts.
  const host = phones[WOLF].page;
  await host.getByTestId('fill-bots').click();
  await host.locator(`[data-testid="room-seat-${PLAYERS}"]:not([data-state="empty"])`).waitFor();
  await host.getByTestId('start').click();
  await api(base, 'POST', `/api/rooms/${twin.room.id}/bots`, {}, twin.host_token);
  await api(base, 'POST', `/api/rooms/${twin.room.id}/start`, undefined, twin.host_token);
  const T = await sockets(browser, base, twin.room.id, twinTokens);
  for (const s of PEOPLE) await phones[s].page.getByTestId('table').waitFor({ timeout: 30000 });
  await dev.getByTestId('table-device').waitFor({ timeout: 30000 });

  // 4. The card-seen step: each phone confirms, the host's shows the count
  // (how many, not who), and the table device in large type; night falls
  // after the last. At a table the card lies face down: the wolf's phone
  // shows neither his card nor his mates until he holds it.
  await host.locator('[data-testid="role-card"][data-hold="1"]').waitFor();
  await faceDown(host, false);
  for (const [i, s] of PEOPLE.entries()) {
    await phones[s].page.getByTestId('card-seen-button').click({ timeout: 30000 });
    if (i < PEOPLE.length - 1) {
      await host.locator(`[data-testid="card-seen-count"][data-count="${i + 1}"][data-of="${PEOPLE.length}"]`).waitFor();
      const line = `请查看身份牌 ${i + 1}/${PEOPLE.length}`;
      await dev.waitForFunction((l) => document.querySelector('[data-testid="device-caption"]')?.textContent.trim() === l, line, { timeout: 10000 })
        .catch(async () => fail(`the table device does not say "${line}": ${await dev.getByTestId('device-caption').innerText()}`));
    }
  }
  log('the four phones confirmed their cards, the host\'s phone counting 1, 2, 3 of 4');

  // What a neighbour sees of a phone at night is the same woken or asleep
  // (issue 23): the banner's title, line and the instant it counts to (the
  // night's end), and the ring (no seat to tap, no pick, turn, prompt or
  // victim on it); the task alone differs. Compared in a slot where
  // some phones hold a real task and the others a decoy; the words among
  // phones of one language.
  async function sameNight(n, i, ps) {
    const looks = await Promise.all(ps.map((p) => p.page.evaluate(() => {
      const ring = document.querySelector('[data-testid="table"] [data-testid="ring"]');
      return {
        lang: document.documentElement.lang,
        title: document.querySelector('[data-testid="phase"]')?.textContent.trim(),
        line: document.querySelector('[data-testid="step"]')?.textContent.trim() || '',
        end: document.querySelector('[data-testid="banner-clock"]')?.dataset.end || '',
        // what marks a woken seat's ring: targets, picks, a turn, a prompt, the victim (what a card
        // knows, its mates and checks, shows only while the card is shown: RoleCard's press)
        ring: ring ? [...ring.querySelectorAll('.disc')].map((d) => ['target', 'picked', 'speaking'].filter((c) => d.classList.contains(c)).join('+')).join('|') +
          ` center:${ring.querySelector('.center')?.textContent.trim() ? 1 : 0} picks:${ring.querySelectorAll('.mark.picks').length} victim:${ring.querySelectorAll('.mark.victim').length}` : 'none',
        taps: ring ? ring.querySelectorAll('button:not([disabled])').length : -1,
      };
    })));
    const differ = (k) => new Set(looks.map((l) => l[k])).size !== 1;
    if (differ('end') || differ('ring') || differ('taps') || !looks[0].end) fail(`night ${n} slot ${i}: the phones' banners or rings differ: ${JSON.stringify(looks.map((l, k) => ({ who: ps[k].who, ...l })))}`);
    for (const l of looks) {
      const same = looks.filter((o) => o.lang === l.lang);
      if (same.some((o) => o.title !== l.title || o.line !== l.line)) fail(`night ${n} slot ${i}: two ${l.lang} phones' banners read differently: ${JSON.stringify(same)}`);
    }
  }

  // 5. Both tables to the end, at once.
  const tasks = {}; // night → slot → seat → {kind, at, instants}
  const decoyTaps = [];
  const hooks = {
    // each living phone's task of the slot (real where it has one, else a
    // decoy), at one instant on all; then, while the real moves are made,
    // the decoys answered: each taps the seat the wolves attack tonight, as
    // a heal would (any living seat may be tapped)
    async slot(n, i, alive, real, living) {
      for (const s of PEOPLE.filter((x) => !alive.includes(x))) {
        const kind = await phones[s].page.getByTestId('phone-task').getAttribute('data-kind', { timeout: 1000 }).catch(() => '');
        if (kind) fail(`${phones[s].who}, dead, was given a ${kind} task on night ${n}`);
      }
      const got = await Promise.all(alive.map((s) => taskOf(phones[s], i, real.includes(s) ? 'real' : 'decoy')));
      const by = Object.fromEntries(alive.map((s, k) => [s, got[k]]));
      (tasks[n] ||= {})[i] = by;
      if (new Set(got.map((g) => g.at)).size !== 1 || new Set(got.map((g) => g.instants)).size !== 1) {
        fail(`night ${n} slot ${i}: the phones' tasks are not at one instant: ${JSON.stringify(by)}`);
      }
      log(`phones: night ${n} slot ${i} at ${got[0].at}: ${alive.map((s) => `${s} ${by[s].kind}`).join(', ')}`);
      // the pack has met: the wolf's mates, as his card, only while held
      if (n === 1 && i === 1 && alive.includes(WOLF)) await faceDown(phones[WOLF].page, true);
      const target = living.includes(PLAN.attack[n]) ? PLAN.attack[n] : living[0];
      return () => Promise.all([sameNight(n, i, alive.map((s) => phones[s])), ...alive.filter((x) => !real.includes(x)).map(async (s) => {
        await tapDecoy(phones[s], target);
        decoyTaps.push(`${n}:${i}:${s}`);
        if ((await phones[s].page.getByTestId('phone-task').getAttribute('data-kind')) !== 'decoy') fail(`${phones[s].who}: the decoy turned real`);
      })]);
    },
  };
  const [nights, twinNights] = await Promise.all([play(screens(phones), hooks), play(T)]);
  log(`both games over after ${nights} and ${twinNights} nights; ${decoyTaps.length} decoys tapped on the phones`);

  // 6. The end screen of every phone: the replay's winner and cards, in its language.
  const replay = await api(base, 'GET', `/api/rooms/${id}/replay`);
  const replayTwin = await api(base, 'GET', `/api/rooms/${twin.room.id}/replay`);
  const twinEnd = await T.look();
  const winner = phones[WOLF].state.winner;
  for (const s of PEOPLE) {
    if (phones[s].state.winner !== winner || twinEnd[s].winner !== winner) fail(`seat ${s} was told the winner ${phones[s].state.winner} (its twin ${twinEnd[s].winner}), seat 1 ${winner}`);
  }
  const cards = Array.isArray(replay.roles) ? replay.roles : Object.values(replay.roles);
  const endLines = [];
  for (const s of PEOPLE) {
    const page = phones[s].page;
    await page.getByTestId('winner').waitFor({ timeout: 20000 });
    const lang = await page.evaluate(() => document.documentElement.lang);
    const cat = catalogue[lang];
    if (!cat) fail(`${phones[s].who}: the page's language is ${lang}`);
    const shown = (await page.getByTestId('winner').innerText()).trim();
    if (shown !== cat['winner.' + winner]) fail(`${phones[s].who}: the end shows "${shown}", the game's winner is ${winner} ("${cat['winner.' + winner]}")`);
    const roles = await page.locator('[data-testid="end"] .roles li .role').allTextContents();
    const want = cards.slice(0, PLAYERS).map((r) => cat['role.' + (typeof r === 'string' ? r : r.role)]);
    if (roles.map((r) => r.trim()).join() !== want.join()) fail(`${phones[s].who}: the end's cards ${roles.join()}, the replay's ${want.join()}`);
    endLines.push(`${s} (${lang}) "${shown}"`);
  }
  log(`the end on every phone: ${endLines.join('; ')}`);

  // 7. The decoys changed nothing: the same game in both rooms, no decoy in the replay.
  const a = gameOf(replay);
  const b = gameOf(replayTwin);
  const digest = createHash('sha256').update(a.join('\n')).digest('hex').slice(0, 12);
  if (a.join('\n') !== b.join('\n')) {
    const i = a.findIndex((x, k) => x !== b[k]);
    fail(`the game with decoys differs from its twin at event ${i + 1}:\n  ${a[i]}\n  ${b[i]}\n(${a.length} and ${b.length} events)`);
  }
  if (JSON.stringify(replay.roles) !== JSON.stringify(replayTwin.roles)) fail('the twin was dealt other cards');
  if (/decoy/i.test(JSON.stringify(replay))) fail('a decoy is in the replay');
  const over = replay.events[replay.events.length - 1];
  // the replay's end names the winner the phones were told (its text: "game_over wolves")
  if (over.kind !== 'game_over' || !String(over.text).split(' ').includes(winner)) fail(`the replay ends with ${JSON.stringify(over)}, the phones were told ${winner} won`);
  log(`the decoys changed nothing: both rooms played the same ${a.length} events (game ${digest}), ${winner} won, no decoy in the replay`);

  // 8. The table device called each night's roles in order from nightfall,
  // the dead ones too, at the instants the phones' tasks opened.
  const lines = await transcript(dev);
  const at = (lid) => (lines.find((l) => l.id === lid) || {}).at;
  const deadAt = {}; // night → the people's roles dead at its fall
  for (let n = 1; n <= nights; n++) {
    const want = [`n${n}:falls`, ...['wolves', 'witch', 'seer'].flatMap((r) => [`n${n}:${r}:open`, `n${n}:${r}:close`])];
    const said = lines.filter((l) => l.id.startsWith(`n${n}:`)).map((l) => l.id);
    if (said.join() !== want.join()) fail(`the table device said night ${n} as ${said.join()} (want ${want.join()})`);
    const slots = tasks[n];
    const first = Object.values(slots[0])[0];
    const witch = Object.values(slots[1])[0];
    const seer = Object.values(slots[2])[0];
    if (String(at(`n${n}:falls`)) !== first.at || String(at(`n${n}:witch:open`)) !== witch.at || String(at(`n${n}:seer:open`)) !== seer.at) {
      fail(`night ${n}: the device called nightfall at ${at(`n${n}:falls`)}, the witch at ${at(`n${n}:witch:open`)} and the seer at ${at(`n${n}:seer:open`)}, the phones' tasks opened at ${first.at}, ${witch.at} and ${seer.at}`);
    }
    deadAt[n] = PEOPLE.filter((s) => !Object.keys(slots[0]).map(Number).includes(s)).map((s) => ROLE_OF[s]);
  }
  const text = lines.map((l) => l.text).join('\n');
  for (const w of ['天黑请闭眼', '预言家请睁眼。你要查验谁？', '狼人请睁眼，请确认同伴。今晚要刀谁？', '女巫请睁眼。']) if (!text.includes(w)) fail(`the table device never said "${w}"`);
  if (!deadAt[nights] || !deadAt[nights].includes(ROLE_OF[SEER])) fail(`the seer was not dead by the last night (${JSON.stringify(deadAt)}): the plan did not play`);
  log(`the table device called wolves, witch, seer each night from nightfall, at the phones' instants; the dead called too: ${Object.entries(deadAt).map(([n, d]) => `night ${n}: ${d.join(', ') || 'none dead'}`).join('; ')}`);

  // 9. On the wire: every decoy went out at night as 4096 bytes, like a night's command.
  for (const s of PEOPLE) {
    const p = phones[s];
    const decoys = p.sent.filter((f) => f.type === 'decoy');
    const mine = decoyTaps.filter((d) => d.endsWith(':' + s)).length;
    if (decoys.length !== mine || decoys.some((f) => f.bytes !== 4096)) fail(`${p.who}: sent ${decoys.length} decoys (${decoys.map((f) => f.bytes).join(',')} bytes), tapped ${mine}`);
    const nightActs = p.sent.filter((f) => f.type === 'act' && ['check', 'attack'].includes(f.cmd));
    if (nightActs.some((f) => f.bytes !== 4096)) fail(`${p.who}: a night's command went out unpadded`);
  }
  log('every decoy and every night command left its phone as a frame of 4096 bytes');
}

const srv = await startServer({ name: 'phonegame', log });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--autoplay-policy=no-user-gesture-required'],
});
let code = 0;
try {
  await main(srv.base, browser);
  // Chromium refuses a vibration before a page is touched (the table device never is)
  const real = problems.filter((p) => !/navigator\.vibrate/.test(p));
  if (real.length) fail('errors in the pages:\n' + real.join('\n'));
  log('ok');
} catch (e) {
  console.error('phonegame: FAIL:', e.message);
  if (problems.length) console.error(problems.join('\n'));
  code = 1;
} finally {
  await browser.close().catch(() => {});
  await srv.stop();
}
process.exit(code);
