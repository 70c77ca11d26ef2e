import './app.css';
import { mount } from 'svelte';
import App from './App.svelte';
import { initialLanguage, setLanguage } from './lib/i18n.svelte.js';

// The catalogue of the language comes first, so nothing shows as a key.
setLanguage(initialLanguage(), false)
  .catch(() => {})
  .finally(() => {
    const target = document.getElementById('app');
    target.replaceChildren(); // index.html's frame, shown until now
    mount(App, { target });
  });

// The installable app (public/sw.js): the shell kept for a table without
// the internet. Only in a build (a worker would keep the dev server's
// files), and only where the browser allows one (a secure context:
// https, or localhost).
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  addEventListener('load', () => navigator.serviceWorker.register('/sw.js').catch(() => {}));
}
