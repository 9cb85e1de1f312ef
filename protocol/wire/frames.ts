// Every relay ⇄ client WebSocket frame, one discriminated union per direction
// on `type` (WIRE-n). HTTP bodies that carry the same actions reuse these.
import * as z from 'zod/mini';
import { TaskId } from '../bus/ids';
import { AnyBusEvent, Sha256Digest } from '../bus/events';
import { LiveEvent } from '../live-events';
import { WireError } from './errors';
import { ArtifactRef, QuestionId, QuestionReplyVia, QuestionView } from './questions';
import {
  CommanderView, Cursor, DeviceView, PermissionDecision, PermissionRequestView, PushPrefs,
  PushSubscriptionJSON, RepoId, RepoInfo, TaskSummary,
} from './views';

/** Largest frame or HTTP body the relay reads (WIRE-LIMIT-1). */
export const MAX_FRAME_BYTES = 1024 * 1024;
/** Action signatures are accepted within this window of the relay's clock. */
export const ACTION_WINDOW_MS = 30_000;
/** Client-generated action id: unique per device; retries reuse it. */
export const ActionId = z.string().check(z.regex(/^[A-Za-z0-9_-]{8,64}$/, 'action id must be 8–64 of [A-Za-z0-9_-]'));

const text = (max: number) => z.string().check(z.maxLength(max));
const CommanderId = z.string().check(z.regex(/^c-[a-z0-9]{6,32}$/, 'commander id must be c-<lowercase alnum>'));
export { CommanderId };

// ── client → relay ────────────────────────────────────────────────────────

/** Answer to `auth.challenge`: base64url ECDSA P-256/SHA-256 (IEEE P1363)
 *  signature over `authMessage(nonce)`. */
export const AuthResponse = z.object({ type: z.literal('auth.response'), device: text(64), sig: text(200) });

/** Reads: answered, never change anything, not signed (the socket is authenticated). */
const read = { id: ActionId };
export const Subscribe = z.object({ type: z.literal('subscribe'), ...read, cursors: z.optional(z.record(RepoId, Cursor)) });
export const TaskDiffRequest = z.object({ type: z.literal('task.diff'), ...read, repo: RepoId, task: TaskId });
export const TaskDetailRequest = z.object({ type: z.literal('task.detail'), ...read, repo: RepoId, task: TaskId });
export const TaskTimelineRequest = z.object({ type: z.literal('task.timeline'), ...read, repo: RepoId, task: TaskId });
export const DeviceListRequest = z.object({ type: z.literal('device.list'), ...read });
export const CommanderOutputRequest = z.object({ type: z.literal('commander.output'), ...read, commander: CommanderId });
/** The app reports whether it is open and visible (then it gets live updates, not pushes). */
export const ClientVisibility = z.object({ type: z.literal('client.visibility'), ...read, visible: z.boolean() });

/** Mutations: signed by the device key (`sig` over `actionMessage(frame)`),
 *  `ts` = the client's clock in ms, applied at most once per (device, id). */
