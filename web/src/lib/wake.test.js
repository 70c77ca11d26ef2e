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
  it('does nothing, and breaks nothing, where the API is missing or refuses', async () => {
    const none = keepAwake({ nav: {}, doc: fakes().doc });
    await none.ready;
    expect(none.supported).toBe(false);
    expect(none.held).toBe(false);
    await none.release();
    const f = fakes({ refuse: true });
    const w = keepAwake({ nav: f.nav, doc: f.doc });
    await w.ready;
    expect(w.supported).toBe(true);
    expect(w.held).toBe(false);
  });
});
