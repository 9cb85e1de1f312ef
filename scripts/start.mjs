// `npm start`: build what is missing or stale (tool bundles always — fast;
// the app only when its sources changed), then run the relay in the foreground.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, statSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (args) => {
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

function newest(dir) {
  let t = 0;
  if (!existsSync(dir)) return t;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

run(['scripts/build.mjs']);
const built = join(root, 'out', 'index.html');
const sources = Math.max(newest(join(root, 'app')), newest(join(root, 'protocol')), newest(join(root, 'public')));
if (existsSync(join(root, 'app')) && (!existsSync(built) || statSync(built).mtimeMs < sources)) run(['scripts/build-app.mjs']);

const relay = spawn(process.execPath, [join(root, 'bin', 'commandr'), 'serve', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => relay.kill(sig));
relay.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
