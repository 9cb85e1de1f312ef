// Read models the relay sends to clients: repos, tasks, devices, commanders,
// permission requests. Shapes of bus files come from protocol/bus.
import * as z from 'zod/mini';
import { TaskId } from '../bus/ids';
import { PacketType, TaskState } from '../bus/packet';
import { Verdict } from '../bus/verdict';
import { Annotation } from '../bus/annotation';
import { CommanderRecord, SHOWN_COMMANDER_ID_PATTERN } from '../commander';

/** A repo's id: `<basename>-<8 hex of sha256(realpath)>`, safe as a file name. */
export const RepoId = z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,80}-[0-9a-f]{8}$/, 'repo id must be <name>-<8 hex>'));
export type RepoId = z.infer<typeof RepoId>;

/** Position in a repo's events.jsonl: byte offset after the last delivered line,
 *  and the log's identity (dev:ino) so a replaced or truncated log is detected. */
export const Cursor = z.object({ offset: z.int().check(z.minimum(0)), epoch: z.string().check(z.maxLength(200)) });
export type Cursor = z.infer<typeof Cursor>;

export const RepoInfo = z.object({
  id: RepoId,
  name: z.string(),
  path: z.string(),
  demo: z.boolean(),
});
export type RepoInfo = z.infer<typeof RepoInfo>;

export const PendingApproval = z.object({
  digest: z.string(),
  worktree: z.string(),
  files: z.int(),
  ts: z.string(),
});
export type PendingApproval = z.infer<typeof PendingApproval>;

/**
 * Where a task is in its life (TSTATE-1), derived by the relay from the packet's state and the
 * bus events: inbox → running → approval (a staged change waits for a person) → approved (waiting
 * for the agent's commit) → committed (hash, subject, branch, whether it carried the approval) →
 * merged (the relay merged its branch into the base, FINISH-1) → done or failed. A done task whose
 * commit is not merged keeps `commit` and no `merged`, so it can still be finished (TSTATE-6).
 */
export const TASK_STAGES = ['inbox', 'running', 'approval', 'approved', 'committed', 'merged', 'done', 'failed'] as const;
export const TaskStage = z.enum(TASK_STAGES);
export type TaskStage = z.infer<typeof TaskStage>;

export const TaskCommit = z.object({
  hash: z.string(),
  subject: z.string(),
  branch: z.string(),
  /** The commit carried a valid approval of the person, which it spent (`task_committed` with its digest). */
  verified: z.boolean(),
  ts: z.string(),
});
export type TaskCommit = z.infer<typeof TaskCommit>;

export const TaskLife = z.object({
  stage: TaskStage,
  /** The digest approved (stage approved) or waiting (stage approval). */
  digest: z.optional(z.string()),
  /** The task's newest commit reported on the bus (stage committed, and kept once done). */
  commit: z.optional(TaskCommit),
  /** The merge of that commit into its base (`task_merged` after the newest commit), TSTATE-6. */
  merged: z.optional(z.object({ base: z.string(), commit: z.string(), mode: z.enum(['fast-forward', 'merge']), ts: z.string() })),
  /** The newest pull request opened for the task (`pr_opened`). */
  pr: z.optional(z.object({ url: z.string(), base: z.string() })),
  /**
   * FINISH-10: whether the commit's branch has a remote to go to (its upstream's remote, else `origin`,
   * with a URL), read from git config when the summary is made; set while a commit waits to be finished.
   * Absent: unknown (an older relay, git could not say), and the app offers Push and Open pull request.
   */
  remote: z.optional(z.boolean()),
});
export type TaskLife = z.infer<typeof TaskLife>;

export const TaskSummary = z.object({
  repo: RepoId,
  id: TaskId,
  /** Packet file name in its state directory. */
  file: z.string(),
  type: z.nullable(PacketType),
  scope: z.nullable(z.string()),
  /** First markdown heading of the body, or null. */
  title: z.nullable(z.string()),
  state: TaskState,
  owner: z.nullable(z.string()),
  blockedBy: z.array(z.string()),
  lastNote: z.nullable(z.string()),
  lastEventTs: z.nullable(z.string()),
  /** When the packet file was last written (ISO): a card's age before the task has any event (ROOM-6). */
  since: z.optional(z.string()),
  verdict: z.nullable(Verdict),
  annotations: z.object({ total: z.int(), unconsumed: z.int() }),
  /** Set while a gate block waits for a person and no grant/deny answered it. */
  pendingApproval: z.nullable(PendingApproval),
  /** Result of the task's last `task_complete` / `task_failed`, if any. */
  result: z.nullable(z.enum(['pass', 'fail', 'failed'])),
  /** The task's stage in its life (TSTATE-1); absent from relays that predate it. */
  life: z.optional(TaskLife),
});
export type TaskSummary = z.infer<typeof TaskSummary>;

