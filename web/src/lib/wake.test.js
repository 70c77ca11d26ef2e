import { describe, expect, it } from 'vitest';
import { keepAwake } from './wake.js';

// A document whose visibility the test sets, and a wake lock API that
// releases its locks when the page is hidden, as browsers do.
function fakes({ refuse = false } = {}) {
  const listeners = new Set();
  const doc = {
    visibilityState: 'visible',
    addEventListener: (k, f) => k === 'visibilitychange' && listeners.add(f),
    removeEventListener: (k, f) => k === 'visibilitychange' && listeners.delete(f),
  };
  const locks = [];
  const nav = {
    wakeLock: {
      async request(type) {
        if (refuse) throw new Error('NotAllowedError');
        const l = {
          type,
          released: false,
          onrelease: [],
          addEventListener(k, f) {
            if (k === 'release') this.onrelease.push(f);
          },
          async release() {
            if (this.released) return;
            this.released = true;
            this.onrelease.forEach((f) => f());
          },
        };
        locks.push(l);
        return l;
      },
    },
  };
  const settle = () => new Promise((r) => setTimeout(r, 0));
  return {
    doc,
    nav,
    locks,
    settle,
    async hide() {
      doc.visibilityState = 'hidden';
      for (const l of locks) await l.release(); // the browser lets go of a hidden page's locks
      listeners.forEach((f) => f());
      await settle();
    },
    async show() {
      doc.visibilityState = 'visible';
      listeners.forEach((f) => f());
      await settle();
    },
    listeners,
  };
}

describe('keepAwake', () => {
  it('holds a screen lock, and asks again when the page is shown after being hidden', async () => {
    const f = fakes();
    const seen = [];
    const w = keepAwake({ nav: f.nav, doc: f.doc, onchange: (h) => seen.push(h) });
    await w.ready;
    expect(w.held).toBe(true);
    expect(f.locks[0].type).toBe('screen');
    await f.hide();
    expect(w.held).toBe(false);
    await f.show();
    expect(w.held).toBe(true);
    expect(f.locks).toHaveLength(2);
    expect(seen).toEqual([true, false, true]);
  });
  it('lets the lock go and stops listening on release', async () => {
    const f = fakes();
    const w = keepAwake({ nav: f.nav, doc: f.doc });
    await w.ready;
    await w.release();
    expect(f.locks[0].released).toBe(true);
    expect(f.listeners.size).toBe(0);
    await f.show();
    expect(f.locks).toHaveLength(1);
  });
  it('does nothing, and breaks nothing, where the API refuses or the page has no document', async () => {
    const none = keepAwake({ nav: {}, doc: fakes().doc });
    await none.ready;
    expect(none.supported).toBe(false);
    expect(none.mode).toBe('none');
    expect(none.held).toBe(false);
    await none.release();
    const f = fakes({ refuse: true });
    const w = keepAwake({ nav: f.nav, doc: f.doc });
    await w.ready;
    expect(w.supported).toBe(true);
    expect(w.mode).toBe('lock');
    expect(w.held).toBe(false);
  });
});

// A page without the Wake Lock API: its document dispatches taps and
// visibility changes; its video plays as a browser's does (its 'playing'
// and 'pause' events), refusing the first refuse plays.
function videoPage({ refuse = 0 } = {}) {
  const listeners = new Map();
  const on = (k) => listeners.get(k) || listeners.set(k, new Set()).get(k);
  const doc = {
    visibilityState: 'visible',
    body: {},
    createElement: () => ({}),
    addEventListener: (k, f) => on(k).add(f),
    removeEventListener: (k, f) => on(k).delete(f),
  };
  const videos = [];
  const video = () => {
    const ev = new Map();
    const v = {
      paused: true,
      removed: false,
      plays: 0,
      addEventListener: (k, f) => (ev.get(k) || ev.set(k, []).get(k)).push(f),
      fire: (k) => (ev.get(k) || []).forEach((f) => f()),
      play() {
        v.plays++;
        if (refuse-- > 0) return Promise.reject(new Error('NotAllowedError'));
        v.paused = false;
        v.fire('playing');
        return Promise.resolve();
      },
      pause() {
        if (v.paused) return;
        v.paused = true;
        v.fire('pause');
      },
      remove() {
        v.removed = true;
      },
    };
    videos.push(v);
    return v;
  };
  const fire = (k) => [...on(k)].forEach((f) => f({ type: k }));
  const count = () => [...listeners.values()].reduce((n, s) => n + s.size, 0);
  return { doc, video, videos, fire, count };
}

describe('keepAwake without the Wake Lock API (an insecure page)', () => {
  it('plays a muted looping video from the first tap, and stops it on release', async () => {
    const p = videoPage();
    const seen = [];
    const w = keepAwake({ nav: {}, doc: p.doc, video: p.video, onchange: (h) => seen.push(h) });
    expect(w.mode).toBe('video');
    expect(w.supported).toBe(true);
    expect(p.videos).toHaveLength(0); // nothing plays before a tap
    expect(w.held).toBe(false);
    p.fire('touchend');
    expect(p.videos).toHaveLength(1);
    expect(w.held).toBe(true);
    p.fire('click'); // later taps change nothing
    expect(p.videos[0].plays).toBe(1);
    await w.release();
    expect(p.videos[0].paused).toBe(true);
    expect(p.videos[0].removed).toBe(true);
    expect(w.held).toBe(false);
    expect(seen).toEqual([true, false]);
    expect(p.count()).toBe(0);
  });
  it('tries again at the next tap when the browser refuses to play', async () => {
    const p = videoPage({ refuse: 1 });
    const w = keepAwake({ nav: {}, doc: p.doc, video: p.video });
    p.fire('click');
    await Promise.resolve();
    expect(w.held).toBe(false);
    p.fire('keydown');
    expect(w.held).toBe(true);
    expect(p.videos).toHaveLength(1);
    expect(p.videos[0].plays).toBe(2);
  });
  it('plays again when the page is shown after the browser paused it', async () => {
    const p = videoPage();
    const w = keepAwake({ nav: {}, doc: p.doc, video: p.video });
    p.fire('click');
    p.doc.visibilityState = 'hidden';
    p.videos[0].pause(); // the browser pauses a hidden page's video
    p.fire('visibilitychange');
    expect(w.held).toBe(false);
    p.doc.visibilityState = 'visible';
    p.fire('visibilitychange');
    expect(w.held).toBe(true);
  });
});
