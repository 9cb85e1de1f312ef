// Bundles every CLI entry (cli/*.ts) and adapter entry (adapters/*/src/*.ts)
// into dist/ as CommonJS, minified: one file per tool keeps cold start small.
import { build } from 'esbuild';
import { readdirSync, existsSync, rmSync, mkdirSync, writeFileSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
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

// `commandr mcp` answers initialize, ping and tools/list from a shell responder until
// the first tool call (MCP-FAST-1): its answers are the real server's, captured here
// from this build's own code, so they cannot drift. Written after dist/mcp.cjs: the
// responder trusts the listing only when it is not older than the server.
const listingBundle = join(root, 'dist', `.mcp-listing.${process.pid}.cjs`);
await build({
  entryPoints: [join(root, 'adapters', 'mcp', 'listing.ts')], outfile: listingBundle,
  bundle: true, platform: 'node', target: 'node20', format: 'cjs', logLevel: 'warning',
});
try {
  const { buildListing, listingScript } = createRequire(import.meta.url)(listingBundle);
  const tmp = join(root, 'dist', `mcp-listing.sh.${process.pid}.tmp`);
  writeFileSync(tmp, listingScript(await buildListing()));
  renameSync(tmp, join(root, 'dist', 'mcp-listing.sh'));
} finally {
  rmSync(listingBundle, { force: true });
}
console.log(`build: ${Object.keys(entries).length} entries -> dist/ (+ dist/mcp-listing.sh)`);
