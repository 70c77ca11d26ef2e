// The screen kept on while a game runs (issue 16): a phone lying on the
// table must not go dark between a night's tasks. The Screen Wake Lock API
// where the browser has it; the browser releases the lock whenever the page
// is hidden, so it is asked for again each time the page is shown. Where
// the API is missing (or refuses: a low battery, no secure context) nothing
// happens and nothing breaks: the phone sleeps as it would.

// keepAwake holds a screen wake lock until release() is called. It reports
// whether a lock is held through onchange(held).
export function keepAwake({ nav = globalThis.navigator, doc = globalThis.document, onchange = () => {} } = {}) {
  const api = nav && nav.wakeLock;
  let lock = null;
  let wanted = true;
  let asking = null;

  const set = (l) => {
    lock = l;
    onchange(!!l);
  };

  async function acquire() {
    if (!api || !wanted || lock || asking) return;
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
  if (api && doc) doc.addEventListener('visibilitychange', onVisible);
  const first = acquire();

  return {
    supported: !!api,
    ready: first,
    get held() {
      return !!lock;
    },
    async release() {
      wanted = false;
      if (api && doc) doc.removeEventListener('visibilitychange', onVisible);
      if (asking) await asking;
      const l = lock;
      set(null);
      if (l) await l.release().catch(() => {});
    },
  };
}
