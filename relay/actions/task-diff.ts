// `task.diff`: the change under review for a task (contract §10, bus/diff.ts),
// streamed as task.diff.begin, chunks of at most 256 KiB, task.diff.end, then the ack.
import type * as z from 'zod/mini';
import { loadOrCreateSigningKey, publicKeyFile } from '../../bus/approval/keys';
import { taskDiff, type TaskDiff } from '../../bus/diff';
import { committedDiff } from '../../bus/diff-committed';
import { defaultBranch } from '../../bus/approval/walks';
import { recordApprovalKey } from '../../bus/init';
import type { TaskDiffRequest } from '../../protocol/wire/frames';
import * as path from 'node:path';
import { warmStagedState } from './staged-state';
import { noteAgentWorktree } from './task-review';
import { type TaskActionContext, taskPlace, wireError } from './task-common';

export const DIFF_CHUNK_BYTES = 256 * 1024;
/** UTF-16 units per chunk: at most 3 UTF-8 bytes each, so a chunk stays within DIFF_CHUNK_BYTES. */
const CHUNK_UNITS = Math.floor(DIFF_CHUNK_BYTES / 3);

export async function taskDiffRead(ctx: TaskActionContext, frame: z.infer<typeof TaskDiffRequest>): Promise<unknown> {
  const place = taskPlace(ctx.services, frame.repo, frame.task);
  const diff = await changeOf(place.bus, frame.task, place.summary.life?.commit?.hash).catch((e: unknown) => { throw wireError(e); });
  const chunks = splitText(diff.patch);
  const { patch: _patch, ...summary } = diff;
  // Where a merge of this committed work goes (the base task.merge uses by default), for the button's words (VOCAB-6).
  const into = diff.source === 'commit' ? await defaultBranch(path.dirname(place.bus)).then((b) => b.replace(/^origin\//, ''), () => undefined) : undefined;
  ctx.send({
    type: 'task.diff.begin', id: frame.id, repo: frame.repo, task: frame.task, source: diff.source,
    digest: diff.digest ?? null, worktree: diff.worktree ?? null, files: diff.files, bytes: Buffer.byteLength(diff.patch),
    ...(diff.source === 'commit' && diff.commit && diff.base && diff.branch ? { commit: { tip: diff.commit, base: diff.base, branch: diff.branch, ...(into ? { into } : {}) } } : {}),
  });
  chunks.forEach((data, seq) => ctx.send({ type: 'task.diff.chunk', id: frame.id, seq, data }));
  ctx.send({ type: 'task.diff.end', id: frame.id, chunks: chunks.length });
  // An approve of this change usually follows: read what it binds now, off this answer's path (APPROVE-1),
  // and pin the relay's key in the repo before the first one (INIT-4): the approve itself runs no git.
  if (diff.digest && diff.worktree) {
    pinKeyOnce(path.dirname(place.bus), ctx.services.dataDir);
    if (diff.branch) noteAgentWorktree(path.dirname(place.bus), diff.branch, diff.worktree);
    warmStagedState(diff.worktree);
  }
  return { ...summary, chunks: chunks.length };
}

/**
 * The change to show for the task's state (TSTATE-3): a staged change when one is there (waiting for
 * approval, or staged on the agent's branch); with nothing staged, the committed work of agent/<task>
 * against its merge base with the default branch; else nothing.
 */
export async function changeOf(bus: string, task: string, knownCommit?: string): Promise<TaskDiff> {
  const staged = await taskDiff(bus, task);
  if (staged.digest) return staged;
  return (await committedDiff(bus, task, knownCommit)) ?? staged;
}

/** Splits text into pieces of at most CHUNK_UNITS units, never between a surrogate pair. */
export function splitText(text: string): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + CHUNK_UNITS);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    out.push(text.slice(at, end));
    at = end;
  }
  return out;
}

/** Repos whose config this relay has already checked for `commandr.approvalKey`. */
const pinned = new Set<string>();

/**
 * INIT-4 when the relay first shows an approvable change of a repo: a repo set up before the relay had a key gets
 * the relay's key file recorded (the key is made now if this relay has none yet), so its gate stops taking the key
 * from a commit's environment. Never replaces a key a person set; a failure leaves the diff as it is.
 */
function pinKeyOnce(repo: string, dataDir: string): void {
  if (pinned.has(repo)) return;
  pinned.add(repo);
  try {
    loadOrCreateSigningKey(dataDir);
    recordApprovalKey(repo, publicKeyFile(dataDir));
  } catch {
    // the diff stands; `commandr init` records the key too
  }
}
