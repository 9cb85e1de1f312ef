// `npm test`: type-check, build, then every suite — unit, conformance and
// integration (vitest, including the real Claude Code and OpenCode CLIs) and the
// app in Chromium (Playwright). Where the machine allows it (root with
// `unshare`), the vitest suites run in a fresh network namespace that has only
// loopback, so the agent CLIs and everything else are provably offline. The
// browser suite runs outside it: Chromium reports `navigator.onLine === false`
// in such a namespace, which would test a different app than people use.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
const bin = (name) => join(root, 'node_modules', '.bin', name);

function canIsolate() {
  if (env.COMMANDR_TEST_NO_NETNS) return false;
  return spawnSync('unshare', ['-n', 'sh', '-c', 'ip link set lo up'], { stdio: 'ignore' }).status === 0;
}

/** Runs `cmd args` inside a new network namespace with loopback up. */
function offline(cmd, args) {
  const quoted = [cmd, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return ['unshare', ['-n', 'sh', '-c', `ip link set lo up && exec ${quoted}`]];
}

const isolate = canIsolate();
const vitest = isolate ? offline(bin('vitest'), ['run']) : [bin('vitest'), ['run']];
const steps = [
  ['typecheck', bin('tsc'), ['--noEmit', '-p', '.']],
  ['build tools', process.execPath, ['scripts/build.mjs']],
  [`vitest${isolate ? ' (offline: network namespace with only loopback)' : ' (no network namespace here; tests use loopback only)'}`, ...vitest],
  ['build app', process.execPath, ['scripts/build-app.mjs']],
  ['playwright', bin('playwright'), ['test']],
];
for (const [label, cmd, args] of steps) {
  process.stdout.write(`\n== ${label}\n`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env });
  if (r.status !== 0) {
    process.stdout.write(`\nnpm test: ${label} failed (exit ${r.status ?? r.signal})\n`);
    process.exit(r.status || 1);
  }
}
