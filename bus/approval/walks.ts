// The two checks that run away from the server (RVERIFY-5, RVERIFY-6): a range from a
// person or CI (`base..head`, or a branch checked against the repo's default branch),
// and the local `pre-push` hook, whose "known" side is what the remote itself
// advertises at push time — never remote-tracking refs, which anything local can write.
import { BusError } from '../errors';
import { isTaskId } from '../../protocol/bus/ids';
import { describeObjects, gitRun } from './git';
import { isZero, type PushUpdate, taskOfRef, type Walk } from './verify';

export interface RangeWalk { walk: Walk; base: string; head: string; defaultBase: boolean }

/** `base..head` (either side empty = HEAD), or a single revision checked against the default branch. */
export async function rangeWalk(cwd: string, spec: string, task?: string): Promise<RangeWalk> {
  if (spec.includes('...')) throw new BusError('E_BAD_ARGS', `${JSON.stringify(spec)}: name a range as base..head (a symmetric "..." range has no base)`);
  const at = spec.indexOf('..');
  const single = at < 0;
  const head = single ? spec : spec.slice(at + 2) || 'HEAD';
  const base = single ? await defaultBranch(cwd) : spec.slice(0, at) || 'HEAD';
  const [b, h] = await describeObjects(cwd, [base, head].map(revName));
  for (const [name, fact] of [[base, b], [head, h]] as const) {
    if (fact?.commit === undefined) throw new BusError('E_NOT_FOUND', `unknown revision ${JSON.stringify(name)}: no branch, tag or commit of that name here`);
  }
  const bound = task ?? taskOfName(head);
  return { walk: { tips: [{ oid: h!.commit!, ref: head, ...(bound ? { task: bound } : {}) }], known: [b!.commit!] }, base, head, defaultBase: single };
}

/** A name as cat-file reads it: an option-looking or multi-line name is refused rather than interpreted. */
function revName(name: string): string {
  if (name.startsWith('-') || /[\s]/.test(name) || name === '') throw new BusError('E_BAD_ARGS', `${JSON.stringify(name)} is not a revision name`);
  return name;
}

/** `agent/<task>` at the end of a branch name (`agent/T-1`, `origin/agent/T-1`, `refs/heads/agent/T-1`). */
export function taskOfName(name: string): string | undefined {
  const m = /(?:^|\/)agent\/([^/]+)$/.exec(name);
  return m && isTaskId(m[1]) ? m[1] : undefined;
}

/** The repo's base branch: `init.defaultBranch` if that branch exists, else `origin/HEAD`'s branch, else main, else master. */
export async function defaultBranch(cwd: string): Promise<string> {
  const candidates: string[] = [];
  const configured = (await gitRun(cwd, ['config', '--get', 'init.defaultBranch']).catch(() => Buffer.alloc(0))).toString('utf8').trim();
  if (configured !== '') candidates.push(configured);
  const origin = (await gitRun(cwd, ['symbolic-ref', '-q', '--short', 'refs/remotes/origin/HEAD']).catch(() => Buffer.alloc(0))).toString('utf8').trim();
  if (origin !== '') candidates.push(origin);
  candidates.push('main', 'master');
  const facts = await describeObjects(cwd, candidates.map((c) => `refs/${c.startsWith('origin/') ? 'remotes' : 'heads'}/${c}`));
  const found = candidates.find((_, i) => facts[i]?.commit !== undefined);
  if (found === undefined) throw new BusError('E_NOT_FOUND', `cannot tell this repo's base branch (none of ${candidates.join(', ')} exists): name it, e.g. commandr verify main..agent/T-1`);
  return found;
}

/**
 * The pre-push walk: each pushed ref's new commits (agent branches always, every ref
 * with `all`), minus the commits the remote advertises right now (`git ls-remote`) that
 * exist here. An agent can move `refs/remotes/*` locally; it cannot change what the
 * remote answers — though it could push somewhere else, which is the server's to refuse.
 */
export async function prePushWalk(cwd: string, remote: string, updates: PushUpdate[], all: boolean): Promise<Walk> {
  const chosen = updates.filter((u) => !isZero(u.local) && (all || taskOfRef(u.remoteRef) !== undefined));
  if (chosen.length === 0) return { tips: [], known: [] };
  let advertised: string[];
  try {
    advertised = (await gitRun(cwd, ['ls-remote', '--', remote])).toString('utf8').split('\n').map((l) => l.split('\t')[0]!).filter((o) => /^[0-9a-f]{40,64}$/.test(o));
  } catch (error) {
    throw new BusError('E_GIT', `cannot list what ${remote} already has, so cannot tell which commits are new: ${(error as Error).message}`, { cause: error });
  }
  const remoteOids = updates.map((u) => u.remote).filter((o) => !isZero(o));
  const candidates = [...new Set([...advertised, ...remoteOids])];
  const facts = await describeObjects(cwd, [...chosen.map((u) => u.local), ...candidates]);
  const known = candidates.map((_, i) => facts[chosen.length + i]!.commit).filter((c): c is string => c !== undefined);
  const tips = chosen.flatMap((u, i) => {
    const commit = facts[i]!.commit;
    const task = taskOfRef(u.remoteRef) ?? taskOfRef(u.localRef);
    return commit === undefined ? [] : [{ oid: commit, ref: u.remoteRef, ...(task ? { task } : {}) }];
  });
  return { tips, known: [...new Set(known)] };
}
