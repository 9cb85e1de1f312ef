// SANDBOX-15: the macOS profile that sandboxArgv builds (real inputs: a HOME that is a dotfiles
// repo containing the data dir, a job worktree inside the data dir, a repo with hooks/config and
// approvals) decides each access as the bubblewrap sandbox does. sandbox-exec is not on Linux:
// the profile is evaluated here by SBPL's documented rule (the LAST matching rule wins) over the
// filter forms the profile uses (subpath, literal, regex), never run by sandbox-exec itself.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxArgv, type SandboxSpec } from '../../adapters/sandbox';

type Op = 'file-read*' | 'file-write*';
interface Rule { allow: boolean; ops: string[]; filters: Array<(p: string) => boolean> | null }

/** Parses the profile's rules: `(allow|deny op… filter…)`; a rule with no filter matches every path. */
function parse(profile: string): Rule[] {
  const rules: Rule[] = [];
  for (const line of profile.split('\n')) {
    const m = /^\((allow|deny) (.*)\)$/.exec(line);
    if (!m) continue;
    const ops = [...m[2]!.matchAll(/(?:^| )([a-z*-]+\*?)(?= |$)/g)].map((x) => x[1]!).filter((o) => !o.startsWith('('));
    const filters: Array<(p: string) => boolean> = [];
    for (const f of m[2]!.matchAll(/\((subpath|literal|regex) (#?"(?:[^"\\]|\\.)*")\)/g)) {
      const kind = f[1]!;
      const raw = f[2]!;
      if (kind === 'regex') {
        const re = new RegExp(raw.slice(2, -1));
        filters.push((p) => re.test(p));
      } else {
        const value = JSON.parse(raw) as string;
        filters.push(kind === 'literal' ? (p) => p === value : (p) => p === value || p.startsWith(`${value}/`));
      }
    }
    rules.push({ allow: m[1] === 'allow', ops, filters: filters.length ? filters : null });
  }
  return rules;
}

function allowed(rules: Rule[], op: Op, p: string): boolean {
  let verdict = false;
  for (const r of rules) {
    const opMatch = r.ops.includes(op) || r.ops.includes('default') || (op.startsWith('file-') && r.ops.includes('file*'));
    if (!opMatch) continue;
    if (r.filters === null || r.filters.some((f) => f(p))) verdict = r.allow;
  }
  return verdict;
}

const dirs: string[] = [];
afterAll(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }); });

let home: string;
let dataDir: string;
let repo: string;
let worktree: string;
let rules: Rule[];

beforeAll(() => {
  home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sbx-mac-')));
  dirs.push(home);
  dataDir = path.join(home, '.commandr');
  fs.mkdirSync(path.join(dataDir, 'approval'), { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'approval', 'private.pem'), 'KEY\n');
  fs.writeFileSync(path.join(dataDir, 'policy.yaml'), 'deny: []\n');
  repo = path.join(home, 'src', 'app');
  fs.mkdirSync(path.join(repo, '.agents'), { recursive: true });
  execFileSync('git', ['init', '-q', repo]);
  worktree = path.join(dataDir, 'worktrees', 'T-1');
  fs.mkdirSync(worktree, { recursive: true });
  const spec: SandboxSpec = { cwd: worktree, repo, gitCommonDir: path.join(repo, '.git'), dataDir, home, writable: [home] };
  const cmd = sandboxArgv(spec, 'claude', ['-p', 'hi'], { ok: true, kind: 'sandbox-exec', detail: '/usr/bin/sandbox-exec' });
  expect(cmd.command).toBe('/usr/bin/sandbox-exec');
  expect(cmd.args.slice(0, 1)).toEqual(['-p']);
  expect(cmd.args.slice(2)).toEqual(['claude', '-p', 'hi']);
  rules = parse(cmd.args[1]!);
  expect(rules.length).toBeGreaterThan(5);
});

describe('SANDBOX-15: the macOS profile layers like the bubblewrap binds', () => {
  it('SANDBOX-15: the data dir is neither readable nor writable, even inside a writable HOME that contains it', () => {
    const key = path.join(dataDir, 'approval', 'private.pem');
    expect(allowed(rules, 'file-read*', key)).toBe(false);
    expect(allowed(rules, 'file-write*', key)).toBe(false);
    expect(allowed(rules, 'file-read*', path.join(dataDir, 'hook-token'))).toBe(false);
    // Control: the rest of that HOME is writable.
    expect(allowed(rules, 'file-write*', path.join(home, 'notes.txt'))).toBe(true);
  });

  it('SANDBOX-15: a job worktree inside the data dir is readable and writable; policy.yaml is readable, not writable', () => {
    expect(allowed(rules, 'file-write*', path.join(worktree, 'src', 'a.ts'))).toBe(true);
    expect(allowed(rules, 'file-read*', path.join(worktree, 'src', 'a.ts'))).toBe(true);
    expect(allowed(rules, 'file-read*', path.join(dataDir, 'policy.yaml'))).toBe(true);
    expect(allowed(rules, 'file-write*', path.join(dataDir, 'policy.yaml'))).toBe(false);
  });

  it('SANDBOX-15: the repo is writable but its hooks, config and approvals are not; the root is read-only', () => {
    expect(allowed(rules, 'file-write*', path.join(repo, 'README.md'))).toBe(true);
    expect(allowed(rules, 'file-write*', path.join(repo, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(allowed(rules, 'file-write*', path.join(repo, '.git', 'config'))).toBe(false);
    expect(allowed(rules, 'file-write*', path.join(repo, '.agents', 'approvals', 'T-1.approved'))).toBe(false);
    expect(allowed(rules, 'file-write*', path.join(home, '.claude', 'settings.json'))).toBe(false);
    expect(allowed(rules, 'file-write*', '/usr/local/bin/git')).toBe(false);
    expect(allowed(rules, 'file-read*', '/usr/local/bin/git')).toBe(true);
    expect(allowed(rules, 'file-write*', '/private/tmp/x')).toBe(true);
    expect(allowed(rules, 'file-write*', '/dev/null')).toBe(true);
  });
});
