// Builds the PWA: `next build` (static export to out/), then the compile hints of the
// pages' scripts (FIRST-4), then their loading after the first paint (FIRST-10), then the service worker, then
// the inline-script hashes for the CSP, then the precompressed .br/.gz siblings — always in this order, in one script, because the
// worker's precache list must name the chunks of THIS build (a stale list makes the
// install fail and the worker never activates) and the siblings must hold the final bytes.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { injectManifest } from 'workbox-build';
import { precompressDir } from './precompress.mjs';
import { writeCspHashes } from './csp-hashes.mjs';
import { addCompileHints } from './compile-hints.mjs';
import { addPaintFirst } from './paint-first.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'out');
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };

// webpack, not Turbopack: Turbopack keeps most of zod behind `import * as z from 'zod/mini'`
// (28 KB gzipped on the Inbox route against webpack's tree-shaken share), and the Inbox
// route must stay within 170 KB of JS (bench/app.ts).
function nextBuild() {
  const next = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
  const run = spawnSync(process.execPath, [next, 'build', '--webpack'], { cwd: root, env, stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`next build failed with exit code ${run.status}`);
  if (!existsSync(path.join(out, 'index.html'))) throw new Error('next build did not export out/index.html');
}

async function workerBuild() {
  const tmp = path.join(root, '.next', 'sw-build');
  mkdirSync(tmp, { recursive: true });
  const bundled = path.join(tmp, 'sw.js');
  await build({
    entryPoints: [path.join(root, 'app', 'sw', 'sw.ts')],
    outfile: bundled,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    sourcemap: false,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  rmSync(path.join(out, 'sw.js'), { force: true });
  const { count, size, warnings } = await injectManifest({
    swSrc: bundled,
    swDest: path.join(out, 'sw.js'),
    globDirectory: out,
    // The shell, every exported route (html + the RSC .txt payloads for client-side
    // navigation), the chunks, styles, icons and the manifest.
    globPatterns: ['**/*.{html,txt,js,css,png,svg,ico,webmanifest,woff2}'],
    globIgnores: ['sw.js', '404.html'],
    dontCacheBustURLsMatching: /^_next\/static\//,
    maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
  });
  for (const warning of warnings) console.warn(`workbox: ${warning}`);
  console.log(`service worker: precaching ${count} files, ${(size / 1024).toFixed(0)} KiB`);
}

try {
  nextBuild();
  console.log(`compile hints: ${addCompileHints(out)} page scripts compiled off the main thread`);
  console.log(`paint first: ${addPaintFirst(out)} pages load their scripts after their first frame`);
  await workerBuild();
  console.log(`content security policy: ${writeCspHashes(out)} inline script hashes`);
  const packed = precompressDir(out);
  const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;
  console.log(`precompressed ${packed.files} files: ${kib(packed.raw)} raw, ${kib(packed.br)} brotli, ${kib(packed.gz)} gzip`);
} catch (error) {
  console.error(error);
  process.exit(1);
}
