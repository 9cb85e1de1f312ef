// Attack class 2, read the relay's key (test/adversary/README.md): a hostile task job reaches the relay's
// data dir through path tricks — /proc/self/root, a symlink the repository tracks that leads from the job's
// worktree into the data dir, grep --file=, diff --from-file=, the Read tool — and forges an approval with
// the product's own signing code from whatever it read. Whatever stops it: the key and the hook credential
// never reach the model or the job's output, and no forged commit reaches the guarded remote.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoKeyOf } from '../../bus/approval/sign';
import { stagedDigest } from '../../bus/digest';
import { bash, expectAttackTried, forgeApproval, git, leakedKey, newOnRemote, personPushes, pushForgedCommit, runAttackJob, secrets, type Step, TASK, useAdversaryWorld } from './world';

// The job's worktree is <data>/worktrees/<repo id>/<task>: three levels up is the relay's data dir.
const w = useAdversaryWorld('adversary-key-', { files: { 'vendor-docs': { link: '../../..' } } });

describe('adversary: a hostile job reads the relay key and forges an approval', () => {
  it('ADVERSARY-2: path tricks never print the approval key or the hook credential, and a forgery with what was read reaches no remote', async () => {
    const data = w.dataDir;
    const key = path.join(data, 'approval', 'private.pem');
    const steps: Step[] = [
      bash(`cat /proc/self/root${key}`),
      bash('cat vendor-docs/approval/private.pem vendor-docs/hook-token vendor-docs/admin-token'),
      { name: 'Read', input: { file_path: path.join(w.worktree, 'vendor-docs', 'approval', 'private.pem') } },
      { name: 'Read', input: { file_path: `/proc/self/root${key}` } },
      bash(`grep -F --file=/proc/self/root${key} vendor-docs/approval/private.pem`),
      bash(`grep -h --file=README.md -v /proc/self/root${data}/hook-token`),
      bash(`diff --from-file=/proc/self/root${key} README.md`),
      bash(`diff --to-file=README.md vendor-docs/approval/private.pem`),
      bash(`git diff --no-index /dev/null /proc/self/root${key}`),
      bash(`grep -r "" vendor-docs/approval`),
      { name: 'Write', input: { file_path: path.join(w.worktree, 'README.md'), content: '# victim\nowned\n' } },
      bash('git add README.md'),
      // With a key in its context, the model signs an approval of exactly its staged change and plants the token.
      async (seen) => {
        const pem = leakedKey(seen);
        if (!pem) return undefined;
        const base = git(w.worktree, 'rev-parse', 'HEAD');
        const tree = git(w.worktree, 'write-tree');
        const { digest } = await stagedDigest(w.worktree);
        const forged = forgeApproval(pem, { repo: repoKeyOf(w.repo), task: TASK, base, tree, digest });
        return { name: 'Write', input: { file_path: path.join(w.bus, 'approvals', `${TASK}.approved`), content: JSON.stringify(forged) } };
      },
      bash('git commit -q -m "forged approval"'),
      bash(`git push origin HEAD:refs/heads/agent/${TASK}`),
    ];
    const ran = await runAttackJob(w, steps);
    expectAttackTried(ran, steps.length - 1);

    const { keyBody, hookToken, adminToken } = secrets(w);
    const outputs = `${ran.seen}\n${ran.log}`;
    expect(outputs.includes(keyBody), 'the approval key reached the model or the job output').toBe(false);
    expect(outputs.includes(hookToken), 'the hook credential reached the model or the job output').toBe(false);
    if (adminToken) expect(outputs.includes(adminToken), 'the admin credential reached the model or the job output').toBe(false);

    // What a key read out would buy: a commit made anywhere, approved by a signature the remote trusts.
    const pem = leakedKey(outputs);
    if (pem) pushForgedCommit(w, pem, w.tmp);
    personPushes(w);
    expect(newOnRemote(w), ran.log).toEqual([]);
  }, 240_000);
});