const act = { id: ActionId, ts: z.int(), sig: text(200) };
export const TaskApprove = z.object({ type: z.literal('task.approve'), ...act, repo: RepoId, task: TaskId, digest: Sha256Digest });
export const TaskDeny = z.object({
  type: z.literal('task.deny'), ...act, repo: RepoId, task: TaskId, digest: Sha256Digest, reason: z.optional(text(2000)),
});
export const TaskAnnotate = z.object({
  type: z.literal('task.annotate'), ...act, repo: RepoId, task: TaskId,
  turn: z.int().check(z.minimum(0), z.maximum(9999)), anchor: text(1100), body: text(64 * 1024),
});
export const TaskCouncil = z.object({ type: z.literal('task.council'), ...act, repo: RepoId, task: TaskId });
export const TaskRun = z.object({ type: z.literal('task.run'), ...act, repo: RepoId, task: TaskId, mode: z.enum(['work', 'review']) });
export const CommanderCreate = z.object({ type: z.literal('commander.create'), ...act, name: text(80).check(z.minLength(1)), referencePath: text(4096) });
export const CommanderMessage = z.object({ type: z.literal('commander.message'), ...act, commander: CommanderId, text: text(64 * 1024).check(z.minLength(1)) });
export const CommanderReplace = z.object({ type: z.literal('commander.replace'), ...act, commander: CommanderId });
export const CommanderAddReference = z.object({ type: z.literal('commander.addReference'), ...act, commander: CommanderId, path: text(4096) });
export const CommanderDelete = z.object({ type: z.literal('commander.delete'), ...act, commander: CommanderId });
export const PermissionDecide = z.object({
  type: z.literal('permission.decide'), ...act, request: text(64), decision: PermissionDecision, reason: z.optional(text(2000)),
});
export const DeviceRename = z.object({ type: z.literal('device.rename'), ...act, device: text(64), name: text(80).check(z.minLength(1)) });
export const DeviceRevoke = z.object({ type: z.literal('device.revoke'), ...act, device: text(64) });
export const PushSubscribe = z.object({ type: z.literal('push.subscribe'), ...act, subscription: PushSubscriptionJSON, prefs: PushPrefs });
export const PushUnsubscribe = z.object({ type: z.literal('push.unsubscribe'), ...act });
export const PushPrefsUpdate = z.object({ type: z.literal('push.prefs'), ...act, prefs: PushPrefs });

// Agent questions, action approvals, artifacts (ASK-n, ACTAPPROVE-n, ARTIFACT-n; protocol/wire/questions.ts).
export const ArtifactOpen = z.object({ type: z.literal('artifact.open'), ...read, ...ArtifactRef.shape });
/** `choice` is the index of the chosen choice; `text` is typed or dictated (`via: 'voice'`). */
export const QuestionAnswer = z.object({
  type: z.literal('question.answer'), ...act, request: QuestionId, via: QuestionReplyVia,
  choice: z.optional(z.int().check(z.minimum(0), z.maximum(5))), text: z.optional(text(4000)),
});
export const QuestionDecide = z.object({
  type: z.literal('question.decide'), ...act, request: QuestionId, decision: z.enum(['approve', 'deny']), reason: z.optional(text(2000)),
});

export const ReadFrame = z.discriminatedUnion('type', [
  Subscribe, TaskDiffRequest, TaskDetailRequest, TaskTimelineRequest, DeviceListRequest, CommanderOutputRequest, ClientVisibility,
  ArtifactOpen,
]);
export type ReadFrame = z.infer<typeof ReadFrame>;

export const ActionFrame = z.discriminatedUnion('type', [
  TaskApprove, TaskDeny, TaskAnnotate, TaskCouncil, TaskRun,
  CommanderCreate, CommanderMessage, CommanderReplace, CommanderAddReference, CommanderDelete,
  PermissionDecide, DeviceRename, DeviceRevoke, PushSubscribe, PushUnsubscribe, PushPrefsUpdate,
  QuestionAnswer, QuestionDecide,
]);
export type ActionFrame = z.infer<typeof ActionFrame>;
export type ActionType = ActionFrame['type'];
/** True for the types that must be signed (the `ActionFrame` union's members). */
export function isActionType(type: unknown): type is ActionType {
  return typeof type === 'string' && ActionFrame._zod.propValues.type!.has(type);
}

export const ClientFrame = z.discriminatedUnion('type', [AuthResponse, ReadFrame, ActionFrame]);
export type ClientFrame = z.infer<typeof ClientFrame>;

// ── relay → client ────────────────────────────────────────────────────────

export const AuthChallenge = z.object({ type: z.literal('auth.challenge'), nonce: z.string(), relay: z.object({ version: z.string() }) });
export const AuthOk = z.object({ type: z.literal('auth.ok'), device: DeviceView });

/** Full state of one repo; `cursor` is where its `bus.events` continue from.
 *  `resync: true` when sent because the log was truncated or replaced. */
