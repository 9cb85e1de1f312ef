// The server side (RVERIFY-1..3): a guarded repo's `pre-receive` checks every commit
// the push makes newly reachable from any ref — branches, tags (annotated or not),
// notes, any `refs/*` — against the verified set only, and on success adds the new
// tips to it. A tip that is not a commit (a tree, a blob, a tag of one) is refused.
import { BusError } from '../errors';
import { describeObjects, gitRun } from './git';
import { appendVerified, readVerified, verifiedFile } from './verified-set';
import { isZero, parsePreReceive, taskOfRef, type Tip, type Trust, verifyWalk, type VerifyReport } from './verify';

/** The guarded repo's git dir, as git sees it from the hook's cwd. */
export async function gitDirOf(cwd: string): Promise<string> {
  return (await gitRun(cwd, ['rev-parse', '--absolute-git-dir'])).toString('utf8').trim();
}

export interface ReceiveOutcome extends VerifyReport { recorded: number }

/** Decides one push (`stdin` as git gives it to `pre-receive`); records the tips only when every commit passed. */
export async function verifyReceive(gitDir: string, stdin: string, trust: Trust): Promise<ReceiveOutcome> {
  const verified = readVerified(gitDir);
  if (verified === undefined) throw new BusError('E_NOT_FOUND', `this repository is not guarded yet: ${verifiedFile(gitDir)} is missing (run \`commandr verify --install ${gitDir}\`); every push is refused until then`);
  const live = parsePreReceive(stdin).filter((u) => !isZero(u.next));
  const facts = await describeObjects(gitDir, [...live.map((u) => u.next), ...verified]);
  const known = verified.filter((_, i) => facts[live.length + i]!.commit !== undefined);
  const outcome: ReceiveOutcome = { checked: 0, bad: [], recorded: 0 };
  const tips: Tip[] = [];
  live.forEach((u, i) => {
    const f = facts[i]!;
    if (f.commit === undefined) {
      outcome.bad.push({ commit: u.next, subject: '', ref: u.ref, reason: `${u.ref} would point at a ${f.object?.type ?? 'missing object'}, not a commit: only commits can carry an approval` });
    } else {
      const task = taskOfRef(u.ref);
      tips.push({ oid: f.commit, ref: u.ref, ...(task ? { task } : {}) });
    }
  });
  const report = await verifyWalk(gitDir, { tips, known }, trust);
  outcome.checked = report.checked;
  outcome.bad.push(...report.bad);
  if (outcome.bad.length === 0) {
    const seen = new Set(verified);
    const fresh = [...new Set(tips.map((t) => t.oid))].filter((oid) => !seen.has(oid));
    appendVerified(gitDir, fresh);
    outcome.recorded = fresh.length;
  }
  return outcome;
}
