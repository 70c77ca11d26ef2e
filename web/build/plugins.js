// Build steps of the client (vite.config.js).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { preloadScript } from '../src/lib/preload.js';

// localePreload puts the inline script of src/lib/preload.js into
// index.html, with the chunks of each language's catalogue (the domain
// file and the UI's, internal/i18n/locales/).
export function localePreload() {
  return {
    name: 'wolfden-locale-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const chunks = {};
        for (const c of Object.values(ctx.bundle || {})) {
          const m = c.type === 'chunk' && c.facadeModuleId && c.facadeModuleId.match(/internal\/i18n\/locales\/(?:ui\/)?([A-Za-z-]+)\.json$/);
          if (m) (chunks[m[1]] ||= []).push('/' + c.fileName);
        }
        for (const l of Object.values(chunks)) l.sort();
        const sorted = Object.fromEntries(Object.entries(chunks).sort(([a], [b]) => a.localeCompare(b)));
        return [{ tag: 'script', children: preloadScript(sorted), injectTo: 'head' }];
      },
    },
  };
}

// precompress writes NAME.br and NAME.gz beside every text file of the
// build, and the engine's .wasm, that they make smaller; the server sends
// them to browsers that take them (internal/server/static.go). Deterministic: the same files give the
// same bytes.
export function precompress() {
  let outDir = 'dist';
  return {
    name: 'wolfden-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir) => fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? walk(path.join(dir, d.name)) : [path.join(dir, d.name)]));
      for (const f of walk(outDir)) {
        if (!/\.(html|js|css|svg|json|txt|wasm)$/.test(f)) continue;
        const data = fs.readFileSync(f);
        const br = zlib.brotliCompressSync(data, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
            [zlib.constants.BROTLI_PARAM_MODE]: f.endsWith('.wasm') ? zlib.constants.BROTLI_MODE_GENERIC : zlib.constants.BROTLI_MODE_TEXT,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
          },
        });
        const gz = zlib.gzipSync(data, { level: 9 });
        gz[9] = 3; // the header's OS byte: Unix, whatever system builds it
        for (const [ext, z] of [['.br', br], ['.gz', gz]]) {
          if (z.length < data.length) fs.writeFileSync(f + ext, z);
        }
      }
    },
  };
}
