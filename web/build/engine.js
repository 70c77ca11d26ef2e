// The engine on the device (web/engine: the rules, the bots and the game's
// actor for GOOS=js GOARCH=wasm), built from its Go sources by the client's
// build, with Go's wasm_exec.js beside it. Both go to dist/assets/ under
// content-hashed names, named in index.html by a <meta name="wolfden-engine">
// that fetches nothing: the service worker keeps every asset the page
// names, so the installed app has the engine from its install, offline
// (public/sw.js), and src/lib/engine.js loads it when a game of the device
// needs it. Reproducible: the same sources and Go give the same bytes
// (-trimpath, no build ID, no VCS stamp).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const source = path.resolve(here, '..', 'engine');

export const GOFLAGS = ['-trimpath', '-buildvcs=false', '-ldflags=-s -w -buildid='];

// buildEngine compiles web/engine and returns {wasm, exec}: the module's
// bytes and wasm_exec.js's text.
export function buildEngine() {
  const go = process.env.GO || 'go';
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wolfden-engine-'));
  try {
    const out = path.join(tmp, 'engine.wasm');
    execFileSync(go, ['build', ...GOFLAGS, '-o', out, '.'], {
      cwd: source,
      env: { ...process.env, GOOS: 'js', GOARCH: 'wasm', CGO_ENABLED: '0' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const goroot = execFileSync(go, ['env', 'GOROOT'], { encoding: 'utf8' }).trim();
    return { wasm: fs.readFileSync(out), exec: fs.readFileSync(path.join(goroot, 'lib', 'wasm', 'wasm_exec.js'), 'utf8') };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

export function engine() {
  let refs = null;
  return {
    name: 'wolfden-engine',
    apply: 'build',
    buildStart() {
      const { wasm, exec } = buildEngine();
      refs = {
        wasm: this.emitFile({ type: 'asset', name: 'engine.wasm', source: wasm }),
        exec: this.emitFile({ type: 'asset', name: 'wasm_exec.js', source: exec }),
      };
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const named = (want) => Object.values(ctx.bundle || {}).find((c) => c.type === 'asset' && (c.names || [c.name]).includes(want));
        const wasm = named('engine.wasm');
        const exec = named('wasm_exec.js');
        if (!refs || !wasm || !exec) return [];
        return [{ tag: 'meta', attrs: { name: 'wolfden-engine', 'data-wasm': '/' + wasm.fileName, 'data-exec': '/' + exec.fileName }, injectTo: 'head' }];
      },
    },
  };
}
