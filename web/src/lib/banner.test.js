import { describe, expect, it } from 'vitest';
import { clockText, deadlineText, leftText, noticeText, phaseTitle, secondsLeft, stepLine } from './banner.js';

// t shows the key and its params, so a test sees which line was chosen.
const t = (k, p) => (p ? `${k}${JSON.stringify(p)}` : k);
const stepName = (s) => `<${s}>`;

describe('phaseTitle', () => {
  it('names the phase from the state: starting, over, the night by its number, before day 1, the day', () => {
    expect(phaseTitle(null, false, 0, t)).toBe('ui.banner.starting');
    expect(phaseTitle({ over: true, day: 3 }, true, 3, t)).toBe('ui.banner.over');
    expect(phaseTitle({ day: 1 }, true, 2, t)).toBe('ui.phase.night{"n":2}');
    expect(phaseTitle({ day: 0 }, true, 0, t)).toBe('ui.phase.night{"n":1}'); // the first night before its number is known
    expect(phaseTitle({ day: 0 }, false, 0, t)).toBe('ui.phase.before_day');
    expect(phaseTitle({ day: 4 }, false, 3, t)).toBe('ui.phase.day{"n":4}');
  });
});

describe('stepLine', () => {
  it('says who speaks in a speech, whose turn it is in another step, else the step alone', () => {
    expect(stepLine({ step: 'speech', turn: 5 }, t, stepName)).toBe('ui.banner.speaking{"step":"<speech>","seat":5}');
    expect(stepLine({ step: 'campaign', turn: 2 }, t, stepName)).toBe('ui.banner.speaking{"step":"<campaign>","seat":2}');
    expect(stepLine({ step: 'vote', turn: 7 }, t, stepName)).toBe('ui.banner.turn{"step":"<vote>","seat":7}');
    expect(stepLine({ step: 'vote' }, t, stepName)).toBe('<vote>');
  });
});

describe('secondsLeft and clockText', () => {
  it('counts whole seconds up to the end on the server\'s clock, never below 0', () => {
    expect(secondsLeft(0, 0, 1000)).toBe(null);
    expect(secondsLeft(10000, 0, 1000)).toBe(9);
    expect(secondsLeft(10000, 0, 1001)).toBe(9); // 8.999 s rounds up
    expect(secondsLeft(10000, 2000, 1000)).toBe(7); // the server 2 s ahead of the device
    expect(secondsLeft(10000, 0, 20000)).toBe(0);
  });
  it('shows m:ss', () => {
    expect(clockText(null)).toBe('');
    expect(clockText(0)).toBe('0:00');
    expect(clockText(9)).toBe('0:09');
    expect(clockText(90)).toBe('1:30');
  });
});

describe('deadlines of hours (forum pace)', () => {
  const at = (h, m) => new Date(2026, 11, 5, h, m).getTime();
  it('says what is left in hours and minutes, the minutes rounded up', () => {
    expect(leftText(3600, t)).toBe('ui.left.hours{"h":1}');
    expect(leftText(3601, t)).toBe('ui.left.hours_minutes{"h":1,"m":1}');
    expect(leftText(590, t)).toBe('ui.left.minutes{"m":10}');
  });
  it('says the deadline as a time of day, with the date when it is not today', () => {
    expect(deadlineText(at(20, 0), 0, at(19, 0), t, 'en-GB')).toBe('ui.banner.deadline{"time":"20:00","left":"ui.left.hours{\\"h\\":1}"}');
    expect(deadlineText(0, 0, at(19, 0), t, 'en-GB')).toBe('');
    expect(deadlineText(at(20, 0) + 86400000, 0, at(19, 0), t, 'en-GB')).toContain('06/12');
  });
  it('shows a night reminder only to a seat that owes an action, never on a table, and a day one with its seats', () => {
    const o = { skew: 0, now: at(19, 0), t, locale: 'en-GB', same: false };
    const night = { type: 'remind', deadline: at(20, 0), left: 3600000, night: true, seats: [] };
    expect(noticeText(night, { night: true, pending: true }, o)).toContain('ui.remind{');
    expect(noticeText(night, { night: true, pending: false }, o)).toBe('');
    expect(noticeText(night, { night: true, pending: true }, { ...o, same: true })).toBe('');
    expect(noticeText(night, { night: true, pending: true }, { ...o, now: at(20, 1) })).toBe('');
    const day = { type: 'remind', deadline: at(20, 0), left: 3600000, night: false, seats: [3, 5] };
    expect(noticeText(day, { night: false }, o)).toContain('ui.remind.seats{"seats":"3, 5"');
    const ext = { type: 'extend', by: 7200000, came: at(19, 0) };
    expect(noticeText(ext, { night: false }, o)).toBe('ui.extended{"left":"ui.left.hours{\\"h\\":2}"}');
    expect(noticeText(ext, { night: false }, { ...o, now: at(19, 2) })).toBe('');
  });
});
