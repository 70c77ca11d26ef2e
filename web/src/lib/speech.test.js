import { expect, test } from 'vitest';
import { chooseVoice } from './speech.js';

const voices = [
  { name: 'en-GB remote', lang: 'en-GB', localService: false },
  { name: 'Mei-Jia', lang: 'zh-TW', localService: true },
  { name: 'HK', lang: 'zh_HK', localService: true },
  { name: 'Ting-Ting', lang: 'zh-CN', localService: false },
  { name: 'Samantha', lang: 'en-US', localService: true },
];

test('voices by language', () => {
  expect(chooseVoice(voices, 'zh-CN').name).toBe('Ting-Ting');
  expect(chooseVoice(voices, 'zh-TW').name).toBe('Mei-Jia');
  expect(chooseVoice(voices.filter((v) => v.lang !== 'zh-TW'), 'zh-TW').name).toBe('HK');
  expect(chooseVoice(voices, 'en-US').name).toBe('Samantha');
  expect(chooseVoice(voices.slice(0, 1), 'en-US').name).toBe('en-GB remote');
  expect(chooseVoice([], 'en-US')).toBe(null);
  expect(chooseVoice(voices.slice(4), 'zh-CN')).toBe(null);
});
