// The home ⇄ member relay link (FLEET-n): a WebSocket at FLEET_PATH on the home,
// opened by the member. Both sides prove their Ed25519 machine key; the member
// pins the home's key fingerprint printed with the join code.
import * as z from 'zod/mini';
import { WireError } from './errors';
import { MachineId, MachineName, MAX_VERSION_CHARS } from './machines';
import { PushPayload } from './push';
import {
  BusEvents, DiffBegin, RepoRemoved, DiffChunk, DiffEnd, RepoDoneRequest, RepoSnapshot, RepoTasks, TaskAnnotate, TaskApprove, TaskDeny, TaskMerge, TaskPr, TaskPush,
  TaskDetailRequest, TaskDiffRequest, TaskNoteRequest, TaskTimelineRequest,
  CommanderAddReference, CommanderCreate, CommanderDelete, CommanderMessage, CommanderOutput, CommanderOutputRequest, CommanderRemoved,
  CommanderReplace, CommanderState, JobOutput, JobState, JobStop, PermissionDecide, PermissionRequestFrame, TaskCouncil, TaskRun,
} from './frames';
import { Cursor, RepoId } from './views';

export const FLEET_PATH = '/fleet';
/** A join code is valid this long. */
export const JOIN_CODE_TTL_MS = 10 * 60_000;

const b64u = (max: number) => z.string().check(z.regex(/^[A-Za-z0-9_-]+$/, 'base64url expected'), z.maxLength(max));

export { MachineId, MachineName } from './machines';
/** An Ed25519 public key: its 32 raw bytes in base64url. */
export const MachineKey = z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/, 'machine key must be 32 bytes base64url'));
/** sha256 of the raw public key, base64url (43 chars). */
export const KeyFingerprint = MachineKey;
const Nonce = b64u(64).check(z.minLength(43));
const Sig = z.string().check(z.regex(/^[A-Za-z0-9_-]{86}$/, 'signature must be 64 bytes base64url'));

/** What `commandr machines add` prints and `commandr join` takes: `<secret>.<home key fingerprint>`. */
export const JoinCode = z.string().check(z.regex(/^[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}$/, 'a join code is <43 chars>.<43 chars>'));

// home → member
export const FleetHello = z.object({ type: z.literal('fleet.hello'), nonce: Nonce, home: z.object({ key: MachineKey, version: z.string() }) });
/** `resume`: per member repo (the member's own id), the member's cursor of the last event the home forwarded; the member continues after it (FLEETR-1). */
export const FleetWelcome = z.object({ type: z.literal('fleet.welcome'), machine: MachineId, name: MachineName, sig: Sig, resume: z.optional(z.record(RepoId, Cursor)) });
/**
 * The home's signed word, in answer to a `fleet.auth`, that it does not know that machine (removed with
 * `commandr machines remove`, or never joined to it): `sig` over `removedProof(memberNonce, homeNonce, machine)`.
 * A member that verifies it with the pinned key stops linking until it joins again (FLEETE-2).
 */
export const FleetRemoved = z.object({ machine: MachineId, sig: Sig });
/** `removed`: only when the refusal is that the machine is unknown to the home (FLEETE-2); any other refusal may pass. */
export const FleetError = z.object({ type: z.literal('fleet.error'), error: z.object({ code: z.string(), message: z.string() }), removed: z.optional(FleetRemoved) });
/** Most forwarded requests one member may have unanswered at once (FLEET-20). */
export const MAX_PENDING_FORWARDS = 64;
/** A forwarded request the member has not answered by then fails with E_UNAVAILABLE (FLEET-20). */
export const FORWARD_TIMEOUT_MS = 30_000;
/** A forwarded `task.council` acks only when the member's council is done: its evaluators' default limit (120 s) plus the usual margin (FLEETX-4). */
export const COUNCIL_FORWARD_TIMEOUT_MS = 150_000;
/** How long the home waits for a member's answer to a forwarded frame of this type. */
export const forwardTimeoutMs = (type: string): number => (type === 'task.council' ? COUNCIL_FORWARD_TIMEOUT_MS : FORWARD_TIMEOUT_MS);
/** Most repos the home routes to one member; frames for more are dropped (FLEET-21). */
export const MAX_MEMBER_REPOS = 1000;
/** Most tasks the home remembers of one member repo (FLEET-22); the member's own snapshot is not cut. */
export const MAX_MEMBER_TASKS = 20_000;
/** Most JSON characters of repo state (task summaries, repo info) the home keeps of one member (FLEET-22): a frame carries at most 4 MiB, so counts alone do not bound it. */
export const MAX_MEMBER_STATE_CHARS = 64 * 1024 * 1024;
/** Deepest nesting of arrays/objects the home takes in a member frame (FLEET-21): deeper would overflow the stack when re-sent. */
export const MAX_LINK_DEPTH = 64;

