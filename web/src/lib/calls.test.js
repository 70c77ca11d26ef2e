import { describe, expect, it } from 'vitest';
import { callLines, spacing } from './calls.js';

const cat = {
  'role.open': '{role}请睁眼。',
  'role.close': '{role}请闭眼。',
  'role.seer': '预言家',
  'group.wolves': '狼人',
};
const tr = (k, p) => (cat[k] || k).replace('{role}', p ? p.role : '');

describe('callLines', () => {
  it('says each role call with the role or group name, leaving nightfall and dawn to their events', () => {
    const calls = [{ key: 'night.falls' }, { key: 'role.open', role: 'seer' }, { key: 'role.close', role: 'seer' },
      { key: 'role.open', group: 'wolves' }, { key: 'day.breaks' }];
    expect(callLines(calls, tr)).toEqual(['预言家请睁眼。', '预言家请闭眼。', '狼人请睁眼。']);
  });
  it('capitalizes an English line', () => {
    const en = (k, p) => ({ 'role.open': '{role}, open your eyes.', 'role.seer': 'seer' })[k].replace('{role}', p ? p.role : '');
    expect(callLines([{ key: 'role.open', role: 'seer' }], en)).toEqual(['Seer, open your eyes.']);
  });
  it('has nothing to say without calls', () => {
    expect(callLines(undefined, tr)).toEqual([]);
  });
});

describe('spacing', () => {
  it('shares the night among the lines', () => {
    expect(spacing(4, 42000)).toBe(10000);
  });
  it('never runs lines together', () => {
    expect(spacing(10, 3000)).toBe(1500);
  });
});
