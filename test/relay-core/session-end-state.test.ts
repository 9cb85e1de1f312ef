// HOOK-2 on the relay (REPORT-2): a session end that follows its own turn end at once counts the
// changed files from the state that turn end read, instead of a second `git status` (a headless
// turn ends its session milliseconds after its last turn). Whenever that state may be stale it
// reads again: anything of the session reached the relay in between, another session ended, or
// the end came later than SESSION_END_REUSE_MS. Observed through the count itself: a file added
// between the two reports is counted only when git ran again. Real relay on port 0, a real repo,
// the real `POST /api/hooks/report` route with the hook credential.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initRepo } from '../../bus/init';
import { readEvents } from '../../bus/event-log';
import { SESSION_END_REUSE_MS } from '../../relay/live/report-route';
import { cleanup, startRelay, tempDir } from './setup';

afterEach(async () => {
  vi.useRealTimers();
  await cleanup();
});

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const record = (fields: Record<string, string>, body: string): string => Object.entries(fields).map(([k, v]) => `${k}=${v}\0`).join('') + '\0' + body;

/** A committed repo with a bus for task T-1 and one untracked file. */
function repoWithBus(): string {
  const home = tempDir('commandr-session-end-');
  const repo = path.join(home, 'repo');
  fs.mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(repo, 'f'), 'x\n');
  initRepo(repo, { gateBin: '/bin/true', registryFile: path.join(home, 'registry') });
  git(repo, 'add', '-A');
  git(repo, '-c', 'core.hooksPath=/dev/null', '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'initial');
  fs.writeFileSync(path.join(repo, 'one.txt'), '1\n');
  return repo;
}

async function world() {
  const relay = await startRelay();
  const repo = repoWithBus();
  const token = fs.readFileSync(path.join(relay.dataDir, 'hook-token'), 'utf8').trim();
  const report = async (hook: string, session: string, extra: Record<string, unknown> = {}) => {
    const res = await fetch(new URL('/api/hooks/report', relay.url), {
      method: 'POST', headers: { authorization: `Bearer ${token}` },
      body: record({ HOOK: hook, AGENTS_TASK_ID: 'T-1', CLAUDE_PROJECT_DIR: repo }, JSON.stringify({ session_id: session, cwd: repo, hook_event_name: hook, ...extra })),
    });
    expect(res.status).toBe(200);
  };
  const filesChanged = (session: string) => readEvents(path.join(repo, '.agents')).events
    .filter((e) => e.event === 'session_end' && e.session === session)
    .map((e) => (e as { files_changed?: number }).files_changed);
  const addFile = () => fs.writeFileSync(path.join(repo, 'two.txt'), '2\n');
  return { report, filesChanged, addFile };
}

describe('a session end right after its turn end (HOOK-2)', () => {
  it('HOOK-2: counts from the state its own turn end read: a file added between the two is not counted, so git did not run again', async () => {
    const { report, filesChanged, addFile } = await world();
    await report('Stop', 's-1');
    addFile();
    await report('SessionEnd', 's-1');
    expect(filesChanged('s-1')).toEqual([1]);
  });

  it('HOOK-2: a tool of the session reported after the turn end: git runs again and counts both files', async () => {
    const { report, filesChanged, addFile } = await world();
    await report('Stop', 's-2');
    addFile();
    await report('PostToolUse', 's-2', { tool_name: 'Bash', tool_input: { command: 'echo 2 > two.txt' }, tool_use_id: 'toolu_1', tool_response: { stdout: '', stderr: '', interrupted: false } });
    await report('SessionEnd', 's-2');
    expect(filesChanged('s-2')).toEqual([2]);
  });

  it('HOOK-2: another session\'s turn end is not this one\'s: git runs for it', async () => {
    const { report, filesChanged, addFile } = await world();
    await report('Stop', 's-3');
    addFile();
    await report('SessionEnd', 's-4');
    await report('SessionEnd', 's-3'); // its turn end's state was kept for it alone, and is still fresh
    expect(filesChanged('s-4')).toEqual([2]);
    expect(filesChanged('s-3')).toEqual([1]);
  });

  it('HOOK-2: a session end later than SESSION_END_REUSE_MS after its turn end reads the state again', async () => {
    const { report, filesChanged, addFile } = await world();
    await report('Stop', 's-5');
    addFile();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + SESSION_END_REUSE_MS + 1);
    await report('SessionEnd', 's-5');
    expect(filesChanged('s-5')).toEqual([2]);
  });

  it('HOOK-2: the kept state serves one session end only: a second one reads again', async () => {
    const { report, filesChanged, addFile } = await world();
    await report('Stop', 's-6');
    await report('SessionEnd', 's-6');
    addFile();
    await report('SessionEnd', 's-6');
    expect(filesChanged('s-6')).toEqual([1, 2]);
  });
});
