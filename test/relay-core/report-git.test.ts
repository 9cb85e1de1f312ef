// REPORTGIT-1: a hook report names a directory and the relay runs git there (the session
// end's work state, the turn end's checkpoint). A repository whose core.fsmonitor is a
// command must not get that command run by the relay. Real relay on port 0, a real repo,
// the real `POST /api/hooks/report` route with the hook credential.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { initRepo } from '../../bus/init';
import { readEvents } from '../../bus/event-log';
import { cleanup, startRelay, tempDir } from './setup';
import { makeHostile, type AttrSource, type Source } from '../git-runner/hostile';

afterEach(cleanup);

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const record = (fields: Record<string, string>, body: string): string => Object.entries(fields).map(([k, v]) => `${k}=${v}\0`).join('') + '\0' + body;

/**
 * Posts a Claude Code hook report for `repo` to the relay with the hook credential, as the bash hook
 * does. `SessionEnd` is reported for a session of its own (`<session>-end`, one that ended without a
 * turn end), so it runs its own `git status` rather than counting from the turn end's (HOOK-2).
 */
function reporter(relay: { dataDir: string; url: string }, repo: string, session: string): (hook: string) => Promise<Response> {
  const token = fs.readFileSync(path.join(relay.dataDir, 'hook-token'), 'utf8').trim();
  return (hook) => fetch(new URL('/api/hooks/report', relay.url), {
    method: 'POST', headers: { authorization: `Bearer ${token}` },
    body: record({ HOOK: hook, AGENTS_TASK_ID: 'T-1', CLAUDE_PROJECT_DIR: repo }, JSON.stringify({ session_id: hook === 'SessionEnd' ? `${session}-end` : session, cwd: repo, hook_event_name: hook })),
  });
}

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
  it.each([['config', '.gitattributes'], ['include', '.gitattributes'], ['config', 'info/attributes']] as Array<[Source, AttrSource]>)('GITRUN-3 REPORTGIT-1: Stop and SessionEnd reports for a repo with every command-bearing key set (repo %s, attributes in %s): checkpoint and session end are right, no command ran', async (source, attrs) => {
    const relay = await startRelay();
    const repo = hostileRepo(path.join(tempDir('commandr-unused-'), 'unused'));
    git(repo, 'config', '--unset', 'core.fsmonitor');
    fs.appendFileSync(path.join(repo, 'f'), 'changed\n');
    const hostile = makeHostile(repo, repo, tempDir('commandr-marker-'), source, attrs);
    const report = reporter(relay, repo, `s-${source}-${attrs}`);
    expect((await report('Stop')).status).toBe(200);
    expect((await report('SessionEnd')).status).toBe(200);
    const events = readEvents(path.join(repo, '.agents')).events;
    expect(events.filter((e) => e.event === 'task_progress')).toEqual([expect.objectContaining({ task: 'T-1', note: expect.stringMatching(/^checkpoint: [2-9] files changed/) })]);
    expect(events.filter((e) => e.event === 'session_end')).toEqual([expect.objectContaining({ files_changed: expect.any(Number) })]);
    expect(hostile.fired()).toEqual([]);
  });

  it('REPORTGIT-1: Stop and SessionEnd reports for a repo whose core.fsmonitor runs a command: git status runs (checkpoint written, files counted), the command does not', async () => {
    const relay = await startRelay();
    const marker = path.join(tempDir('commandr-marker-'), 'PWNED');
    const repo = hostileRepo(marker);
    // The repo really would run it: plain `git status` there creates the marker.
    git(repo, 'status', '--porcelain');
    expect(fs.existsSync(marker)).toBe(true);
    fs.rmSync(marker);

    const report = reporter(relay, repo, 's-fsmonitor');
    // The bus part is done before the answer (REPORT-2): a turn end's checkpoint, then the session end.
    expect((await report('Stop')).status).toBe(200);
    expect(fs.existsSync(marker), 'core.fsmonitor ran in the relay (turn end)').toBe(false);
    expect((await report('SessionEnd')).status).toBe(200);
    const events = readEvents(path.join(repo, '.agents')).events;
    expect(events.filter((e) => e.event === 'task_progress')).toEqual([expect.objectContaining({ task: 'T-1', note: expect.stringContaining('untracked.txt') })]);
    expect(events.filter((e) => e.event === 'session_end')).toEqual([expect.objectContaining({ session: 's-fsmonitor-end', files_changed: 1 })]);
    expect(fs.existsSync(marker), 'core.fsmonitor ran in the relay (session end)').toBe(false);
  });

  it('REPORTGIT-1: a filter driver the repo defines for itself (clean, process; a name with = in it) is not run for a report, and the touched files still read as unchanged', async () => {
    const relay = await startRelay();
    const dir = tempDir('commandr-marker-');
    const marker = path.join(dir, 'PWNED');
    const repo = hostileRepo(path.join(dir, 'unused'));
    git(repo, 'config', '--unset', 'core.fsmonitor');
    fs.writeFileSync(path.join(repo, '.gitattributes'), 'f filter=evil\ng filter=a=b\nh filter=proc\n');
    fs.writeFileSync(path.join(repo, 'g'), 'y\n');
    fs.writeFileSync(path.join(repo, 'h'), 'z\n');
    git(repo, 'add', '.gitattributes', 'g', 'h');
    git(repo, '-c', 'core.hooksPath=/dev/null', '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'attributes');
    git(repo, 'config', 'filter.evil.clean', `touch ${marker}; cat`);
    git(repo, 'config', 'filter.proc.process', `touch ${marker}2`);
    git(repo, 'config', 'filter.a=b.clean', `touch ${marker}3; cat`);
    // Touched, not changed: git must read each file through its filter to know.
    const touch = () => { const later = new Date(Date.now() + 60_000); for (const f of ['f', 'g', 'h']) fs.utimesSync(path.join(repo, f), later, later); };
    touch();
    // The repo really would run them: plain `git status` there creates the markers.
    spawnSync('git', ['status', '--porcelain'], { cwd: repo, stdio: 'ignore' }); // (its process filter is no filter: git fails after running it)
    expect(fs.readdirSync(dir).sort()).toEqual(['PWNED', 'PWNED2', 'PWNED3']);
    for (const name of fs.readdirSync(dir)) fs.rmSync(path.join(dir, name));
    touch();

    const report = reporter(relay, repo, 's-filter');
    expect((await report('Stop')).status).toBe(200);
    expect((await report('SessionEnd')).status).toBe(200);
    expect(fs.readdirSync(dir), 'a filter command ran in the relay').toEqual([]);
    const events = readEvents(path.join(repo, '.agents')).events;
    expect(events.filter((e) => e.event === 'task_progress')).toEqual([expect.objectContaining({ note: expect.stringContaining('untracked.txt') })]);
    expect(events.filter((e) => e.event === 'session_end')).toEqual([expect.objectContaining({ session: 's-filter-end', files_changed: 1 })]);
  });

  it('REPORTGIT-1: a filter a submodule defines in its own config (where the repo\'s own switch-off does not look) is not run for a report', async () => {
    const relay = await startRelay();
    const dir = tempDir('commandr-marker-');
    const marker = path.join(dir, 'PWNED');
    const repo = hostileRepo(path.join(dir, 'unused'));
    git(repo, 'config', '--unset', 'core.fsmonitor');
    const source = tempDir('commandr-subsrc-');
    git(source, 'init', '-q', '-b', 'main');
    fs.writeFileSync(path.join(source, 'data'), 'd\n');
    fs.writeFileSync(path.join(source, '.gitattributes'), 'data filter=x\n');
    git(source, 'add', '.');
    git(source, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'sub');
    git(repo, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', source, 'sub');
    git(repo, '-c', 'core.hooksPath=/dev/null', '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'add sub');
    git(path.join(repo, 'sub'), 'config', 'filter.x.clean', `touch ${marker}; cat`);
    const touch = () => { const later = new Date(Date.now() + 60_000); fs.utimesSync(path.join(repo, 'sub', 'data'), later, later); };
    touch();
    // The repo really would run it: plain `git status` in the superproject runs the submodule's filter.
    git(repo, 'status', '--porcelain');
    expect(fs.existsSync(marker)).toBe(true);
    fs.rmSync(marker);
    touch();

    const report = reporter(relay, repo, 's-sub');
    expect((await report('Stop')).status).toBe(200);
    expect((await report('SessionEnd')).status).toBe(200);
    expect(fs.existsSync(marker), 'the submodule\'s filter ran in the relay').toBe(false);
    const events = readEvents(path.join(repo, '.agents')).events;
    expect(events.filter((e) => e.event === 'session_end')).toEqual([expect.objectContaining({ session: 's-sub-end', files_changed: 1 })]);
  });
});
