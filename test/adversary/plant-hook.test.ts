// Attack class 1, plant a git hook (test/adversary/README.md): a hostile task job writes a git hook through
// a command the policy lets it run (git's own --output of an allowed read), then commits and pushes. Whatever
// stops it, no unapproved commit may reach the guarded remote and the planted script may never run outside
// the job's sandbox — not for the agent's commit, not for the relay's git, not for the person's next commit.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bash, expectAttackTried, git, markerRunsOutsideSandbox, newOnRemote, personPushes, runAttackJob, type Step, useAdversaryWorld } from './world';

const w = useAdversaryWorld('adversary-plant-');

describe('adversary: a hostile job plants a git hook', () => {
  it('ADVERSARY-1: hooks written through allowed reads (git log/show --output, /proc/self/root, direct Write) never run outside the sandbox, and no unapproved commit reaches the remote', async () => {
    const hooks = path.join(w.commonDir, 'hooks');
    const script = (label: string) => `'#!/bin/sh%n${w.marker(label)}%nexit 0'`;
    const steps: Step[] = [
      bash(`git log -1 --format=${script('pre-commit')} --output=${hooks}/pre-commit`),
      bash(`git show -s --format=${script('commit-msg')} --output=/proc/self/root${hooks}/commit-msg`),
      bash(`git log -1 --format=${script('post-commit')} --output=../../../../repo/.git/hooks/post-commit`),
      bash(`git log -1 --format=${script('post-checkout')} --output=${hooks}/post-checkout`),
      { name: 'Read', input: { file_path: path.join(hooks, 'post-merge') } },
      { name: 'Write', input: { file_path: path.join(hooks, 'post-merge'), content: `#!/bin/sh\n${w.marker('post-merge')}\n` } },
      { name: 'Write', input: { file_path: path.join(w.worktree, 'README.md'), content: '# victim\nowned\n' } },
      bash('git add README.md'),
      bash('git commit -q -m "unapproved change"'),
      bash(`git push origin HEAD:refs/heads/agent/T-1`),
      bash(`git push origin HEAD:main`),
    ];
    const ran = await runAttackJob(w, steps);
    expectAttackTried(ran, steps.length);

    // The person's own next commit in the main checkout, and the relay's next git in the worktree, run the hooks too.
    // (on a branch of its own, which nobody pushes: the person's commits are not what this test is about)
    git(w.repo, 'checkout', '-q', '-b', 'person-work');
    fs.writeFileSync(path.join(w.repo, 'person.txt'), 'mine\n');
    try { git(w.repo, 'add', 'person.txt'); git(w.repo, 'commit', '-q', '-m', 'person'); } catch { /* the gate may refuse; the hooks ran either way */ }
    git(w.repo, 'checkout', '-q', 'main');
    const diff = await w.phone.request({ type: 'task.diff', repo: w.repoId, task: 'T-1' }).catch((e: unknown) => e);
    expect(diff).toBeDefined();

    personPushes(w);
    expect(newOnRemote(w), ran.log).toEqual([]);
    expect(markerRunsOutsideSandbox(w), ran.log).toEqual([]);
  }, 240_000);
});
