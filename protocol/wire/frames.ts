// Every relay ⇄ client WebSocket frame, one discriminated union per direction
// on `type` (WIRE-n). HTTP bodies that carry the same actions reuse these.
import * as z from 'zod/mini';
import { TaskId } from '../bus/ids';
import { PacketType } from '../bus/packet';
import { AnyBusEvent, Sha256Digest } from '../bus/events';
import { DiffSource } from '../bus/diff';
import { LiveEvent } from '../live-events';
import { PhotoData, PhotoList, PhotoName } from '../photos';
import { WireError } from './errors';
import { JobFailureFields } from './job-failure';
import { DeviceName } from './device-name';
import { ArtifactRef, QuestionId, QuestionReplyVia, QuestionView } from './questions';
import { MachineId, MachineServerFrames } from './machines';
import { SHOWN_COMMANDER_ID_PATTERN } from '../commander';
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
/** An agent adapter's name (ADAPTER-1): `claude`, `opencode`, or a local one. */
export const AgentName = z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'agent must be an adapter name'));
/** A task job's id (JOB-1). */
export const JobId = z.string().check(z.regex(/^(?:[0-9a-f]{8}\.)?j-[0-9a-f]{12}$/, 'job id must be j-<12 hex> (a member\'s: <8 hex>.j-<12 hex>)'));
/** A commander's id; a member's carries its machine's prefix (FLEETX-1). */
const CommanderId = z.string().check(z.regex(SHOWN_COMMANDER_ID_PATTERN, 'commander id must be c-<lowercase alnum> (a member\'s: <8 hex>.c-…)'));
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
/** The whole of a bus event's fields that were cut to SHOWN_FIELD_BYTES (LIMIT-2): the event is named by its cursor. */
export const TaskNoteRequest = z.object({ type: z.literal('task.note'), ...read, repo: RepoId, task: TaskId, cursor: Cursor });
export const DeviceListRequest = z.object({ type: z.literal('device.list'), ...read });
export const CommanderOutputRequest = z.object({ type: z.literal('commander.output'), ...read, commander: CommanderId });
/** A kept photo back to a paired device (PHOTO-9): a note's (repo + task) or a commander message's (commander), by the relay's own name. */
export const PhotoRead = z.object({
  type: z.literal('photo.read'), ...read, name: PhotoName,
  repo: z.optional(RepoId), task: z.optional(TaskId), commander: z.optional(CommanderId),
});
/** The app reports whether it is open and visible (then it gets live updates, not pushes). */
export const ClientVisibility = z.object({ type: z.literal('client.visibility'), ...read, visible: z.boolean() });

