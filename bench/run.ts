// `npm run bench`: runs every bench/<area>.ts in turn; each prints its own table.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { cpus, loadavg } from 'node:os';
// @ts-expect-error: a plain .mjs module without types (the suite runner's, SUITE-11)
import { NODE_STARTS, nodeStartCpuMs, stageEnv } from '../scripts/test-run.mjs';

const only = process.argv.slice(2);
const files = readdirSync(__dirname)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.endsWith('.test.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
// The machine the figures come from (SUITE-11): a bare Node start's CPU says how fast it is, the
// load average how busy. Figures from different days compare only beside these.
const start = nodeStartCpuMs(stageEnv(process.env)) as number | undefined;
process.stdout.write(`machine: ${cpus().length} cores, a Node start ${start === undefined ? 'not measured (no /proc)' : `${start.toFixed(1)} ms of CPU`} (node -e 0, mean of ${NODE_STARTS}), load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
let failed = 0;
for (const f of files) {
  process.stdout.write(`\n## ${f}\n`);
  const r = spawnSync(process.execPath, [join(__dirname, '..', 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(__dirname, f)], { stdio: 'inherit' });
  if (r.status !== 0) { failed++; process.stdout.write(`(${f} exited ${r.status})\n`); }
}
process.exit(failed ? 1 : 0);
