// Precompresses the exported app once, at build time (COLD-1): every text asset
// gets `<file>.br` (Brotli, quality 11) and `<file>.gz` (gzip -9) beside it, so the
// relay serves the smaller bytes by Accept-Encoding without compressing per request.
// A sibling is written only when it is smaller than the file it stands for.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.txt', '.svg', '.webmanifest', '.map', '.ico', '.wasm', '.xml']);

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (entry.isFile()) yield full;
  }
}

/** Writes .br and .gz beside every compressible file under `dir`; returns byte totals.
 * Siblings are written after their source, so a source edited later (newer mtime)
 * makes them stale and the relay ignores them. */
export function precompressDir(dir) {
  const totals = { files: 0, raw: 0, br: 0, gz: 0 };
  for (const file of [...files(dir)]) {
    if (file.endsWith('.br') || file.endsWith('.gz')) continue;
    if (!COMPRESSIBLE.has(path.extname(file).toLowerCase())) continue;
    const raw = readFileSync(file);
    const br = brotliCompressSync(raw, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
    });
    const gz = gzipSync(raw, { level: 9 });
    totals.files += 1;
    totals.raw += raw.length;
    for (const [ext, bytes] of [['.br', br], ['.gz', gz]]) {
      const sibling = `${file}${ext}`;
      rmSync(sibling, { force: true });
      if (bytes.length >= raw.length) continue;
      writeFileSync(sibling, bytes);
      totals[ext.slice(1)] += bytes.length;
    }
  }
  return totals;
}
