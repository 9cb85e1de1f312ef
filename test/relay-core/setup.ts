// Shared setup for relay-core tests: a real relay on port 0 over a temp data dir.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRelay, type Relay } from '../../relay/server';
import type { RelayOptions } from '../../relay/options';

export interface TestRelay extends Relay {
  restart(): Promise<TestRelay>;
}

const cleanups: (() => Promise<void> | void)[] = [];

export function tempDir(prefix = 'commandr-relay-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Starts a relay; `restart()` closes it and starts another on the same data dir. */
export async function startRelay(options: RelayOptions = {}): Promise<TestRelay> {
  const dataDir = options.dataDir ?? tempDir();
  const relay = await createRelay({ port: 0, host: '127.0.0.1', demo: false, repos: [], appDir: path.join(dataDir, 'no-app'), ...options, dataDir });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await relay.close();
  };
  cleanups.push(close);
  return {
    ...relay,
    close,
    restart: async () => {
      await close();
      return startRelay({ ...options, dataDir });
    },
  };
}

/** Run in afterEach: closes relays and removes temp dirs, newest first. */
export async function cleanup(): Promise<void> {
  while (cleanups.length > 0) await cleanups.pop()!();
}

/** Runs `commandr <args>` from the sources in a separate process, as a person would. */
export function commandr(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const script = `require('./cli/relay.ts').main(${JSON.stringify(args)}).then((c) => { process.exitCode = c; })`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: path.resolve(__dirname, '..', '..'), encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