/** True when `value` nests no deeper than `max` (checked without recursion). */
export function nestsWithin(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (!v || typeof v !== 'object') continue;
    if (depth >= max) return false;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return true;
}
/** The home's id for one forwarded request. */
export const ForwardId = z.string().check(z.regex(/^f-[0-9a-f]{16}$/, 'forward id must be f-<16 hex>'));
/** The device frames a home forwards to a member (FLEET-20): the device's own frame, verbatim (repo id labelled, signature kept). */
export const ForwardedFrame = z.discriminatedUnion('type', [
  TaskApprove, TaskDeny, TaskAnnotate, TaskDiffRequest, TaskDetailRequest, TaskTimelineRequest, TaskNoteRequest, RepoDoneRequest,
  // FLEETX-3..5: council and run on a member's repo; a member's prompts, jobs and commanders by their labelled ids.
  TaskCouncil, TaskRun, PermissionDecide, JobStop,
  CommanderCreate, CommanderMessage, CommanderReplace, CommanderAddReference, CommanderDelete, CommanderOutputRequest,
  // Finishing a committed task on a member's repo (protocol/spec/finish.md).
  TaskMerge, TaskPush, TaskPr,
]);
export type ForwardedFrame = z.infer<typeof ForwardedFrame>;
/** The forwarded frames that name a repo (FLEET-20, FLEETX-4). */
export type RepoForwardedFrame = Extract<ForwardedFrame, { repo: string }>;
/** Most commander output one forwarded `commander.output` read streams back (4 × the 64 KiB a relay keeps); the rest is dropped (FLEETX-6). */
export const MAX_FORWARDED_REPLAY_CHARS = 256 * 1024;
/** Most permission requests, jobs and commanders the home remembers of one member (FLEETX-2). */
export const MAX_MEMBER_OBJECTS = 500;
export const FORWARDED_TYPES: ReadonlySet<string> = ForwardedFrame._zod.propValues.type as Set<string>;
/** A device's read or action for one of this member's repos; `device` is the paired device on the home that signed it (kept for audit). */
export const FleetAction = z.object({
  type: z.literal('fleet.action'), rid: ForwardId,
  device: z.object({ id: z.string().check(z.regex(/^d-[0-9a-f]{16}$/, 'device id must be d-<16 hex>')), name: z.string().check(z.maxLength(80)) }),
  frame: ForwardedFrame,
});
export type FleetAction = z.infer<typeof FleetAction>;
export const HomeFrame = z.discriminatedUnion('type', [FleetHello, FleetWelcome, FleetError, FleetAction]);
export type HomeFrame = z.infer<typeof HomeFrame>;

// member → home
/** The member's Commandr version, shown in the app's Machines list (FLEETUI-4). */
const MemberVersion = z.string().check(z.maxLength(MAX_VERSION_CHARS));
/** First contact: redeems the join code's secret and registers the member's key. */
export const FleetJoin = z.object({ type: z.literal('fleet.join'), secret: b64u(43), name: MachineName, key: MachineKey, nonce: Nonce, sig: Sig, version: z.optional(MemberVersion) });
/** Every later connection: a machine the home knows proves its key. */
export const FleetAuth = z.object({ type: z.literal('fleet.auth'), machine: MachineId, nonce: Nonce, sig: Sig, version: z.optional(MemberVersion) });
/** A member's bus frame, forwarded to the home's devices with the repo labelled by machine. */
export const FleetBus = z.object({ type: z.literal('fleet.bus'), frame: z.discriminatedUnion('type', [BusEvents, RepoSnapshot, RepoTasks, RepoRemoved]) });
/** A streamed part of a forwarded request's answer (a diff, a page of done tasks), for the requesting device only. */
export const FleetStream = z.object({ type: z.literal('fleet.stream'), rid: ForwardId, frame: z.discriminatedUnion('type', [DiffBegin, DiffChunk, DiffEnd, RepoTasks, CommanderOutput]) });
/** The member's one answer to a forwarded request. */
export const FleetResult = z.union([
  z.object({ type: z.literal('fleet.result'), rid: ForwardId, ok: z.literal(true), result: z.optional(z.unknown()) }),
  z.object({ type: z.literal('fleet.result'), rid: ForwardId, ok: z.literal(false), error: WireError }),
]);
/** A push a member's bus triggered (an approval request, a verdict, a task done), for the home to send to its devices (FLEET-23). */
export const FleetPush = z.object({ type: z.literal('fleet.push'), payload: PushPayload });
/** A frame the member's own services broadcast (a permission prompt, a job's or commander's state and output), for the home's devices (FLEETX-2). */
export const FleetFrame = z.object({
  type: z.literal('fleet.frame'),
  frame: z.discriminatedUnion('type', [PermissionRequestFrame, JobState, JobOutput, CommanderState, CommanderOutput, CommanderRemoved]),
});
export type FleetFrame = z.infer<typeof FleetFrame>;
export const FLEET_FRAME_TYPES: ReadonlySet<string> = FleetFrame.shape.frame._zod.propValues.type as Set<string>;
export const MemberFrame = z.union([FleetJoin, FleetAuth, FleetBus, FleetStream, FleetResult, FleetPush, FleetFrame]);
export type MemberFrame = z.infer<typeof MemberFrame>;

/** The member signs this with its machine key (join and auth). */
export function memberProof(homeNonce: string, memberNonce: string, homeFingerprint: string): string {
  return `commandr-fleet:v1:member:${homeNonce}:${memberNonce}:${homeFingerprint}`;
}
/** The home signs this with its machine key (welcome). */
export function homeProof(memberNonce: string, homeNonce: string, machine: string): string {
  return `commandr-fleet:v1:home:${memberNonce}:${homeNonce}:${machine}`;
}

/** The home signs this with its machine key when it refuses a `fleet.auth` of a machine it does not know (FLEETE-2). */
export function removedProof(memberNonce: string, homeNonce: string, machine: string): string {
  return `commandr-fleet:v1:removed:${memberNonce}:${homeNonce}:${machine}`;
}

/** The home's record of a member (`<dataDir>/fleet/machines.json`). */
export const MachineRecord = z.object({ id: MachineId, name: MachineName, key: MachineKey, joinedAt: z.string() });
export type MachineRecord = z.infer<typeof MachineRecord>;
export const MachinesFile = z.object({ machines: z.array(MachineRecord) });

/** The member's record of its home (`<dataDir>/fleet/home.json`). */
export const HomeRecord = z.object({ url: z.string(), fingerprint: KeyFingerprint, machine: MachineId, name: MachineName });
export type HomeRecord = z.infer<typeof HomeRecord>;
