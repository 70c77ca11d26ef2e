// A tiny router: the page is location.pathname; links call navigate.
import { match } from './routes.js';

export const router = $state({ path: location.pathname, query: new URLSearchParams(location.search) });

export function route() {
  return match(router.path);
}

export function navigate(to, { replace = false } = {}) {
  const url = new URL(to, location.href);
  if (replace) history.replaceState({}, '', url);
  else history.pushState({}, '', url);
  router.path = url.pathname;
  router.query = url.searchParams;
  window.scrollTo(0, 0);
}

// link handles a click on an <a href>: an ordinary left click stays in the app.
export function link(event) {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const a = event.currentTarget;
  if (a.target || a.hasAttribute('download')) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin) return;
  event.preventDefault();
  navigate(url.pathname + url.search);
}

addEventListener('popstate', () => {
  router.path = location.pathname;
  router.query = new URLSearchParams(location.search);
});
