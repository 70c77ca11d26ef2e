import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { localePreload, precompress } from './build/plugins.js';
import { engine } from './build/engine.js';

// The client is built into dist/ (committed: the Go server embeds it, see
// embed.go) with content-hashed names under dist/assets/. In development
// (npm run dev) the API and the WebSocket go to a wolfden serve on :8080.
// The build preloads the language's catalogue from index.html and writes
// each file precompressed beside it (.br, .gz: build/plugins.js). It builds
// the engine on the device from ../web/engine with Go (build/engine.js).
const server = process.env.WOLFDEN_SERVER || 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [svelte(), localePreload(), engine(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2020',
    modulePreload: { polyfill: false },
  },
  server: {
    // the message catalogues live in ../internal/i18n/locales, shared with the server
    fs: { allow: ['..'] },
    proxy: {
      '/api': server,
      '/ws': { target: server.replace(/^http/, 'ws'), ws: true },
    },
  },
  test: {
    include: ['src/**/*.test.js'],
    environment: 'node',
  },
});