export const RepoSnapshot = z.object({
  type: z.literal('repo.snapshot'), repo: RepoInfo, tasks: z.array(TaskSummary), cursor: Cursor, resync: z.optional(z.boolean()),
});
/** Durable bus events in log order; each carries the cursor just after its line. */
export const BusEvents = z.object({
  type: z.literal('bus.events'), repo: RepoId,
  events: z.array(z.object({ cursor: Cursor, event: AnyBusEvent })),
  /** The task summaries these events changed, recomputed by the relay. */
  tasks: z.array(TaskSummary),
});
export const RepoRemoved = z.object({ type: z.literal('repo.removed'), repo: RepoId });

/** A task's diff, streamed: `begin` (summary), `chunk`s of the unified patch, `end`. */
export const DiffBegin = z.object({
  type: z.literal('task.diff.begin'), id: ActionId, repo: RepoId, task: TaskId,
  source: z.enum(['approval', 'branch', 'none']),
  /** The digest an approval must carry (staged change of the reviewed worktree), or null. */
  digest: z.nullable(z.string()),
  worktree: z.nullable(z.string()),
  files: z.array(z.unknown()),
  bytes: z.int(),
});
export const DiffChunk = z.object({ type: z.literal('task.diff.chunk'), id: ActionId, seq: z.int(), data: z.string() });
export const DiffEnd = z.object({ type: z.literal('task.diff.end'), id: ActionId, chunks: z.int() });

export const CommanderState = z.object({ type: z.literal('commander.state'), commander: CommanderView });
/** `allowedRoots`: where a reference path may point, for the app's Start sheet. */
export const CommanderList = z.object({ type: z.literal('commander.list'), commanders: z.array(CommanderView), allowedRoots: z.array(z.string()) });
export const CommanderOutput = z.object({
  type: z.literal('commander.output'), commander: CommanderId, session: z.nullable(z.string()), seq: z.int(), chunk: z.string(),
});
export const CommanderRemoved = z.object({ type: z.literal('commander.removed'), commander: CommanderId });

/** Ephemeral: live session telemetry; never replayed. */
export const LiveEventFrame = z.object({ type: z.literal('live.event'), at: z.string(), event: LiveEvent });
/** The client fell behind and `dropped` ephemeral frames were not sent. */
export const RelayLagged = z.object({ type: z.literal('relay.lagged'), dropped: z.int() });

export const PermissionRequestFrame = z.object({ type: z.literal('permission.request'), request: PermissionRequestView });
export const PermissionList = z.object({ type: z.literal('permission.list'), requests: z.array(PermissionRequestView) });

export const QuestionRequestFrame = z.object({ type: z.literal('question.request'), request: QuestionView });
export const QuestionList = z.object({ type: z.literal('question.list'), requests: z.array(QuestionView) });

export const JobState = z.object({
  type: z.literal('job.state'), job: z.string(), repo: RepoId, task: TaskId, mode: z.enum(['work', 'review']),
  status: z.enum(['running', 'done', 'failed']), exitCode: z.nullable(z.int()),
});
export const JobOutput = z.object({ type: z.literal('job.output'), job: z.string(), seq: z.int(), chunk: z.string() });

export const Ack = z.object({ type: z.literal('ack'), id: ActionId, result: z.optional(z.unknown()) });
export const ErrorFrame = z.object({ type: z.literal('error'), id: z.optional(z.string()), error: WireError });

export const ServerFrame = z.discriminatedUnion('type', [
  AuthChallenge, AuthOk, RepoSnapshot, BusEvents, RepoRemoved, DiffBegin, DiffChunk, DiffEnd,
  CommanderState, CommanderList, CommanderOutput, CommanderRemoved, LiveEventFrame, RelayLagged,
  PermissionRequestFrame, PermissionList, JobState, JobOutput, Ack, ErrorFrame,
  QuestionRequestFrame, QuestionList,
]);
export type ServerFrame = z.infer<typeof ServerFrame>;
export type ServerFrameOf<K extends ServerFrame['type']> = Extract<ServerFrame, { type: K }>;
