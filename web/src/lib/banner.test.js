import { describe, expect, it } from 'vitest';
import { clockText, phaseTitle, secondsLeft, stepLine } from './banner.js';

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
