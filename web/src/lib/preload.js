// The inline script of index.html that starts loading the language's
// catalogue at once, beside the app's script rather than after it: it picks
// the language as the app will (the one remembered, else the browser's, by
// matchTag) and adds a modulepreload link for each of that language's
// chunks. Built into the page by vite.config.js (build/plugins.js); the
// server allows it by its hash (internal/server/static.go).
import { FALLBACK, LANGUAGES, matchTag } from './catalog.js';

// preloadScript is the script's text for chunks: {lang: [url, …]}.
export function preloadScript(chunks) {
  const json = (v) => JSON.stringify(v).replace(/</g, '\\u003c'); // never a closing tag inside the element
  const args = [json(chunks), json(LANGUAGES), json(FALLBACK)].join(',');
  return `(function(c,L,F){var matchTag=${matchTag.toString()};var l=null;` +
    `try{l=JSON.parse(localStorage.getItem('wolfden.lang'))}catch(e){}` +
    `if(L.indexOf(l)<0){l=F;var n=navigator.languages||[navigator.language];for(var i=0;i<n.length;i++){var m=matchTag(n[i]);if(m){l=m;break}}}` +
    `(c[l]||[]).forEach(function(u){var k=document.createElement('link');k.rel='modulepreload';k.href=u;document.head.appendChild(k)})` +
    `})(${args})`;
}
