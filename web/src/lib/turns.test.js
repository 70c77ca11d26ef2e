import { describe, expect, it } from 'vitest';
import { applyFrame, newGame } from './game.js';
import { currentTurn, secs, speechTurns, spoke, withTurnEnds, wordsOf } from './turns.js';

const step = (seq, seat, at, s = 'speech') => ({ seq, kind: 'step', step: s, seat, at });
const chat = (seq, seat, at, text = 'hi', channel = 'day') => ({ seq, seat, at, text, channel });

describe('speech turns', () => {
  const events = [step(1, 3, 1000), { seq: 2, kind: 'claim', seat: 3, value: 1, role: 'seer' }, step(3, 4, 5000), step(4, 5, 9000)];

  it('runs from the speaker\'s step to the next step', () => {
    const t = speechTurns(events);
    expect(t.map((x) => [x.seat, x.start, x.endSeq, x.end])).toEqual([[3, 1000, 3, 5000], [4, 5000, 4, 9000], [5, 9000, 0, 0]]);
  });

  it('says a seat spoke when he wrote in the day channel during his turn, else passed', () => {
    const chats = [chat(1, 3, 2000), chat(2, 4, 12000), chat(3, 4, 3000, 'before my turn')];
    const t = speechTurns(events);
    expect(spoke(t[0], chats)).toBe(true);
    expect(spoke(t[1], chats)).toBe(false); // his words came before and after his turn
    expect(spoke(t[2], chats)).toBe(null); // not over
    expect(spoke(t[0], [chat(1, 3, 2000, 'x', 'wolves')])).toBe(false); // the wolves' channel is no speech
  });

  it('does not judge a turn whose stamps are not known', () => {
    const t = speechTurns([step(1, 3, 0), step(2, 4, 0)]);
    expect(spoke(t[0], [chat(1, 3, 10)])).toBe(null);
  });

  it('puts a line for every seat where a turn ended, in place of the speaker\'s own end', () => {
    const log = withTurnEnds([step(1, 3, 1000), { seq: 2, kind: 'skip', seat: 3, speech: true, at: 4000 }, step(3, 4, 5000), step(4, 5, 9000)], [chat(1, 3, 1500)]);
    expect(log.map((e) => (e.kind === 'turn_end' ? `end ${e.seat} ${e.spoke}` : e.kind + ' ' + e.seq))).toEqual([
      'step 1', 'end 3 true', 'step 3', 'end 4 false', 'step 4',
    ]);
  });
});

describe('the turn under way', () => {
  it('begins at its stamp, or after a reload at its deadline less the speech timer', () => {
    const st = { day: 1, step: 'speech', turn: 4, deadline: 100000 };
    expect(currentTurn([step(1, 3, 1000), step(2, 4, 5000)], st, 90).start).toBe(5000);
    const t = currentTurn([step(1, 3, 0), step(2, 4, 0)], st, 90);
    expect(t.start).toBe(10000);
    const chats = [chat(1, 4, 9000, 'in turn 1'), chat(2, 4, 20000, 'mine'), chat(3, 5, 30000, 'not his')];
    expect(wordsOf(t, chats).map((c) => c.text)).toEqual(['in turn 1', 'mine']); // within the slack
    expect(currentTurn([step(1, 3, 0)], st, 90)).toBe(null); // seat 4's step not in the log
    expect(currentTurn([step(1, 4, 0)], { ...st, night: true }, 90)).toBe(null);
  });

  it('reads the room\'s timers', () => {
    expect(secs('90s')).toBe(90);
    expect(secs('1m30s')).toBe(90);
    expect(secs(45)).toBe(45);
  });
});

describe('stamps', () => {
  it('are given to live events and kept for a reload', () => {
    const g = newGame('r');
    let clock = 1000;
    g.now = () => clock;
    applyFrame(g, { type: 'welcome', room: 'r', seat: 1, players: 9 });
    applyFrame(g, { type: 'event', seq: 1, kind: 'step', step: 'speech', seat: 2 }); // caught up: no time known
    applyFrame(g, { type: 'state', day: 1, step: 'speech', turn: 2 });
    clock = 5000;
    applyFrame(g, { type: 'event', seq: 2, kind: 'step', step: 'speech', seat: 3 });
    applyFrame(g, { type: 'event', seq: 3, kind: 'claim', seat: 3, value: 1 });
    expect(g.events.map((e) => e.at)).toEqual([undefined, 5000, undefined]);
    const h = newGame('r');
    h.stamps = { ...g.stamps };
    applyFrame(h, { type: 'welcome', room: 'r', seat: 1, players: 9 });
    applyFrame(h, { type: 'event', seq: 1, kind: 'step', step: 'speech', seat: 2 });
    applyFrame(h, { type: 'event', seq: 2, kind: 'step', step: 'speech', seat: 3 });
    expect(h.events.map((e) => e.at)).toEqual([undefined, 5000]);
  });
});

describe('what ends a speech', () => {
  it('is not another seat\'s red card, death or exile', () => {
    const t = speechTurns([step(1, 2, 1000, 'last_words'), { seq: 2, kind: 'red_card', seat: 9, at: 2000 }, { seq: 3, kind: 'death', seat: 9, at: 2000 }]);
    expect(t[0].endSeq).toBe(0);
    const st = { day: 1, step: 'last_words', turn: 2, deadline: 30000 };
    expect(wordsOf(currentTurn([step(1, 2, 1000, 'last_words'), { seq: 2, kind: 'red_card', seat: 9, at: 2000 }], st, 20), [chat(1, 2, 5000)]).length).toBe(1);
  });
  it('is his own red card', () => {
    expect(speechTurns([step(1, 2, 1000), { seq: 2, kind: 'red_card', seat: 2, at: 2000 }])[0].endSeq).toBe(2);
  });
});
