// `npm run bench`: runs every bench/<area>.ts in turn; each prints its own table.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const only = process.argv.slice(2);
const files = readdirSync(__dirname)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.endsWith('.test.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
let failed = 0;
for (const f of files) {
  process.stdout.write(`\n## ${f}\n`);
  const r = spawnSync(process.execPath, [join(__dirname, '..', 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(__dirname, f)], { stdio: 'inherit' });
  if (r.status !== 0) { failed++; process.stdout.write(`(${f} exited ${r.status})\n`); }
}
process.exit(failed ? 1 : 0);
