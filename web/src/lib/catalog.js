// The message catalogue: lookups, templates and the choice of language.
// Pure functions; i18n.svelte.js holds the loaded catalogue.

// The catalogue's languages (internal/i18n), the fallback last.
export const LANGUAGES = ['zh-Hans', 'zh-Hant', 'en'];
export const FALLBACK = 'en';

// matchLanguage picks the catalogue language for a list of BCP 47 tags in
// order of preference (navigator.languages): the first tag we can serve
// decides (zh-TW, zh-HK, zh-MO, zh-Hant… → zh-Hant; any other zh → zh-Hans;
// en… → en); with none, English.
export function matchLanguage(tags) {
  for (const tag of tags || []) {
    const l = matchTag(tag);
    if (l) return l;
  }
  return FALLBACK;
}

export function matchTag(tag) {
  if (typeof tag !== 'string') return null;
  const t = tag.toLowerCase().replace(/_/g, '-');
  if (t === 'zh-hans' || t.startsWith('zh-hans-')) return 'zh-Hans';
  if (t.startsWith('zh-hant') || /^zh-(tw|hk|mo)\b/.test(t)) return 'zh-Hant';
  if (t === 'zh' || t.startsWith('zh-')) return 'zh-Hans';
  if (t === 'en' || t.startsWith('en-')) return 'en';
  return null;
}

// The speech synthesis language of a catalogue language.
export function speechLang(lang) {
  return { 'zh-Hans': 'zh-CN', 'zh-Hant': 'zh-TW' }[lang] || 'en-US';
}

// fill replaces each {name} of a template by params[name]; a placeholder
// without a value is left as it is, so a missing parameter shows.
export function fill(template, params) {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (m, k) => (params[k] === undefined || params[k] === null ? m : String(params[k])));
}

// lookup is dict[key] filled with params; a missing key reads as the key
// itself, so that it is seen and reported rather than silently blank.
export function lookup(dict, key, params) {
  const s = dict[key];
  return s === undefined ? key : fill(s, params);
}

// first is the first of keys that the catalogue has, filled; or null.
export function first(dict, keys, params) {
  for (const k of keys) {
    if (dict[k] !== undefined) return fill(dict[k], params);
  }
  return null;
}

// has reports whether the catalogue has the key.
export function has(dict, key) {
  return dict[key] !== undefined;
}

// merge builds one language's catalogue from its files: the domain file
// shared with the server and the UI file; a missing key of the language
// reads the fallback language's.
export function merge(...dicts) {
  return Object.assign({}, ...dicts.filter(Boolean));
}
