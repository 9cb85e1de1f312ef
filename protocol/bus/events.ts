// Every line of `.agents/events.jsonl` (EVENTS-1..n). Writers emit only these;
// readers also accept unknown event types (see `AnyBusEvent`).
import * as z from 'zod/mini';
import { IsoTime, TaskId } from './ids';
import { MCP_BUS_EVENTS } from './mcp-events';

const base = { ts: IsoTime };
const Sha256Digest = z.string().check(z.regex(/^sha256:[0-9a-f]{64}$/, 'digest must be sha256:<64 hex>'));
export { Sha256Digest };

export const TaskClaimed = z.object({ ...base, event: z.literal('task_claimed'), task: TaskId, agent: z.string(), machine: z.string() });
/** A lapsed lease on `refs/tasks/<id>` taken over (LEASE-4): `previous` is the claimant it lapsed for. */
export const TaskReclaimed = z.object({ ...base, event: z.literal('task_reclaimed'), task: TaskId, agent: z.string(), machine: z.string(), previous: z.string() });
/** A remote claim given back with `commandr claims release` (LEASE-7). */
export const TaskReleased = z.object({ ...base, event: z.literal('task_released'), task: TaskId, agent: z.string() });
export const TaskProgress = z.object({ ...base, event: z.literal('task_progress'), task: TaskId, note: z.string(), agent: z.optional(z.string()) });
export const TaskComplete = z.object({ ...base, event: z.literal('task_complete'), task: TaskId, result: z.enum(['pass', 'fail']) });
export const TaskFailed = z.object({ ...base, event: z.literal('task_failed'), task: TaskId, agent: z.string(), reason: z.string() });
export const SessionEnd = z.object({
  ...base,
  event: z.literal('session_end'),
  session: z.string(),
  task: z.optional(TaskId),
  files_changed: z.optional(z.int()),
  tests_summary: z.optional(z.string()),
  exit_status: z.optional(z.string()),
});
export const CouncilVerdictEvent = z.object({
  ...base,
  event: z.literal('council_verdict'),
  task: TaskId,
  verdict: z.enum(['PASS', 'FAIL']),
  evaluator_count: z.int(),
  abstentions: z.int(),
});
export const TaskAnnotation = z.object({
  ...base,
  event: z.literal('task_annotation'),
  task: TaskId,
  turn: z.int(),
  anchor: z.string(),
  author: z.string(),
  seq: z.int(),
});
export const ApprovalRequested = z.object({
  ...base,
  event: z.literal('approval_requested'),
  task: TaskId,
  digest: Sha256Digest,
  worktree: z.string(),
  files: z.int(),
});
export const ApprovalGranted = z.object({ ...base, event: z.literal('approval_granted'), task: TaskId, digest: Sha256Digest, by: z.string() });
export const ApprovalDenied = z.object({
  ...base,
  event: z.literal('approval_denied'),
  task: TaskId,
  digest: Sha256Digest,
  by: z.string(),
  reason: z.optional(z.string()),
});

/** A commit landed on a task's branch (APPROVAL-8): `digest` only when it carried a valid approval, which it spent. */
export const TaskCommitted = z.object({
  ...base,
  event: z.literal('task_committed'),
  task: TaskId,
  commit: z.string().check(z.regex(/^[0-9a-f]{40,64}$/)),
  subject: z.string(),
  digest: z.optional(Sha256Digest),
});

const Oid = z.string().check(z.regex(/^[0-9a-f]{40,64}$/));
/** A task's branch merged into its base by the relay (FINISH-1): `mode` says whether the base fast-forwarded or got a merge commit. */
export const TaskMerged = z.object({
  ...base, event: z.literal('task_merged'), task: TaskId, base: z.string(), commit: Oid, mode: z.enum(['fast-forward', 'merge']), by: z.string(),
});
/** A task's branch pushed to the repo's remote by the relay (FINISH-5). */
export const TaskPushed = z.object({ ...base, event: z.literal('task_pushed'), task: TaskId, remote: z.string(), branch: z.string(), commit: Oid, by: z.string() });
/** A pull (merge) request opened with the person's own forge CLI (FINISH-6). */
export const PrOpened = z.object({
  ...base, event: z.literal('pr_opened'), task: TaskId, forge: z.enum(['gh', 'glab']), url: z.string(), base: z.string(), branch: z.string(), by: z.string(),
});

export const BusEvent = z.discriminatedUnion('event', [
  TaskClaimed,
  TaskReclaimed,
  TaskReleased,
  TaskProgress,
  TaskComplete,
  TaskFailed,
  SessionEnd,
  CouncilVerdictEvent,
  TaskAnnotation,
  ApprovalRequested,
  ApprovalGranted,
  ApprovalDenied,
  TaskCommitted,
  // Finishing a task from the phone (protocol/spec/finish.md).
  TaskMerged,
  TaskPushed,
  PrOpened,
  // v0.5: the `commandr mcp` tools' events (protocol/bus/mcp-events.ts).
  ...MCP_BUS_EVENTS,
]);
export type BusEvent = z.infer<typeof BusEvent>;
export type BusEventName = BusEvent['event'];
export type BusEventOf<K extends BusEventName> = Extract<BusEvent, { event: K }>;

/** What a reader accepts: any object with `ts` and `event` (unknown types tolerated). */
export const AnyBusEvent = z.looseObject({ ts: z.string(), event: z.string() });
export type AnyBusEvent = z.infer<typeof AnyBusEvent>;

/** Helper for writers: an event without its `ts`, stamped when appended. */
export type NewBusEvent = BusEvent extends infer E ? (E extends BusEvent ? Omit<E, 'ts'> : never) : never;
