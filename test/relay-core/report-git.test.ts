// REPORTGIT-1: a hook report names a directory and the relay runs git there (the session
// end's work state, the turn end's checkpoint). A repository whose core.fsmonitor is a
// command must not get that command run by the relay. Real relay on port 0, a real repo,
// the real `POST /api/hooks/report` route with the hook credential.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { initRepo } from '../../bus/init';
import { readEvents } from '../../bus/event-log';
import { cleanup, startRelay, tempDir } from './setup';

afterEach(cleanup);

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const record = (fields: Record<string, string>, body: string): string => Object.entries(fields).map(([k, v]) => `${k}=${v}\0`).join('') + '\0' + body;

/** A committed repo with a bus and one untracked file, whose core.fsmonitor would create `marker`. */
function hostileRepo(marker: string): string {
  const home = tempDir('commandr-reportgit-');
  const repo = path.join(home, 'repo');
  fs.mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(repo, 'f'), 'x\n');
  git(repo, 'add', 'f');
  git(repo, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'initial');
  initRepo(repo, { gateBin: '/bin/true', registryFile: path.join(home, 'registry') });
  git(repo, 'add', '-A');
  git(repo, '-c', 'core.hooksPath=/dev/null', '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'bus');
  fs.writeFileSync(path.join(repo, 'untracked.txt'), 'new\n');
  git(repo, 'config', 'core.fsmonitor', `touch ${marker}; false #`);
  return repo;
}

describe('git on directories a hook report names', () => {
  it('REPORTGIT-1: Stop and SessionEnd reports for a repo whose core.fsmonitor runs a command: git status runs (checkpoint written, files counted), the command does not', async () => {
    const relay = await startRelay();
    const marker = path.join(tempDir('commandr-marker-'), 'PWNED');
    const repo = hostileRepo(marker);
    // The repo really would run it: plain `git status` there creates the marker.
    git(repo, 'status', '--porcelain');
    expect(fs.existsSync(marker)).toBe(true);
    fs.rmSync(marker);

    const token = fs.readFileSync(path.join(relay.dataDir, 'hook-token'), 'utf8').trim();
    const report = (hook: string) => fetch(new URL('/api/hooks/report', relay.url), {
      method: 'POST', headers: { authorization: `Bearer ${token}` },
      body: record({ HOOK: hook, AGENTS_TASK_ID: 'T-1', CLAUDE_PROJECT_DIR: repo }, JSON.stringify({ session_id: 's-fsmonitor', cwd: repo, hook_event_name: hook })),
    });
    // The bus part is done before the answer (REPORT-2): a turn end's checkpoint, then the session end.
    expect((await report('Stop')).status).toBe(200);
    expect(fs.existsSync(marker), 'core.fsmonitor ran in the relay (turn end)').toBe(false);
    expect((await report('SessionEnd')).status).toBe(200);
    const events = readEvents(path.join(repo, '.agents')).events;
    expect(events.filter((e) => e.event === 'task_progress')).toEqual([expect.objectContaining({ task: 'T-1', note: expect.stringContaining('untracked.txt') })]);
    expect(events.filter((e) => e.event === 'session_end')).toEqual([expect.objectContaining({ session: 's-fsmonitor', files_changed: 1 })]);
    expect(fs.existsSync(marker), 'core.fsmonitor ran in the relay (session end)').toBe(false);
  });
});
