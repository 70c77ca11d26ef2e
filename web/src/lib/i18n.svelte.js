// The loaded catalogue and the current language. Each language is its own
// chunk, loaded on demand: the domain file shared with the server
// (internal/i18n/locales/<lang>.json) and the UI's (locales/ui/<lang>.json).
import { LANGUAGES, has as hasKey, lookup, matchLanguage, speechLang } from './catalog.js';
import { describe as describeEvent, spoken } from './events.js';
import { load, save } from './storage.js';

const domainFiles = import.meta.glob('../../../internal/i18n/locales/*.json', { import: 'default' });
const uiFiles = import.meta.glob('../../../internal/i18n/locales/ui/*.json', { import: 'default' });

function fileOf(files, lang) {
  for (const [path, loader] of Object.entries(files)) {
    if (path.endsWith('/' + lang + '.json')) return loader;
  }
  return null;
}

let dict = $state.raw({});
export const lang = $state({ current: 'en', loading: false });

// The language a first visit gets: the one remembered, else the browser's.
export function initialLanguage() {
  const saved = load('lang', null);
  if (LANGUAGES.includes(saved)) return saved;
  return matchLanguage(globalThis.navigator ? navigator.languages || [navigator.language] : []);
}

export async function setLanguage(l, remember = true) {
  if (!LANGUAGES.includes(l)) return;
  lang.loading = true;
  try {
    const [d, u] = await Promise.all([fileOf(domainFiles, l)?.() ?? {}, fileOf(uiFiles, l)?.() ?? {}]);
    dict = { ...d, ...u };
    lang.current = l;
    document.documentElement.lang = l;
    if (remember) save('lang', l);
  } finally {
    lang.loading = false;
  }
}

// t is the catalogue's text for key, filled with params.
export function t(key, params) {
  return lookup(dict, key, params);
}

export function has(key) {
  return hasKey(dict, key);
}

// te is an event in words.
export function te(e) {
  return describeEvent(dict, e);
}

// te3: an event in the third person, the seat named (the replay's).
export function te3(e) {
  return describeEvent(dict, e, { third: true });
}

// ts: an event as the moderator says it aloud (events.js spoken).
export function ts(e) {
  return spoken(dict, e);
}

export function voiceLang() {
  return speechLang(lang.current);
}

// A role's name, a step's name.
export const roleName = (r) => (r ? t('role.' + r) : '');
export const stepName = (s) => (s ? t('step.' + s) : '');
