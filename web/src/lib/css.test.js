// Layout rules a unit test can hold: CJK labels do not wrap one character
// a line (a button's label breaks between words: word-break keep-all, and
// nothing lets a button break anywhere).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const src = new URL('..', import.meta.url).pathname;
const css = readFileSync(join(src, 'app.css'), 'utf8');
const rule = (sel) => {
  const m = new RegExp('(^|\\n)' + sel.replace(/\./g, '\\.') + '\\s*\\{([^}]*)\\}').exec(css);
  return m ? m[2] : '';
};

test('a button keeps its CJK words whole (word-break: keep-all)', () => {
  expect(rule('.btn')).toMatch(/word-break:\s*keep-all/);
});

test('no style lets a label break between any two characters', () => {
  const files = [join(src, 'app.css')];
  for (const d of ['components', 'screens']) for (const f of readdirSync(join(src, d))) files.push(join(src, d, f));
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    expect(text, f).not.toMatch(/word-break:\s*break-all/);
    expect(text, f).not.toMatch(/line-break:\s*anywhere/);
  }
});
