// Writes the installable app's icons into public/ (copied as they are into
// dist/ by vite): icon.svg (the favicon's moon), icon-192.png, icon-512.png
// and icon-maskable-512.png (the moon inside the safe zone of a full-bleed
// background, for launchers that cut their own shape). Drawn here, with no
// image library and nothing downloaded: a disk with a crescent, rasterized
// with 4×4 supersampling into a PNG written by hand (zlib from Node).
// Deterministic: the same bytes every run.
//
//   node build/icons.mjs
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'public');

const NIGHT = [0x1d, 0x27, 0x40];
const MOON = [0xf5, 0xd6, 0x7b];

// In the favicon's 32×32 box: the night disk (centre 16,16, radius 15) and
// the crescent of its path "M21 7a9 9 0 1 0 4 13A8 8 0 0 1 21 7z": the disk
// of radius 9 through (21,7) and (25,20), less the disk of radius 8 through
// them on the far side.
function circleThrough(p, q, r, side) {
  const mx = (p[0] + q[0]) / 2;
  const my = (p[1] + q[1]) / 2;
  const dx = q[0] - p[0];
  const dy = q[1] - p[1];
  const len = Math.hypot(dx, dy);
  const h = Math.sqrt(r * r - (len / 2) ** 2);
  return [mx + (side * -dy * h) / len, my + (side * dx * h) / len, r];
}
const P = [21, 7];
const Q = [25, 20];
const moon = circleThrough(P, Q, 9, 1);
const bite = circleThrough(P, Q, 8, -1);
const inside = (c, x, y) => (x - c[0]) ** 2 + (y - c[1]) ** 2 <= c[2] * c[2];

// colour of the point (x, y) of the 32-box: [r,g,b,a]; full: the night fills the square
function colour(x, y, full) {
  if (inside(moon, x, y) && !inside(bite, x, y)) return [...MOON, 255];
  if (full || inside([16, 16, 15], x, y)) return [...NIGHT, 255];
  return [0, 0, 0, 0];
}

function draw(size, { full = false, scale = 1 } = {}) {
  const px = Buffer.alloc(size * size * 4);
  const S = 4;
  for (let j = 0; j < size; j++) {
    for (let i = 0; i < size; i++) {
      const acc = [0, 0, 0, 0];
      for (let a = 0; a < S; a++) {
        for (let b = 0; b < S; b++) {
          // the 32-box, shrunk by scale around its centre
          const x = 16 + (((i + (a + 0.5) / S) / size) * 32 - 16) / scale;
          const y = 16 + (((j + (b + 0.5) / S) / size) * 32 - 16) / scale;
          const c = colour(x, y, full);
          for (let k = 0; k < 3; k++) acc[k] += c[k] * c[3];
          acc[3] += c[3];
        }
      }
      const o = (j * size + i) * 4;
      const alpha = acc[3] / (S * S);
      for (let k = 0; k < 3; k++) px[o + k] = acc[3] ? Math.round(acc[k] / acc[3]) : 0;
      px[o + 3] = Math.round(alpha);
    }
  }
  return png(size, px);
}

const CRC = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
function png(size, px) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bits per channel
  ihdr[9] = 6; // RGBA
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let j = 0; j < size; j++) px.copy(rows, j * (size * 4 + 1) + 1, j * size * 4, (j + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="15" fill="#1d2740"/><path d="M21 7a9 9 0 1 0 4 13A8 8 0 0 1 21 7z" fill="#f5d67b"/></svg>\n`;

fs.mkdirSync(out, { recursive: true });
fs.writeFileSync(path.join(out, 'icon.svg'), svg);
fs.writeFileSync(path.join(out, 'icon-192.png'), draw(192));
fs.writeFileSync(path.join(out, 'icon-512.png'), draw(512));
// maskable: the moon within the central 80% circle a launcher keeps
fs.writeFileSync(path.join(out, 'icon-maskable-512.png'), draw(512, { full: true, scale: 0.75 }));
console.log('icons written to', out);