// ── snapshot paging (PAGE-n) and resume (RESUME-n) ──
/** Most tasks in one `repo.snapshot` / `repo.tasks` frame (PAGE-1). */
export const SNAPSHOT_PAGE_TASKS = 500;
/** Most task-summary JSON in one snapshot page, about (a single larger summary still travels alone). */
export const SNAPSHOT_PAGE_BYTES = 256 * 1024;
/** Done tasks a snapshot carries itself (newest first); older ones come with `repo.done`. */
export const SNAPSHOT_DONE_TASKS = 50;
/** Where a page of done tasks continues: the last task of the previous page (newest-first order). */
export const DonePageKey = z.object({ ts: z.nullable(z.string().check(z.maxLength(64))), id: TaskId });
export type DonePageKey = z.infer<typeof DonePageKey>;
/** Asks for the next page of a repo's done tasks, older than `before` (from the newest when absent). */
export const RepoDoneRequest = z.object({
  type: z.literal('repo.done'), ...read, repo: RepoId, before: z.optional(DonePageKey),
  limit: z.optional(z.int().check(z.minimum(1), z.maximum(SNAPSHOT_PAGE_TASKS))),
});

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
  photo: z.optional(PhotoData), // PHOTO-n: base64, checked and stripped by the relay
  photos: z.optional(PhotoList), // PHOTO-8: up to four, with `photo` counted among them
});
export const TaskCouncil = z.object({ type: z.literal('task.council'), ...act, repo: RepoId, task: TaskId });
/** Finishing a committed task (protocol/spec/finish.md): merge agent/<task> into `base` (the repo's default branch when absent). */
const BranchName = z.string().check(z.minLength(1), z.maxLength(200), z.regex(/^(?!-)(?!.*\.\.)(?!.*\/\/)(?!.*\.lock$)[A-Za-z0-9._\/-]+$/, 'must be a branch name'));
export const TaskMerge = z.object({ type: z.literal('task.merge'), ...act, repo: RepoId, task: TaskId, base: z.optional(BranchName) });
export const TaskPush = z.object({ type: z.literal('task.push'), ...act, repo: RepoId, task: TaskId });
export const TaskPr = z.object({ type: z.literal('task.pr'), ...act, repo: RepoId, task: TaskId, base: z.optional(BranchName), forge: z.optional(z.enum(['gh', 'glab'])) });
export const TaskRun = z.object({
  type: z.literal('task.run'), ...act, repo: RepoId, task: TaskId, mode: z.enum(['work', 'review']),
  /** Which agent adapter runs the job (UX-4); the relay's selected one when absent. */
  agent: z.optional(AgentName),
});
export const CommanderCreate = z.object({
  type: z.literal('commander.create'), ...act, name: text(80).check(z.minLength(1)), referencePath: text(4096),
  /** The agent adapter the commander runs on for good (UX-6); the relay's selected one when absent. */
  agent: z.optional(AgentName),
  /** The person's first message, folded into the first turn's prompt (UX-6). */
  message: z.optional(text(64 * 1024)),
  /** A member machine to create it on (FLEETX-5); the home's own when absent. */
  machine: z.optional(MachineId),
});
export const CommanderMessage = z.object({ type: z.literal('commander.message'), ...act, commander: CommanderId, text: text(64 * 1024).check(z.minLength(1)), photo: z.optional(PhotoData), photos: z.optional(PhotoList) });
export const CommanderReplace = z.object({ type: z.literal('commander.replace'), ...act, commander: CommanderId });
export const CommanderAddReference = z.object({ type: z.literal('commander.addReference'), ...act, commander: CommanderId, path: text(4096) });
export const CommanderDelete = z.object({ type: z.literal('commander.delete'), ...act, commander: CommanderId });
export const PermissionDecide = z.object({
  type: z.literal('permission.decide'), ...act, request: text(64), decision: PermissionDecision, reason: z.optional(text(2000)),
});
export const DeviceRename = z.object({ type: z.literal('device.rename'), ...act, device: text(64), name: DeviceName });
export const DeviceRevoke = z.object({ type: z.literal('device.revoke'), ...act, device: text(64) });
/** Removes a member machine from the home (FLEETUI-5); owner devices only. */
export const MachineRemove = z.object({ type: z.literal('machine.remove'), ...act, machine: MachineId });
export const PushSubscribe = z.object({ type: z.literal('push.subscribe'), ...act, subscription: PushSubscriptionJSON, prefs: PushPrefs });
export const PushUnsubscribe = z.object({ type: z.literal('push.unsubscribe'), ...act });
export const PushPrefsUpdate = z.object({ type: z.literal('push.prefs'), ...act, prefs: PushPrefs });

