// Bundles every CLI entry (cli/*.ts) and adapter entry (adapters/*/src/*.ts)
// into dist/ as CommonJS, minified: one file per tool keeps cold start small.
import { build } from 'esbuild';
import { readdirSync, existsSync, rmSync, mkdirSync } from 'node:fs';
import { join, basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entries = {};
const add = (dir, prefix) => {
  const abs = join(root, dir);
  if (!existsSync(abs)) return;
  for (const f of readdirSync(abs)) {
    if (f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts')) entries[prefix + basename(f, '.ts')] = join(abs, f);
  }
};
add('cli', '');
if (existsSync(join(root, 'adapters'))) {
  for (const a of readdirSync(join(root, 'adapters'))) add(join('adapters', a, 'src'), `adapters/${a}/`);
}

// dist/ is not wiped: other processes may be running tools from it. Code
// caches are dropped instead, since V8 only checks a cache against the source length.
mkdirSync(join(root, 'dist'), { recursive: true });
for (const f of readdirSync(join(root, 'dist'), { recursive: true })) {
  if (String(f).endsWith('.v8cache')) rmSync(join(root, 'dist', String(f)), { force: true });
}
if (Object.keys(entries).length > 0) {
  await build({
    entryPoints: entries,
    outdir: join(root, 'dist'),
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minify: true,
    sourcemap: false,
    legalComments: 'none',
    // Optional native speed-ups of ws; the relay bundle is loaded on demand.
    external: ['bufferutil', 'utf-8-validate', './relay.cjs'],
    logLevel: 'warning',
  });
}

// The build no longer captures an MCP listing: `commandr mcp` is the one server (MCP-ONE-1).
rmSync(join(root, 'dist', 'mcp-listing.sh'), { force: true });
console.log(`build: ${Object.keys(entries).length} entries -> dist/`);
