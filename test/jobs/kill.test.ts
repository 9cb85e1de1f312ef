// KILL-1 with real processes: an adapter `run` that started an agent-like child is killed;
// the run settles when its leader exits, and the child that held its pipes is killed with the
// group — not left running until it exits by itself (the child here would sleep for 10 minutes).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startAdapterRun } from '../../relay/jobs/adapter-run';

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'commandr-kill-')));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

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
    expect(alive(child)).toBe(true);
    process.kill(started.pid!, 'SIGKILL');
    const result = await started.done;
    expect(result.signal).toBe('SIGKILL');
    expect(session).toBe('s-kill');
    // The group is gone with its leader: the sleeper was killed, not waited for.
    await new Promise((r) => setTimeout(r, 0));
    let reaped = false;
    for (let i = 0; i < 200 && !reaped; i++) {
      reaped = !alive(child) || fs.readFileSync(`/proc/${child}/stat`, 'utf8').split(' ')[2] === 'Z';
      if (!reaped) await new Promise((r) => setTimeout(r, 10));
    }
    expect(reaped).toBe(true);
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
    let gone = false;
    for (let i = 0; i < 200 && !gone; i++) {
      gone = !alive(child) || fs.readFileSync(`/proc/${child}/stat`, 'utf8').split(' ')[2] === 'Z';
      if (!gone) await new Promise((r) => setTimeout(r, 10));
    }
    expect(gone).toBe(true);
  });
});