// Starting work from the phone (UX-3, UX-5): a new packet in a repo's inbox, and stopping a job.
/** One line of text: no control characters (a line break would end a YAML scalar or a heading). */
const line = (max: number) => z.string().check(z.minLength(1), z.maxLength(max), z.regex(/^[^\u0000-\u001f\u007f\u2028\u2029]+$/, 'must be one line without control characters'));
export const NewPacket = z.object({
  id: TaskId,
  type: PacketType,
  scope: line(500),
  title: line(200),
  context: text(32 * 1024),
  /** One criterion a line; each becomes a `- ` list item. */
  acceptance: text(32 * 1024),
});
export type NewPacket = z.infer<typeof NewPacket>;
export const TaskCreate = z.object({ type: z.literal('task.create'), ...act, repo: RepoId, packet: NewPacket });
export const JobStop = z.object({ type: z.literal('job.stop'), ...act, job: JobId });

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
  Subscribe, TaskDiffRequest, TaskDetailRequest, TaskTimelineRequest, TaskNoteRequest, DeviceListRequest, CommanderOutputRequest, ClientVisibility,
  RepoDoneRequest,
  ArtifactOpen,
  PhotoRead,
]);
export type ReadFrame = z.infer<typeof ReadFrame>;

export const ActionFrame = z.discriminatedUnion('type', [
  TaskApprove, TaskDeny, TaskAnnotate, TaskCouncil, TaskRun,
  CommanderCreate, CommanderMessage, CommanderReplace, CommanderAddReference, CommanderDelete,
  PermissionDecide, DeviceRename, DeviceRevoke, PushSubscribe, PushUnsubscribe, PushPrefsUpdate,
  TaskCreate, JobStop,
  QuestionAnswer, QuestionDecide,
  MachineRemove,
  TaskMerge, TaskPush, TaskPr,
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
 *  `resync: true` when sent because the log was truncated or replaced.
 *  Paged (PAGE-n): `tasks` is the first page; `pages` more `repo.tasks` frames follow at once;
 *  `done` counts the repo's done tasks and how many of them the snapshot carries (newest first).
 *  `at`: the relay's clock when it was built (RESUME-3). */
export const RepoSnapshot = z.object({
  type: z.literal('repo.snapshot'), repo: RepoInfo, tasks: z.array(TaskSummary), cursor: Cursor, resync: z.optional(z.boolean()),
  pages: z.optional(z.int().check(z.minimum(0))),
  done: z.optional(z.object({ total: z.int().check(z.minimum(0)), sent: z.int().check(z.minimum(0)) })),
  at: z.optional(z.string()),
});
/** More tasks of one repo: the rest of a snapshot's pages, or (with `id`) a page answering `repo.done`. */
export const RepoTasks = z.object({ type: z.literal('repo.tasks'), id: z.optional(ActionId), repo: RepoId, tasks: z.array(TaskSummary) });
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
  source: DiffSource,
  /** source commit: the committed change shown — the branch's tip, the base it is diffed against, the branch (TSTATE-3),
   *  and `into`: the branch `task.merge` merges it into by default, so the phone can say "Merge into <base>" (VOCAB-6). */
  commit: z.optional(z.object({ tip: z.string(), base: z.string(), branch: z.string(), into: z.optional(z.string()) })),
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
  /** The adapter running it (UX-4). */
  agent: z.optional(z.string()),
  /** Set when a person stopped it (UX-5). */
  stopped: z.optional(z.boolean()),
  ...JobFailureFields,
});
export const JobOutput = z.object({ type: z.literal('job.output'), job: z.string(), seq: z.int(), chunk: z.string() });

export const Ack = z.object({ type: z.literal('ack'), id: ActionId, result: z.optional(z.unknown()) });
export const ErrorFrame = z.object({ type: z.literal('error'), id: z.optional(z.string()), error: WireError });

export const ServerFrame = z.discriminatedUnion('type', [
  AuthChallenge, AuthOk, RepoSnapshot, RepoTasks, BusEvents, RepoRemoved, DiffBegin, DiffChunk, DiffEnd,
  CommanderState, CommanderList, CommanderOutput, CommanderRemoved, LiveEventFrame, RelayLagged,
  PermissionRequestFrame, PermissionList, JobState, JobOutput, Ack, ErrorFrame,
  QuestionRequestFrame, QuestionList, ...MachineServerFrames,
]);
export type ServerFrame = z.infer<typeof ServerFrame>;
export type ServerFrameOf<K extends ServerFrame['type']> = Extract<ServerFrame, { type: K }>;
