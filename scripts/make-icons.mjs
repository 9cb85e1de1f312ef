// Draws the app's PNG icons (192, 512, maskable 512) into public/icons/ with no
// image library: a rounded tile with a prompt glyph "›_", 4× supersampled, zlib-encoded;
// and public/favicon.ico (16, 32 and 48 px PNGs), which browsers ask for by themselves.
// Run: node scripts/make-icons.mjs (the PNGs are committed; rerun only to change them).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BG = [29, 95, 209];
const FG = [255, 255, 255];

/** Coverage of the glyph at (x, y) in unit coordinates (0..1); `inset` shrinks it into the maskable safe zone. */
function shapeAt(x, y, { rounded, inset }) {
  const tile = rounded ? insideRoundedSquare(x, y, 0.22) : true;
  if (!tile) return 'none';
  const u = (x - 0.5) / inset + 0.5;
  const v = (y - 0.5) / inset + 0.5;
  const stroke = 0.075;
  // "›": two segments meeting at (0.5, 0.5)
  const chevron = Math.min(segDist(u, v, 0.26, 0.3, 0.5, 0.5), segDist(u, v, 0.5, 0.5, 0.26, 0.7)) < stroke;
  // "_": a bar under the right half
  const bar = u > 0.52 && u < 0.8 && Math.abs(v - 0.7) < stroke;
  return chevron || bar ? 'fg' : 'bg';
}

function insideRoundedSquare(x, y, r) {
  const cx = Math.min(Math.max(x, r), 1 - r);
  const cy = Math.min(Math.max(y, r), 1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

function segDist(px, py, ax, ay, bx, by) {
  const t = Math.max(0, Math.min(1, ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)));
  return Math.hypot(px - (ax + t * (bx - ax)), py - (ay + t * (by - ay)));
}

function render(size, opts) {
  const ss = 4;
  const rgba = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let sy = 0; sy < ss; sy++) {
        for (let sx = 0; sx < ss; sx++) {
          const s = shapeAt((x + (sx + 0.5) / ss) / size, (y + (sy + 0.5) / ss) / size, opts);
          if (s === 'none') continue;
          const c = s === 'fg' ? FG : BG;
          r += c[0]; g += c[1]; b += c[2]; a += 255;
        }
      }
      const n = ss * ss;
      const i = (y * size + x) * 4;
      const cover = a / 255;
      rgba[i] = cover ? Math.round(r / cover) : 0;
      rgba[i + 1] = cover ? Math.round(g / cover) : 0;
      rgba[i + 2] = cover ? Math.round(b / cover) : 0;
      rgba[i + 3] = Math.round(a / n);
    }
  }
  return png(size, size, rgba);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
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
function png(width, height, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) rgba.copy(raw, y * (width * 4 + 1) + 1, y * width * 4, (y + 1) * width * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A Windows icon file whose images are PNGs (ICONDIR, one ICONDIRENTRY each, then the images). */
function ico(images) {
  const head = Buffer.alloc(6 + 16 * images.length);
  head.writeUInt16LE(1, 2); // type 1: icon
  head.writeUInt16LE(images.length, 4);
  let offset = head.length;
  images.forEach(({ size, png }, i) => {
    const entry = 6 + 16 * i;
    head[entry] = size;
    head[entry + 1] = size;
    head.writeUInt16LE(1, entry + 4); // colour planes
    head.writeUInt16LE(32, entry + 6); // bits per pixel
    head.writeUInt32LE(png.length, entry + 8);
    head.writeUInt32LE(offset, entry + 12);
    offset += png.length;
  });
  return Buffer.concat([head, ...images.map((image) => image.png)]);
}

const dir = path.join(root, 'public', 'icons');
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, 'icon-192.png'), render(192, { rounded: true, inset: 1 }));
writeFileSync(path.join(dir, 'icon-512.png'), render(512, { rounded: true, inset: 1 }));
// Maskable: full-bleed background, glyph inside the central 80 % safe zone.
writeFileSync(path.join(dir, 'icon-maskable-512.png'), render(512, { rounded: false, inset: 0.72 }));
writeFileSync(path.join(root, 'public', 'favicon.ico'), ico([16, 32, 48].map((size) => ({ size, png: render(size, { rounded: true, inset: 1 }) }))));
console.log('icons written to public/icons/ and public/favicon.ico');
