// wolfden's service worker: it keeps the client's shell (index.html, the
// content-hashed assets it names, the manifest and icons) so that the app
// installs and its pages open without the internet, from the wolfden server
// on the local network or, briefly, with no server at all. It never keeps
// what the game says: the API (/api/), the join links (/j/, redirects to
// the room of the moment), the WebSocket (/ws/, which a service worker
// never sees anyway) and the server's health go to the network every time.
//
// Pages: the network first (a new build is seen at once), the kept shell
// when the network fails. Assets: kept first, their names change with
// their content. The shell is replaced as a whole when a page brings a new
// index.html, and the assets it no longer names are dropped.

const SHELL = 'wolfden-shell-v1';
const FIXED = ['/manifest.webmanifest', '/icon.svg', '/icon-192.png', '/icon-512.png', '/icon-maskable-512.png'];
const NEVER = /^\/(api|ws|j|healthz|readyz|metrics)(\/|$)/;

// assetsOf lists the /assets/ files a page names (its script, its styles,
// and the catalogue chunks of every language, in its preload script).
function assetsOf(html) {
  return [...new Set(html.match(/\/assets\/[A-Za-z0-9._-]+/g) || [])];
}

// keepShell stores a page as the shell with every asset it names, and
// drops the assets of an older shell.
async function keepShell(cache, page) {
  const html = await page.clone().text();
  const assets = assetsOf(html);
  const missing = [];
  for (const a of assets) if (!(await cache.match(a))) missing.push(a);
  await cache.addAll(missing);
  await cache.put('/', page);
  const keep = new Set(assets);
  for (const req of await cache.keys()) {
    const p = new URL(req.url).pathname;
    if (p.startsWith('/assets/') && !keep.has(p)) await cache.delete(req);
  }
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL);
      await cache.addAll(FIXED);
      const page = await fetch('/', { cache: 'no-cache' });
      if (page.ok) await keepShell(cache, page);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const k of await caches.keys()) if (k !== SHELL) await caches.delete(k);
      await self.clients.claim();
    })(),
  );
});

const isPage = (res) => res.ok && res.type === 'basic' && (res.headers.get('Content-Type') || '').startsWith('text/html');

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin || NEVER.test(url.pathname)) return;
  if (req.mode === 'navigate') {
    event.respondWith(
      (async () => {
        try {
          const res = await fetch(req);
          if (isPage(res)) {
            const copy = res.clone();
            event.waitUntil(caches.open(SHELL).then((c) => keepShell(c, copy)).catch(() => {}));
          }
          return res;
        } catch (err) {
          const kept = await caches.match('/');
          if (kept) return kept;
          throw err;
        }
      })(),
    );
    return;
  }
  if (url.pathname.startsWith('/assets/') || FIXED.includes(url.pathname)) {
    event.respondWith(
      (async () => {
        const cache = await caches.open(SHELL);
        const kept = await cache.match(url.pathname);
        if (kept) return kept;
        const res = await fetch(req);
        if (res.ok && res.type === 'basic') await cache.put(url.pathname, res.clone());
        return res;
      })(),
    );
  }
});
