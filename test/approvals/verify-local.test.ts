// `commandr verify` away from the server (RVERIFY-5, RVERIFY-6, RVERIFY-8): a branch
// checked against the repo's default branch, clear errors for unknown names, the
// local pre-push hook whose known side is what the remote advertises, and the CI
// template's range form.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildInstall, type Install } from '../conformance/harness';
import { Server } from './remote-fixture';

let install: Install;
let servers: Server[] = [];
beforeAll(async () => { install = await buildInstall(); }, 120_000);
afterAll(() => { if (install) fs.rmSync(install.root, { recursive: true, force: true }); });
afterEach(() => { for (const s of servers) s.cleanup(); servers = []; });
const server = (branch = 'main'): Server => { const s = new Server(install, branch); servers.push(s); return s; };

describe('verify a branch or range', () => {
  it('RVERIFY-5: a branch alone is checked against the default branch (master here) and says so; an unknown name is one clear line', () => {
    const s = server('master');
    s.git(['checkout', '-q', '-b', 'agent/T-1']);
    s.write('a.txt', 'a\n');
    s.approvedCommit('T-1', 'approved');
    const ok = s.commandr(['verify', '--key', s.pub, 'agent/T-1']);
    expect(ok.stdout).toBe('verify: checking master..agent/T-1 (master is this repo\'s default branch)\nverify: ok 1 commit(s)\n');
    expect(ok.status).toBe(0);
    const wrong = s.commandr(['verify', '--key', s.pub, 'main..agent/T-1']);
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toBe('verify: E_NOT_FOUND: unknown revision "main": no branch, tag or commit of that name here\n');
    expect(s.commandr(['verify', '--key', s.pub, 'agent/T-404']).stderr).toBe('verify: E_NOT_FOUND: unknown revision "agent/T-404": no branch, tag or commit of that name here\n');
    // The task comes from the branch name: T-1's approval on agent/T-2 is named as such.
    s.git(['branch', 'agent/T-2']);
    const other = s.commandr(['verify', '--key', s.pub, 'agent/T-2']);
    expect(other.status).toBe(1);
    expect(other.stderr).toContain(`verify: ${s.rev('agent/T-2')} "approved" on agent/T-2: the approval is for task T-1, not T-2`);
    // init.defaultBranch names the base when that branch exists.
    s.git(['branch', 'trunk', 'agent/T-1']);
    s.git(['config', 'init.defaultBranch', 'trunk']);
    expect(s.commandr(['verify', '--key', s.pub, 'agent/T-1']).stdout).toBe('verify: checking trunk..agent/T-1 (trunk is this repo\'s default branch)\nverify: ok 0 commit(s)\n');
  });

  it('RVERIFY-8: the CI form checks base..head of a pull request; the shipped workflow runs it from the base branch with the key from a repository variable', () => {
    const s = server();
    s.git(['checkout', '-q', '-b', 'agent/T-1']);
    s.write('a.txt', 'a\n');
    s.approvedCommit('T-1', 'approved');
    s.push(['main', 'agent/T-1']);
    // What the workflow does: a checkout of the base, the pull request's head fetched as data.
    const ci = path.join(s.dir, 'ci');
    s.git(['clone', '-q', s.bare, ci], s.dir);
    s.git(['fetch', '-q', 'origin', '+refs/heads/agent/T-1:refs/remotes/pr'], ci);
    const good = s.commandr(['verify', '--key', s.pub, '--range', 'origin/main..refs/remotes/pr'], ci);
    expect(good.stdout).toBe('verify: ok 1 commit(s)\n');
    s.write('b.txt', 'b\n');
    const bad = s.plainCommit('unapproved');
    s.push(['agent/T-1']);
    s.git(['fetch', '-q', 'origin', '+refs/heads/agent/T-1:refs/remotes/pr'], ci);
    const refused = s.commandr(['verify', '--key', s.pub, '--range', 'origin/main..refs/remotes/pr'], ci);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`verify: ${bad} "unapproved" on refs/remotes/pr: no Commandr-Approval trailer`);
    const workflow = parse(fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'ci', 'commandr-verify.yml'), 'utf8')) as { on: Record<string, unknown>; jobs: Record<string, { steps: { uses?: string; with?: Record<string, unknown>; env?: Record<string, string>; run?: string }[] }> };
    expect(Object.keys(workflow.on)).toEqual(['pull_request_target']);
    const steps = Object.values(workflow.jobs).flatMap((j) => j.steps);
    // No step checks out or runs the pull request's code: its commits are fetched as objects only.
    for (const step of steps) expect(JSON.stringify(step.with ?? {})).not.toMatch(/head/);
    const run = steps.map((st) => st.run ?? '').join('\n');
    expect(run).toMatch(/commandr" verify --key "\$RUNNER_TEMP\/relay\.pem".* --range "origin\/\$BASE_REF\.\.refs\/remotes\/pr"/);
    expect(steps.some((st) => st.env?.RELAY_KEY === '${{ vars.COMMANDR_RELAY_KEY }}')).toBe(true);
  });
});

describe('the pre-push hook', () => {
  function withPrePush(s: Server): void {
    fs.writeFileSync(path.join(s.work, '.git', 'hooks', 'pre-push'), `#!/bin/sh\nexec '${install.bin('commandr')}' verify --key '${s.pub}' --pre-push "$@"\n`, { mode: 0o755 });
  }

  it('RVERIFY-6: a remote-tracking ref written locally does not make an unapproved commit known; only what the remote advertises does', () => {
    const s = server();
    withPrePush(s);
    expect(s.run('git', ['push', '-q', 'origin', 'main']).status).toBe(0); // a person's main: not an agent branch, not checked
    s.git(['checkout', '-q', '-b', 'agent/T-1']);
    s.write('a.txt', 'a\n');
    s.approvedCommit('T-1', 'approved');
    s.write('b.txt', 'b\n');
    const bad = s.plainCommit('unapproved');
    // The agent makes its commit look already pushed.
    s.git(['update-ref', 'refs/remotes/origin/agent/T-1', bad]);
    s.git(['update-ref', 'refs/remotes/origin/main', bad]);
    const r = s.run('git', ['push', 'origin', 'agent/T-1']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(`verify: ${bad} "unapproved" on refs/heads/agent/T-1: no Commandr-Approval trailer`);
    expect(r.stderr).toContain('1 of 2 commit(s)');
    // From an agent's worktree, a push to main is checked too.
    s.git(['reset', '-q', '--hard', 'HEAD~1']);
    s.write('c.txt', 'c\n');
    const sneaky = s.plainCommit('to main');
    const toMain = s.run('git', ['push', 'origin', 'HEAD:main']);
    expect(toMain.status).not.toBe(0);
    expect(toMain.stderr).toContain(`verify: ${sneaky} "to main" on refs/heads/main`);
    s.git(['reset', '-q', '--hard', 'HEAD~1']);
    const ok = s.run('git', ['push', 'origin', 'agent/T-1']);
    expect(ok.stdout + ok.stderr).toContain('verify: ok 1 commit(s)');
    expect(ok.status).toBe(0);
  });
});