export const AnnotationView = z.object({
  file: z.string(),
  annotation: Annotation,
  /** ANNOT-6: not the person's — git tracks the file (it came with the repository) or it sits behind a symbolic link; never given to the agent. */
  fromRepository: z.optional(z.literal(true)),
});
export type AnnotationView = z.infer<typeof AnnotationView>;

export const CheckResult = z.object({
  label: z.string(),
  ok: z.nullable(z.boolean()),
  cmd: z.optional(z.string()),
  summary: z.optional(z.string()),
  at: z.string(),
  /** Who says so (CRED-3): `agent` = posted by the agent's hook, not verified by the relay. */
  reportedBy: z.optional(z.literal('agent')),
});
export type CheckResult = z.infer<typeof CheckResult>;

export const TaskDetail = z.object({
  summary: TaskSummary,
  body: z.string(),
  annotations: z.array(AnnotationView),
  checks: z.array(CheckResult),
});
export type TaskDetail = z.infer<typeof TaskDetail>;

export const DeviceView = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.nullable(z.string()),
  current: z.boolean(),
  push: z.boolean(),
  /** OWNER-1: an owner device may revoke and rename other devices. */
  owner: z.optional(z.boolean()),
});
export type DeviceView = z.infer<typeof DeviceView>;

export { COMMANDER_STATUSES, CommanderStatus } from '../commander';
/** What clients see of a commander is its record, declared once in protocol/commander.ts; a member's id is labelled (FLEETX-1). */
export const CommanderView = z.extend(CommanderRecord, {
  id: z.string().check(z.regex(SHOWN_COMMANDER_ID_PATTERN)),
  /** SANDBOX-WARN-1: 'off' when its relay runs commander turns without the OS sandbox (`--no-sandbox`). */
  sandbox: z.optional(z.enum(['on', 'off'])),
});
export type CommanderView = z.infer<typeof CommanderView>;

export const PermissionDecision = z.enum(['allow', 'allow-session', 'deny']);
export type PermissionDecision = z.infer<typeof PermissionDecision>;

/** Longest tool description / policy sentence a permission request carries (CARD-1); the hook cuts to it, the relay refuses more. */
export const PERMISSION_DESCRIPTION_MAX = 500;
export const PERMISSION_WHY_MAX = 500;

/** Why the policy asks a person (CARD-1), as `commandr policy check` says it: the rule, its sentence, the part of a command that decided. */
export const PermissionPolicyWhy = z.object({
  rule: z.string().check(z.minLength(1), z.maxLength(64)),
  why: z.string().check(z.minLength(1), z.maxLength(PERMISSION_WHY_MAX)),
  part: z.optional(z.string().check(z.maxLength(PERMISSION_WHY_MAX))),
});
export type PermissionPolicyWhy = z.infer<typeof PermissionPolicyWhy>;

export const PermissionRequestView = z.object({
  id: z.string(),
  session: z.string(),
  task: z.nullable(z.string()),
  agent: z.nullable(z.string()),
  repo: z.nullable(z.string()),
  tool: z.string(),
  /** One readable line: the command, or the file being edited. */
  summary: z.string(),
  /** The command in full, or the proposed change as a small unified diff. */
  detail: z.nullable(z.string()),
  cwd: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  status: z.enum(['pending', 'allowed', 'denied', 'expired']),
  decidedBy: z.nullable(z.string()),
  reason: z.nullable(z.string()),
  /** Why the policy asks a person (CARD-1); absent on requests recorded before it existed. */
  policy: z.optional(PermissionPolicyWhy),
  /** The tool's own description of the call, agent-written plain text (CARD-1). */
  description: z.optional(z.string().check(z.maxLength(PERMISSION_DESCRIPTION_MAX))),
});
export type PermissionRequestView = z.infer<typeof PermissionRequestView>;

export const PUSH_KINDS = ['approval_requested', 'council_verdict', 'task_done', 'commander_waiting', 'permission_request'] as const;
export const PushKind = z.enum(PUSH_KINDS);
export type PushKind = z.infer<typeof PushKind>;

export const PushPrefs = z.object({
  kinds: z.record(PushKind, z.boolean()),
  /** Do-not-disturb window in the device's local time, "HH:MM". */
  dnd: z.nullable(z.object({ start: z.string().check(z.regex(/^\d\d:\d\d$/)), end: z.string().check(z.regex(/^\d\d:\d\d$/)), tzOffsetMinutes: z.int() })),
});
export type PushPrefs = z.infer<typeof PushPrefs>;

export const PushSubscriptionJSON = z.object({
  endpoint: z.string().check(z.startsWith('https://'), z.maxLength(2048)),
  expirationTime: z.optional(z.nullable(z.number())),
  keys: z.object({ p256dh: z.string().check(z.maxLength(200)), auth: z.string().check(z.maxLength(100)) }),
});
export type PushSubscriptionJSON = z.infer<typeof PushSubscriptionJSON>;
