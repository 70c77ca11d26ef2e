import { expect, test } from 'vitest';
import { preloadScript } from './preload.js';
import { matchLanguage } from './catalog.js';

const chunks = { 'zh-Hans': ['/assets/zh-Hans-a.js', '/assets/zh-Hans-b.js'], 'zh-Hant': ['/assets/zh-Hant-a.js'], en: ['/assets/en-a.js'] };

// run evaluates the script as a page would, and answers what it preloaded.
function run(saved, languages) {
  const links = [];
  const env = {
    localStorage: { getItem: (k) => (k === 'wolfden.lang' ? saved : null) },
    navigator: { languages, language: languages && languages[0] },
    document: { createElement: () => ({}), head: { appendChild: (l) => links.push(l) } },
  };
  new Function('localStorage', 'navigator', 'document', preloadScript(chunks))(env.localStorage, env.navigator, env.document);
  expect(links.every((l) => l.rel === 'modulepreload')).toBe(true);
  return links.map((l) => l.href);
}

test.each([
  [['zh-TW'], 'zh-Hant'],
  [['fr', 'zh-CN'], 'zh-Hans'],
  [['en-GB'], 'en'],
  [['de'], 'en'],
  [[], 'en'],
])('the browser says %j: the catalogue of %s is preloaded, the one the app loads', (tags, want) => {
  expect(matchLanguage(tags)).toBe(want);
  expect(run(null, tags)).toEqual(chunks[want]);
});

test('the language remembered comes first', () => {
  expect(run('"zh-Hant"', ['en-US'])).toEqual(chunks['zh-Hant']);
  expect(run('"klingon"', ['zh-CN'])).toEqual(chunks['zh-Hans']);
  expect(run('not json', ['zh-CN'])).toEqual(chunks['zh-Hans']);
});

test('the script has no closing tag to break out of its element', () => {
  expect(preloadScript({ en: ['</script>'] })).not.toMatch(/<\/script/i);
});
