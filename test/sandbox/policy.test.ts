// Sandbox on by default, off only on purpose (SANDBOX-6), through the real relay: with no
// sandbox possible a job is refused with the reason and the fix (nothing is started, no
// worktree made); `sandbox: false` runs it unsandboxed and the relay warns once at start,
// naming what is given up.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadOrCreateSigningKey } from '../../bus/approval/keys';
import { createRelay, type Relay } from '../../relay/server';
import { repoIdOf } from '../../relay/watch/repo-id';
import { busRepo, type BusRepo } from '../helpers/bus-repo';
import { connectDevice, type DeviceClient } from '../helpers/device';
import { FAKE_ADAPTER_DIR } from '../commanders/relay-fixture';

const packet = (id: string) => `---\nid: ${id}\ntype: implementation\nscope: src/**\n---\n# ${id}\n\n## Context\nFAKE:write probe.txt hello\n`;

let bus: BusRepo;
let relay: Relay;
let phone: DeviceClient;
let dataDir: string;
const warnings: string[] = [];

async function start(sandbox: boolean | undefined): Promise<void> {
  bus = busRepo('sandbox-policy-', { commit: true, inbox: { 'T-1': packet('T-1') } });
  dataDir = path.join(bus.dir, 'data');
  fs.mkdirSync(dataDir, { mode: 0o700 }); // as a relay makes it (SERVE-3), so its start has no warning of its own
  fs.mkdirSync(path.join(dataDir, 'adapters'), { recursive: true });
  fs.symlinkSync(FAKE_ADAPTER_DIR, path.join(dataDir, 'adapters', 'fake'));
  process.env.COMMANDR_AGENT_ADAPTER = 'fake';
  process.env.FAKE_ADAPTER_HOME = path.join(bus.dir, 'home');
  loadOrCreateSigningKey(dataDir);
  relay = await createRelay({
    port: 0, host: '127.0.0.1', dataDir, repos: [bus.repo], registryFile: path.join(bus.dir, 'no-registry'), demo: false, appDir: path.join(bus.dir, 'no-app'),
    logger: { info: () => undefined, warn: (m) => warnings.push(m), error: () => undefined }, ...(sandbox === undefined ? {} : { sandbox }),
  });
  phone = await connectDevice(relay);
  await phone.request({ type: 'subscribe' });
}

beforeEach(() => { warnings.length = 0; });
afterEach(async () => {
  await phone.close();
  await relay.close();
  fs.rmSync(bus.dir, { recursive: true, force: true });
});

describe('sandbox policy', () => {
  it('SANDBOX-6: on by default; when this machine has no sandbox a job is refused with the reason and the fix, and nothing is started', async () => {
    await start(undefined);
    expect(warnings).toEqual([]);
    const saved = process.env.PATH;
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'no-bwrap-'));
    process.env.PATH = empty; // the real probe finds no bwrap
    try {
      await expect(phone.request({ type: 'task.run', repo: repoIdOf(bus.repo), task: 'T-1', mode: 'work' }))
        .rejects.toThrow(/E_UNAVAILABLE: agents run only in a sandbox.*bubblewrap \(bwrap\) is not on PATH.*apt-get install bubblewrap.*--no-sandbox/);
    } finally {
      process.env.PATH = saved;
      fs.rmSync(empty, { recursive: true, force: true });
    }
    expect(fs.existsSync(path.join(dataDir, 'worktrees'))).toBe(false);
  });

  it('SANDBOX-6: a relay started where no sandbox is possible says so once at start, with the reason, the fix and the other defence', async () => {
    const saved = process.env.PATH;
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'no-bwrap-'));
    fs.symlinkSync(execFileSync('which', ['git'], { encoding: 'utf8' }).trim(), path.join(empty, 'git')); // git, but no bwrap
    process.env.PATH = empty;
    try {
      await start(undefined);
    } finally {
      process.env.PATH = saved;
      fs.rmSync(empty, { recursive: true, force: true });
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^no sandbox on this machine: bubblewrap \(bwrap\) is not on PATH\. Fix: apt-get install bubblewrap.*jobs and commander turns are refused.*--no-sandbox.*own OS user/);
  });

  it('SANDBOX-6: sandbox off on purpose runs the job unsandboxed and the relay warns once at start, naming what it gives up', async () => {
    await start(false);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/sandbox OFF.*data dir \(approval key, credentials\).*own OS user/);
    const { job } = (await phone.request({ type: 'task.run', repo: repoIdOf(bus.repo), task: 'T-1', mode: 'work' })).result as { job: string };
    expect(await phone.next('job.state', (f) => f.job === job && f.status !== 'running', 20_000)).toMatchObject({ status: 'done' });
    expect(fs.readFileSync(path.join(dataDir, 'worktrees', repoIdOf(bus.repo), 'T-1', 'probe.txt'), 'utf8')).toContain('hello');
  });
});
