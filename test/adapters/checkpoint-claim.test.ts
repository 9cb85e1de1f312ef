// HOOK-1 with a real claim: the packet move a claim makes (inbox/ → claimed/) is the bus's
// bookkeeping, so the turn-end checkpoint (the real `stop` hook process) does not count it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createClaimer } from '../../bus/claim';
import { busEvents, cleanup, git, makeHome, makeRepo, ROOT, runProcess } from './harness';

afterAll(cleanup);

describe('checkpoint and claims', () => {
  it('HOOK-1: a claimed packet is not a changed file; a real edit still is', async () => {
    const { repo, bus } = makeRepo();
    const h = makeHome();
    fs.writeFileSync(path.join(bus, 'inbox', 'T-cl.md'), '---\nid: T-cl\ntype: implementation\nscope: src/**\n---\n# T-cl\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'packet');
    expect((await createClaimer(bus).next())?.task ?? 'claimed').toBeTruthy();
    expect(git(repo, 'status', '--porcelain')).toContain('.agents/inbox/T-cl.md');
    const stop = (session: string) => runProcess(path.join(ROOT, 'adapters', 'claude', 'hooks', 'stop'), [], {
      cwd: repo, input: JSON.stringify({ session_id: session, cwd: repo, hook_event_name: 'Stop' }),
      env: { PATH: process.env.PATH, HOME: h.home, COMMANDR_HOME: h.commandrHome, AGENTS_TASK_ID: 'T-cl' },
    });
    expect((await stop('s1')).code).toBe(0);
    const notes = () => busEvents(bus).filter((e) => e.event === 'task_progress').map((e) => String(e.note));
    expect(notes()).toEqual([expect.stringContaining('working tree clean')]);
    fs.writeFileSync(path.join(repo, 'work.txt'), 'x');
    expect((await stop('s1')).code).toBe(0);
    expect(notes()[1]).toContain('1 file changed (work.txt)');
  });
});
