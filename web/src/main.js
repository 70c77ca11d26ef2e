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
