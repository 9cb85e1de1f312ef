// A relay as a real child process (`bin/commandr serve`) from a private build, so
// a test can SIGKILL it and start it again on the same data dir.
import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');

/** Bundles commandr + the relay into a temp install (bin/ + dist/) nobody else rebuilds under us. */
export async function buildRelayInstall(): Promise<string> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-install-'));
  const { build } = await import('esbuild');
  await build({
    entryPoints: { commandr: path.join(ROOT, 'cli', 'commandr.ts'), relay: path.join(ROOT, 'cli', 'relay.ts') },
    outdir: path.join(root, 'dist'), outExtension: { '.js': '.cjs' }, bundle: true, platform: 'node', target: 'node20', format: 'cjs',
    external: ['bufferutil', 'utf-8-validate', './relay.cjs'], logLevel: 'error',
  });
  fs.mkdirSync(path.join(root, 'bin'));
  for (const f of ['load.cjs', 'commandr', 'pre-commit-gate']) fs.copyFileSync(path.join(ROOT, 'bin', f), path.join(root, 'bin', f));
  fs.chmodSync(path.join(root, 'bin', 'commandr'), 0o755);
  return root;
}

export interface ChildRelay { url: string; dataDir: string; child: ChildProcess; exited: Promise<number | null> }

export function startChildRelay(install: string, dataDir: string, args: string[], env: NodeJS.ProcessEnv): Promise<ChildRelay> {
  const child = spawn(path.join(install, 'bin', 'commandr'), ['serve', '--port', '0', '--data', dataDir, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /listening: (\S+)/.exec(out);
      if (m) resolve({ url: m[1]!, dataDir, child, exited });
    });
    void exited.then((code) => reject(new Error(`relay exited (${code}) before listening: ${stderr}`)));
  });
}
