import { describe, expect, test } from 'vitest';
import { fill, first, lookup, matchLanguage, matchTag, merge, speechLang } from './catalog.js';

describe('matchLanguage', () => {
  test.each([
    [['zh-TW'], 'zh-Hant'],
    [['zh-HK', 'en'], 'zh-Hant'],
    [['zh-MO'], 'zh-Hant'],
    [['zh-Hant-HK'], 'zh-Hant'],
    [['zh-CN'], 'zh-Hans'],
    [['zh'], 'zh-Hans'],
    [['zh-Hans-TW'], 'zh-Hans'],
    [['zh-SG'], 'zh-Hans'],
    [['en-GB', 'zh-CN'], 'en'],
    [['fr-FR', 'zh-TW'], 'zh-Hant'],
    [['fr-FR', 'de'], 'en'],
    [[], 'en'],
    [undefined, 'en'],
    [['ZH_tw'], 'zh-Hant'],
  ])('%j → %s', (tags, want) => {
    expect(matchLanguage(tags)).toBe(want);
  });
  test('unknown tags are not matched', () => {
    expect(matchTag('fr')).toBe(null);
    expect(matchTag('zhx')).toBe(null);
    expect(matchTag(42)).toBe(null);
  });
  test('speech voices', () => {
    expect(speechLang('zh-Hans')).toBe('zh-CN');
    expect(speechLang('zh-Hant')).toBe('zh-TW');
    expect(speechLang('en')).toBe('en-US');
  });
});

describe('templates', () => {
  const dict = {
    'event.death': '{seat}号玩家死亡（{cause}）',
    'event.dawn.none': '平安夜',
    'event.dawn': '昨晚死亡的是：{mask}',
    'role.seer': '预言家',
  };
  test('fill replaces every placeholder', () => {
    expect(fill('{seat} checks {target}: {role}', { seat: 3, target: 5, role: 'wolf' })).toBe('3 checks 5: wolf');
    expect(fill('{seat} and {seat}', { seat: 1 })).toBe('1 and 1');
  });
  test('a missing parameter shows', () => {
    expect(fill('{seat} → {target}', { seat: 1 })).toBe('1 → {target}');
    expect(fill('{x}', { x: null })).toBe('{x}');
    expect(fill('{x}', { x: 0 })).toBe('0');
  });
  test('lookup fills, and a missing key reads as itself', () => {
    expect(lookup(dict, 'event.death', { seat: 4, cause: '出局' })).toBe('4号玩家死亡（出局）');
    expect(lookup(dict, 'role.seer')).toBe('预言家');
    expect(lookup(dict, 'role.nobody')).toBe('role.nobody');
  });
  test('first takes the first key present: a suffixed variant before the plain key', () => {
    expect(first(dict, ['event.dawn.none', 'event.dawn'], { mask: '' })).toBe('平安夜');
    expect(first(dict, ['event.dawn.some', 'event.dawn'], { mask: '3、5' })).toBe('昨晚死亡的是：3、5');
    expect(first(dict, ['a', 'b'])).toBe(null);
  });
  test('merge: later files win', () => {
    expect(merge({ a: '1', b: '2' }, null, { b: '3' })).toEqual({ a: '1', b: '3' });
  });
});
