// The moderator's voice: window.speechSynthesis in the chosen language.

// chooseVoice picks the best voice for a speech language (zh-CN, zh-TW,
// en-US): the exact language, then a near one (zh-HK for zh-TW, any en),
// the local voices first. Pure, for tests.
export function chooseVoice(voices, speechLang) {
  const want = speechLang.toLowerCase();
  const norm = (v) => (v.lang || '').toLowerCase().replace(/_/g, '-');
  const near = {
    'zh-cn': ['zh-cn', 'zh-hans', 'cmn-hans', 'zh-sg', 'zh'],
    'zh-tw': ['zh-tw', 'zh-hant', 'cmn-hant', 'zh-hk', 'zh-mo'],
  }[want] || [want, want.split('-')[0]];
  for (const prefix of near) {
    const fit = voices.filter((v) => norm(v) === prefix || norm(v).startsWith(prefix + '-'));
    if (fit.length) return fit.find((v) => v.localService) || fit[0];
  }
  return null;
}

export function canSpeak() {
  return typeof window !== 'undefined' && 'speechSynthesis' in window && 'SpeechSynthesisUtterance' in window;
}

// speak queues a line; it never throws.
export function speak(text, speechLang) {
  if (!canSpeak() || !text) return;
  try {
    const u = new SpeechSynthesisUtterance(text);
    u.lang = speechLang;
    const v = chooseVoice(window.speechSynthesis.getVoices() || [], speechLang);
    if (v) u.voice = v;
    u.rate = 0.95;
    window.speechSynthesis.speak(u);
  } catch {
    // no voice: the text is on screen anyway
  }
}

export function hush() {
  if (canSpeak()) window.speechSynthesis.cancel();
}
