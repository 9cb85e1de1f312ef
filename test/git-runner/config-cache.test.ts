// GITRUN-5: the runner keeps a repository's overrides between runs (approve runs no config read
// when nothing changed), and never keeps them past a change an agent can make: a rewritten
// `.git/config` (even with its mtime set back), an include that appears later, a new `.git`.
// Each case first shows that the cached read was in use, so a cache that is never hit cannot pass.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gitResult, gitResultSync, overridesCache } from '../../bus/git/run';
import { ConfigCache, RACY_MS } from '../../bus/git/config-cache';

const temps: string[] = [];
afterAll(() => { for (const d of temps) fs.rmSync(d, { recursive: true, force: true }); });

const OLD = new Date(Date.now() - 3600_000);

/**
 * Waits until the files' last change is older than the racy margin, as in a repository in use for
 * a while (ctime cannot be set back, so the test waits for it; the deadline only bounds a hang).
 */
async function settled(files: string[]): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!ConfigCache.cacheable(files, Date.now())) {
    if (Date.now() > deadline) throw new Error(`files never settled: ${files.join(', ')}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

interface Fixture { dir: string; repo: string; marker: string; env: NodeJS.ProcessEnv }

function fixture(): Fixture {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gitcache-')));
  temps.push(dir);
  const repo = path.join(dir, 'repo');
  fs.mkdirSync(repo);
  const env = { ...process.env, HOME: dir, GIT_CONFIG_NOSYSTEM: '1', XDG_CONFIG_HOME: path.join(dir, 'xdg') } as unknown as NodeJS.ProcessEnv;
  const git = (...args: string[]): void => { execFileSync('git', args, { cwd: repo, env, stdio: 'ignore' }); };
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 't');
  git('config', 'user.email', 't@example.com');
  fs.writeFileSync(path.join(repo, 'a.txt'), 'a\n');
  fs.writeFileSync(path.join(repo, '.gitattributes'), '*.txt filter=evil\n');
  git('add', '.');
  git('commit', '-q', '-m', 'initial');
  const marker = path.join(dir, 'ran');
  const script = path.join(dir, 'evil.sh');
  fs.writeFileSync(script, `#!/bin/sh\ntouch '${marker}'\ncat\n`, { mode: 0o755 });
  return { dir, repo, marker, env };
}

/** `git add` with the work tree changed: git runs the clean filter of `*.txt` if one is defined. */
async function addChange(f: Fixture): Promise<void> {
  fs.appendFileSync(path.join(f.repo, 'a.txt'), 'more\n');
  const r = await gitResult(['add', 'a.txt'], { cwd: f.repo, env: f.env });
  expect(r.code, r.stderr).toBe(0);
}

const evilFilter = (f: Fixture): string => `[filter "evil"]\n\tclean = ${path.join(f.dir, 'evil.sh')}\n\trequired = true\n`;

describe('GITRUN-5: the runner caches config overrides only while nothing they came from changed', () => {
  it('GITRUN-5: a second run in an unchanged repository reads no config (a cache hit), sync and async alike', async () => {
    const f = fixture();
    await settled([path.join(f.repo, '.git', 'config'), path.join(f.repo, '.git')]);
    overridesCache.clear();
    const before = overridesCache.hits;
    await addChange(f);
    await addChange(f);
    expect(gitResultSync(['write-tree'], { cwd: f.repo, env: f.env }).code).toBe(0);
    expect(overridesCache.hits - before).toBe(2);
  });

  it('GITRUN-5: a read whose config file is younger than the racy margin is not kept', async () => {
    const f = fixture();
    overridesCache.clear();
    fs.utimesSync(path.join(f.repo, '.git', 'config'), OLD, OLD); // mtime says old; ctime says now
    const before = overridesCache.hits;
    await addChange(f);
    await addChange(f);
    expect(overridesCache.hits - before).toBe(0);
    expect(RACY_MS).toBeGreaterThanOrEqual(20);
  });

  it('GITRUN-5: a filter written into .git/config after a cached read is overridden, even with the mtime set back', async () => {
    const f = fixture();
    await settled([path.join(f.repo, '.git', 'config'), path.join(f.repo, '.git')]);
    overridesCache.clear();
    await addChange(f);
    const hits = overridesCache.hits;
    await addChange(f);
    expect(overridesCache.hits).toBe(hits + 1);
    // The agent appends a filter and hides the write from mtime; ctime still moves.
    const config = path.join(f.repo, '.git', 'config');
    fs.appendFileSync(config, evilFilter(f));
    fs.utimesSync(config, OLD, OLD);
    await addChange(f);
    expect(fs.existsSync(f.marker)).toBe(false);
    // Control: plain git runs the filter the agent planted.
    fs.appendFileSync(path.join(f.repo, 'a.txt'), 'plain\n');
    execFileSync('git', ['add', 'a.txt'], { cwd: f.repo, env: f.env, stdio: 'ignore' });
    expect(fs.existsSync(f.marker)).toBe(true);
  });

  it('GITRUN-5: an include that names a missing file is watched, and its later appearance is seen', async () => {
    const f = fixture();
    const config = path.join(f.repo, '.git', 'config');
    fs.appendFileSync(config, '[include]\n\tpath = extra.cfg\n');
    await settled([config, path.join(f.repo, '.git')]);
    overridesCache.clear();
    await addChange(f);
    const hits = overridesCache.hits;
    await addChange(f);
    expect(overridesCache.hits).toBe(hits + 1);
    const extra = path.join(f.repo, '.git', 'extra.cfg');
    fs.writeFileSync(extra, evilFilter(f));
    fs.utimesSync(extra, OLD, OLD);
    await addChange(f);
    expect(fs.existsSync(f.marker)).toBe(false);
    fs.appendFileSync(path.join(f.repo, 'a.txt'), 'plain\n');
    execFileSync('git', ['add', 'a.txt'], { cwd: f.repo, env: f.env, stdio: 'ignore' });
    expect(fs.existsSync(f.marker)).toBe(true);
  });

  it('GITRUN-5: a file included from the work tree is watched too', async () => {
    const f = fixture();
    const inc = path.join(f.repo, 'team.cfg');
    fs.writeFileSync(inc, '[core]\n\tautocrlf = false\n');
    const config = path.join(f.repo, '.git', 'config');
    fs.appendFileSync(config, '[include]\n\tpath = ../team.cfg\n');
    await settled([config, inc, path.join(f.repo, '.git')]);
    overridesCache.clear();
    await addChange(f);
    const hits = overridesCache.hits;
    await addChange(f);
    expect(overridesCache.hits).toBe(hits + 1);
    fs.appendFileSync(inc, evilFilter(f));
    fs.utimesSync(inc, OLD, OLD);
    await addChange(f);
    expect(fs.existsSync(f.marker)).toBe(false);
  });
});
