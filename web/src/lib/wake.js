// The screen kept on while a game runs (issue 16): a phone lying on the
// table must not go dark between a night's tasks. The Screen Wake Lock API
// where the browser has it; the browser releases the lock whenever the page
// is hidden, so it is asked for again each time the page is shown. Where
// the API refuses (a low battery) nothing happens and nothing breaks: the
// phone sleeps as it would.
//
// Where the API is missing (browsers offer it only to a secure page, and a
// server on the local network is plain http://), the technique of the
// nosleep.js package: a muted, looping, inline video plays, which browsers
// keep the screen on for. It starts on the first tap (a browser may play a
// video only after one), and plays again when the page is shown after it
// was hidden (or, if the browser refuses, at the next tap).
import { mp4, webm } from './blank-video.js';

// keepAwake keeps the screen on until release() is called. It reports
// whether it does through onchange(held); mode says how: 'lock' (the Wake
// Lock API), 'video' (the looping video) or 'none'.
export function keepAwake({ nav = globalThis.navigator, doc = globalThis.document, onchange = () => {}, video = blankVideo } = {}) {
  if (!(nav && nav.wakeLock)) return videoAwake({ doc, onchange, video });
  return lockAwake({ nav, doc, onchange });
}

function lockAwake({ nav, doc, onchange }) {
  const api = nav.wakeLock;
  let lock = null;
  let wanted = true;
  let asking = null;

  const set = (l) => {
    lock = l;
    onchange(!!l);
  };

  async function acquire() {
    if (!wanted || lock || asking) return;
    if (doc && doc.visibilityState && doc.visibilityState !== 'visible') return;
    asking = (async () => {
      try {
        const l = await api.request('screen');
        if (!wanted) {
          l.release().catch(() => {});
          return;
        }
        l.addEventListener?.('release', () => {
          if (lock === l) set(null);
        });
        set(l);
      } catch {
        set(null); // refused: the phone sleeps as it would
      } finally {
        asking = null;
      }
    })();
    await asking;
  }

  const onVisible = () => {
    if (doc.visibilityState === 'visible') acquire();
  };
  if (doc) doc.addEventListener('visibilitychange', onVisible);
  const first = acquire();

  return {
    supported: true,
    mode: 'lock',
    ready: first,
    get held() {
      return !!lock;
    },
    async release() {
      wanted = false;
      if (doc) doc.removeEventListener('visibilitychange', onVisible);
      if (asking) await asking;
      const l = lock;
      set(null);
      if (l) await l.release().catch(() => {});
    },
  };
}

// The user's gestures a browser lets a page start playing on.
const TAPS = ['click', 'touchend', 'keydown'];

function videoAwake({ doc, onchange, video }) {
  if (!doc || !doc.createElement || !doc.body) {
    return { supported: false, mode: 'none', ready: Promise.resolve(), held: false, release: async () => {} };
  }
  let v = null;
  let held = false;
  const set = (h) => {
    if (h === held) return;
    held = h;
    onchange(h);
  };
  const onTap = () => {
    if (held) return;
    if (!v) {
      v = video(doc);
      v.addEventListener('playing', () => set(true));
      v.addEventListener('pause', () => set(false));
    }
    v.play()?.catch?.(() => {}); // refused: the next tap tries again
  };
  const onVisible = () => {
    if (doc.visibilityState === 'visible' && v && v.paused) v.play()?.catch?.(() => {});
  };
  for (const k of TAPS) doc.addEventListener(k, onTap, true);
  doc.addEventListener('visibilitychange', onVisible);
  return {
    supported: true,
    mode: 'video',
    ready: Promise.resolve(),
    get held() {
      return held;
    },
    async release() {
      for (const k of TAPS) doc.removeEventListener(k, onTap, true);
      doc.removeEventListener('visibilitychange', onVisible);
      if (v) {
        v.pause();
        v.remove();
      }
      set(false);
    },
  };
}

// blankVideo is the playing video, invisible and covering the screen:
// Chromium keeps the screen on only for a video mostly on screen and
// taking a fifth of it at least, or for one with sound (its
// VideoWakeLock), and so an opacity of 0, which leaves its geometry alone.
function blankVideo(doc) {
  const v = doc.createElement('video');
  v.muted = true;
  v.loop = true;
  v.playsInline = true;
  for (const a of ['muted', 'loop', 'playsinline', 'disablepictureinpicture', 'disableremoteplayback']) v.setAttribute(a, '');
  v.setAttribute('aria-hidden', 'true');
  v.setAttribute('data-testid', 'wake-video');
  v.tabIndex = -1;
  v.style.cssText = 'position:fixed;inset:0;width:100%;height:100%;object-fit:cover;opacity:0;pointer-events:none;z-index:-1';
  for (const [src, type] of [[mp4, 'video/mp4'], [webm, 'video/webm']]) {
    const s = doc.createElement('source');
    s.src = src;
    s.type = type;
    v.append(s);
  }
  doc.body.append(v);
  return v;
}
