// KILL-1 with real processes: an adapter `run` that started an agent-like child is killed;
// the run settles when its leader exits, and the child that held its pipes is killed with the
// group — not left running until it exits by itself (the child here would sleep for 10 minutes).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sandboxSupport } from '../../adapters/sandbox';
import { startAdapterRun, type AdapterRun } from '../../relay/jobs/adapter-run';
import { gone, processes, running, untilNone } from '../helpers/processes';

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'commandr-kill-')));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A `run` whose "agent" (a long sleep in the same group) inherits stdout and stderr. */
function fakeRun(): { run: string; childPidFile: string } {
  const run = path.join(tmp, `run-${Math.random().toString(36).slice(2)}`);
  const childPidFile = `${run}.child`;
  fs.writeFileSync(run, `#!/bin/sh\nsleep 600 &\necho $! > '${childPidFile}'\necho "SESSION: s-kill"\nwait\n`, { mode: 0o755 });
  return { run, childPidFile };
}

async function untilFile(file: string): Promise<string> {
  while (!fs.existsSync(file) || fs.readFileSync(file, 'utf8').trim() === '') await new Promise((r) => setTimeout(r, 20));
  return fs.readFileSync(file, 'utf8').trim();
}

describe('killing a run', () => {
  it('KILL-1: SIGKILL to the run leader settles the run and kills the agent it started (same group)', async () => {
    const { run, childPidFile } = fakeRun();
    let session = '';
    const started = startAdapterRun({ run, cwd: tmp, env: { PATH: process.env.PATH }, onStdout: () => {}, onSession: (s) => { session = s; } });
    const child = Number(await untilFile(childPidFile));
    expect(running(child)).toBe(true);
    process.kill(started.pid!, 'SIGKILL');
    const result = await started.done;
    expect(result.signal).toBe('SIGKILL');
    expect(session).toBe('s-kill');
    // The group is gone with its leader: the sleeper was killed, not waited for.
    expect(await gone(child, 2000)).toBe(true);
  });

  it('KILL-1: a leader that exits on its own while a child still holds its output also settles, and the child goes', async () => {
    const run = path.join(tmp, 'run-exits');
    const childPidFile = `${run}.child`;
    fs.writeFileSync(run, `#!/bin/sh\nsleep 600 &\necho $! > '${childPidFile}'\necho done\nexit 3\n`, { mode: 0o755 });
    const out: string[] = [];
    const started = startAdapterRun({ run, cwd: tmp, env: { PATH: process.env.PATH }, onStdout: (c) => out.push(c) });
    const result = await started.done;
    expect(result.code).toBe(3);
    expect(out.join('')).toContain('done');
    const child = Number(await untilFile(childPidFile));
    expect(await gone(child, 2000)).toBe(true);
  });
});

describe('killing a sandboxed run (KILL-2)', () => {
  const box = (): { cwd: string; dataDir: string } => ({ cwd: tmp, dataDir: path.join(tmp, 'data') });

  it('KILL-2: the sandbox\'s pid namespace init stays in the run\'s process group, so a stop ends the namespace, an agent that left the group included', async () => {
    expect(sandboxSupport()).toMatchObject({ ok: true, kind: 'bwrap' });
    const run = path.join(tmp, 'run-boxed');
    // The "agent" starts a daemon in a session of its own (out of any group signal), then hangs.
    fs.writeFileSync(run, `#!/bin/sh\nsetsid sleep 601 &\necho started\nexec sleep 602\n`, { mode: 0o755 });
    const out: string[] = [];
    const started = startAdapterRun({ run, cwd: tmp, env: { PATH: process.env.PATH, HOME: tmp }, onStdout: (c) => out.push(c), sandbox: box() });
    while (!out.join('').includes('started')) await new Promise((r) => setTimeout(r, 20));
    const init = processes().filter((p) => p.ppid === started.pid);
    expect(init.map((p) => p.cmdline.split(' ')[0])).toEqual(['/usr/bin/bwrap']);
    expect(init[0]!.pgid).toBe(started.pid);
    const ns = init[0]!.pidNs;
    expect(processes().filter((p) => p.pidNs === ns).length).toBeGreaterThanOrEqual(3);
    started.stop(200);
    expect((await started.done).stopped).toBe(true);
    expect(await untilNone((p) => p.pidNs === ns)).toEqual([]);
  });

  it('KILL-2: runs stopped at any moment of their start leave no process behind', async () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'many-'));
    const run = path.join(dir, 'run');
    fs.writeFileSync(run, `#!/bin/sh\necho started\nsleep 603\n`, { mode: 0o755 });
    // The stop lands 0–7 ms after the spawn: before bwrap cloned its init, while the init sets
    // itself up, or once the agent runs. Each is stopped and settled before the next starts.
    for (let i = 0; i < 100; i++) {
      const started: AdapterRun = startAdapterRun({ run, cwd: tmp, env: { PATH: process.env.PATH, HOME: tmp }, onStdout: () => {}, sandbox: box() });
      await new Promise((r) => setTimeout(r, i % 8));
      started.stop(100);
      await started.done;
    }
    expect(await untilNone((p) => p.cmdline.includes(run))).toEqual([]);
  });
});
