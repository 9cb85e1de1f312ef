// SANDBOX-13 (real bubblewrap): a workspace, repo or HOME that *contains* Commandr's data dir —
// a dotfiles repo at ~ with the default ~/.commandr inside it, a HOME under /tmp — must not show
// the data dir again when it is bound into the sandbox. Each refusal is paired with the same read
// outside succeeding, so the test fails if the sandbox stops hiding it.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxSupport, type SandboxSpec } from '../../adapters/sandbox';
import { runInside } from './run-inside';

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

let home: string;
let dataDir: string;
let secret: string;

const inside = (spec: SandboxSpec, script: string) => runInside(spec, script, { HOME: home });

beforeAll(() => {
  expect(sandboxSupport()).toMatchObject({ ok: true, kind: 'bwrap' });
  // A HOME under /tmp that is itself a git repo (dotfiles at ~), with the data dir inside it.
  home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sbx-home-')));
  dataDir = path.join(home, '.commandr');
  secret = path.join(dataDir, 'hook-token');
  fs.mkdirSync(path.join(dataDir, 'approval'), { recursive: true, mode: 0o700 });
  fs.writeFileSync(secret, 'THE-HOOK-TOKEN\n', { mode: 0o600 });
  fs.writeFileSync(path.join(dataDir, 'approval', 'private.pem'), 'THE-APPROVAL-KEY\n', { mode: 0o600 });
  git(home, 'init', '-q', '-b', 'main');
  git(home, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'dotfiles');
});

afterAll(() => {
  fs.rmSync(home, { recursive: true, force: true });
});

describe('SANDBOX-13: the data dir stays hidden inside a workspace that contains it', () => {
  it('SANDBOX-13: a repo at ~ (the working directory) holding ~/.commandr: its secrets cannot be read or written inside; the repo itself can', async () => {
    expect(fs.readFileSync(secret, 'utf8')).toContain('THE-HOOK-TOKEN');
    const spec: SandboxSpec = { cwd: home, repo: home, gitCommonDir: path.join(home, '.git'), dataDir, home };
    const read = await inside(spec, `cat ${secret}; cat ${dataDir}/approval/private.pem; ls -A ${dataDir}`);
    expect(read.stdout).not.toContain('THE-HOOK-TOKEN');
    expect(read.stdout).not.toContain('THE-APPROVAL-KEY');
    expect(read.stdout).not.toContain('hook-token');
    const write = await inside(spec, `echo forged > ${secret} 2>/dev/null; echo notes > ${home}/notes.txt && echo wrote-repo`);
    expect(write.stdout).toContain('wrote-repo');
    expect(fs.readFileSync(path.join(home, 'notes.txt'), 'utf8')).toBe('notes\n');
    expect(fs.readFileSync(secret, 'utf8')).toBe('THE-HOOK-TOKEN\n');
  });

  it('SANDBOX-13: a HOME under /tmp holding the data dir, with the work elsewhere: the data dir is still hidden', async () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sbx-work-'));
    try {
      const spec: SandboxSpec = { cwd: work, dataDir, home };
      const read = await inside(spec, `cat ${secret}; ls -A ${dataDir}`);
      expect(read.stdout).not.toContain('THE-HOOK-TOKEN');
      expect(read.stdout).not.toContain('hook-token');
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});

describe('SANDBOX-14: the person\'s own policy holds inside the sandbox', () => {
  it('SANDBOX-14: <dataDir>/policy.yaml and checks are readable (not writable) inside; the secrets beside them are not', async () => {
    const policy = path.join(dataDir, 'policy.yaml');
    fs.writeFileSync(policy, 'deny:\n  commands: [ls]\n');
    try {
      const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sbx-work-'));
      const spec: SandboxSpec = { cwd: work, dataDir, home };
      const r = await inside(spec, `cat ${policy}; echo 'allow: {}' > ${policy} 2>/dev/null || echo refused; cat ${secret}`);
      expect(r.stdout).toContain('commands: [ls]');
      expect(r.stdout).toContain('refused');
      expect(r.stdout).not.toContain('THE-HOOK-TOKEN');
      expect(fs.readFileSync(policy, 'utf8')).toBe('deny:\n  commands: [ls]\n');
      fs.rmSync(work, { recursive: true, force: true });
    } finally {
      fs.rmSync(policy, { force: true });
    }
  });
});
