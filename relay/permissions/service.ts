// PermissionService (PERM-n): pending tool calls waiting for a person. A hook's
// ask creates (or, by its key, finds again) a request; every paired device sees
// it; the first valid decision wins; no decision by `expiresAt` denies it.
import type { LiveEvent } from '../../protocol/live-events';
import { CommandrError } from '../../protocol/wire/errors';
import type { ServerFrame } from '../../protocol/wire/frames';
import type { PermissionAnswer, PermissionAsk } from '../../protocol/wire/http';
import { plainLine } from '../../protocol/wire/plain-text';
import { PERMISSION_DESCRIPTION_MAX, PERMISSION_WHY_MAX, type PermissionDecision, type PermissionRequestView } from '../../protocol/wire/views';
import { appendAudit } from './audit';
import { type PermissionRecord, PermissionFiles, requestIdFor, type SessionGrant } from './store';

export const DEFAULT_PERMISSION_TIMEOUT_MS = 120_000;
/** Decided requests still listed to a newly subscribed client (so "expired" can be shown). */
export const RECENT_MS = 10 * 60 * 1000;
/** How long a request whose every hook went away waits for a retry with its key before it is abandoned (GUARD-11). */
export const ABANDON_GRACE_MS = 5_000;

export interface PermissionDeps {
  dataDir: string;
  broadcast(frame: ServerFrame): void;
  /** A push notification for a new request (optional: push may be off). */
  /** A new request, and the same request once settled (PERM-UI-5). */
  notify?(view: PermissionRequestView): void;
  /** A line in the session's timeline (a live event). */
  timeline?(event: LiveEvent): void;
  /** Overrides ABANDON_GRACE_MS. */
  abandonGraceMs?: number;
  /** The repo a working directory belongs to, if the relay knows it. */
  repoOf?(cwd: string): string | null;
  now?(): number;
}

type Waiter = (answer: PermissionAnswer) => void;

export function timeoutReason(ms: number): string {
  return `No one answered on the phone within ${Math.round(ms / 1000)} s; the request was denied. Ask the person to allow it, or continue without this step.`;
}

/**
 * The policy's reason and the tool's description as the card shows them (CARD-2): the ask's
 * schema already bounds their length; agent-written text is cleaned again here, whatever the
 * hook did, so invisible or reordering characters never reach a screen.
 */
export function cardText(ask: PermissionAsk): Pick<PermissionRequestView, 'policy' | 'description'> {
  const out: Pick<PermissionRequestView, 'policy' | 'description'> = {};
  if (ask.policy) {
    const part = ask.policy.part ? plainLine(ask.policy.part, PERMISSION_WHY_MAX) : '';
    const why = plainLine(ask.policy.why, PERMISSION_WHY_MAX);
    const rule = plainLine(ask.policy.rule, 64);
    if (why && rule) out.policy = { rule, why, ...(part ? { part } : {}) };
  }
  const description = ask.description ? plainLine(ask.description, PERMISSION_DESCRIPTION_MAX) : '';
  if (description) out.description = description;
  return out;
}

export class PermissionService {
  private readonly files: PermissionFiles;
  private readonly records = new Map<string, PermissionRecord>();
  private readonly waiters = new Map<string, Set<Waiter>>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly orphans = new Map<string, NodeJS.Timeout>();
  private grants: SessionGrant[];
  private readonly now: () => number;

  constructor(private readonly deps: PermissionDeps) {
    this.now = deps.now ?? Date.now;
    this.files = new PermissionFiles(deps.dataDir);
    this.grants = this.files.loadGrants();
    for (const record of this.files.loadAll(this.now())) {
      this.records.set(record.view.id, record);
      if (record.view.status === 'pending') this.schedule(record);
    }
  }

  /** Finds or creates the request for `ask`; `onAnswer` fires once it is decided (maybe at once). Returns the id and an unsubscribe. */
  ask(ask: PermissionAsk, onAnswer: Waiter): { id: string; cancel(): void } {
    const id = requestIdFor(ask.key);
    clearTimeout(this.orphans.get(id)); // a retry with the key: its hook is back
    this.orphans.delete(id);
    const record = this.records.get(id) ?? this.create(id, ask);
    if (record.answer) {
      onAnswer(record.answer);
      return { id, cancel: () => {} };
    }
    const set = this.waiters.get(id) ?? new Set<Waiter>();
    set.add(onAnswer);
    this.waiters.set(id, set);
    return { id, cancel: () => set.delete(onAnswer) };
  }

  /**
   * The hook holding `id` went away (GUARD-11): the agent was stopped, or the hook died. A
   * retry with the same key within the grace period (a hook reconnecting) keeps the request;
   * otherwise it is expired as abandoned, so no phone answers a call nobody waits for.
   */
  hookGone(id: string): void {
    const record = this.records.get(id);
    if (!record || record.view.status !== 'pending' || (this.waiters.get(id)?.size ?? 0) > 0 || this.orphans.has(id)) return;
    const timer = setTimeout(() => {
      this.orphans.delete(id);
      const current = this.records.get(id);
      if (!current || current.view.status !== 'pending' || (this.waiters.get(id)?.size ?? 0) > 0) return;
      const reason = 'The agent stopped waiting for this request (its session ended or its hook was stopped); it was denied and cannot be answered.';
      this.settle(current, 'expired', { decision: 'deny', reason, by: null });
      appendAudit(this.deps.dataDir, { kind: 'permission.decision', request: id, decision: 'expired', by: null, reason });
    }, this.deps.abandonGraceMs ?? ABANDON_GRACE_MS);
    timer.unref?.();
    this.orphans.set(id, timer);
  }

  /**
   * A request the relay read only after its hook had stopped waiting (GUARD-9): recorded and
   * shown as expired with the reason, answered deny, never pending, never pushed. A request
   * already known by its key (a retry) is left as it is.
   */
  abandon(ask: PermissionAsk): PermissionRequestView {
    const id = requestIdFor(ask.key);
    const known = this.records.get(id);
    if (known) return known.view;
    const now = this.now();
    const reason = 'The agent stopped waiting before the relay could show this request (the relay was not responding); it was denied and cannot be answered.';
    const view: PermissionRequestView = {
      id, session: ask.session, task: ask.task ?? null, agent: ask.agent ?? null, repo: this.deps.repoOf?.(ask.cwd) ?? null,
      tool: ask.tool, summary: ask.summary, detail: ask.detail ?? null, cwd: ask.cwd,
      createdAt: new Date(now).toISOString(), expiresAt: new Date(Math.min(now, ask.ackBy ?? now)).toISOString(),
      status: 'expired', decidedBy: null, reason, ...cardText(ask),
    };
    const record: PermissionRecord = { view, key: ask.key, exact: ask.exact ?? null, answer: { decision: 'deny', reason, by: null } };
    this.records.set(id, record);
    this.files.save(record);
    appendAudit(this.deps.dataDir, { kind: 'permission.request', request: id, session: view.session, task: view.task, agent: view.agent, tool: view.tool, summary: view.summary, cwd: view.cwd });
    appendAudit(this.deps.dataDir, { kind: 'permission.decision', request: id, decision: 'expired', by: null, reason });
    this.deps.broadcast({ type: 'permission.request', request: view });
    return view;
  }

  /** Applies a device's decision; the first one wins (PERM-3). */
  decide(device: { id: string; name: string }, id: string, decision: PermissionDecision, reason?: string): PermissionRequestView {
    const record = this.records.get(id);
    if (!record) throw new CommandrError('E_NOT_FOUND', `no permission request ${id}`);
    if (record.view.status === 'pending' && Date.parse(record.view.expiresAt) <= this.now()) this.expire(id);
    if (record.view.status === 'expired') throw new CommandrError('E_EXPIRED', `request ${id} expired at ${record.view.expiresAt}; it was denied`);
    if (record.view.status !== 'pending') {
      throw new CommandrError('E_CONFLICT', `request ${id} was already ${record.view.status} by ${record.view.decidedBy ?? 'someone'}`);
    }
    const allow = decision !== 'deny';
    const said = reason?.trim() ? `: ${reason.trim()}` : '';
    // A request carrying no exact call (an older hook) is allowed once: nothing narrower than a prefix can be remembered.
    const session = decision === 'allow-session' ? (record.exact ? ' for the rest of this session (this exact call)' : ' once (this request names no exact call to remember)') : '';
    const text = allow
      ? `Allowed by ${device.name} on the phone${session}${said}`
      : `Denied by ${device.name} on the phone${said || '. Do not retry this; choose another approach or ask the person.'}`;
    if (decision === 'allow-session') this.addGrant(record, device.name);
    this.settle(record, allow ? 'allowed' : 'denied', { decision: allow ? 'allow' : 'deny', reason: text, by: device.name });
    appendAudit(this.deps.dataDir, { kind: 'permission.decision', request: id, decision, by: { device: device.id, name: device.name }, reason: text });
    return record.view;
  }

  /** Pending requests and those decided in the last few minutes, newest first. */
  list(): PermissionRequestView[] {
    const since = this.now() - RECENT_MS;
    return [...this.records.values()]
      .map((r) => r.view)
      .filter((v) => v.status === 'pending' || Date.parse(v.expiresAt) >= since || Date.parse(v.createdAt) >= since)
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  get(id: string): PermissionRequestView | undefined {
    return this.records.get(id)?.view;
  }

  close(): void {
    for (const timer of [...this.timers.values(), ...this.orphans.values()]) clearTimeout(timer);
    this.timers.clear();
    this.orphans.clear();
    this.waiters.clear();
  }

  private create(id: string, ask: PermissionAsk): PermissionRecord {
    const now = this.now();
    const timeoutMs = ask.timeoutMs ?? DEFAULT_PERMISSION_TIMEOUT_MS;
    const view: PermissionRequestView = {
      id, session: ask.session, task: ask.task ?? null, agent: ask.agent ?? null, repo: this.deps.repoOf?.(ask.cwd) ?? null,
      tool: ask.tool, summary: ask.summary, detail: ask.detail ?? null, cwd: ask.cwd,
      createdAt: new Date(now).toISOString(), expiresAt: new Date(now + timeoutMs).toISOString(),
      status: 'pending', decidedBy: null, reason: null, ...cardText(ask),
    };
    const record: PermissionRecord = { view, key: ask.key, exact: ask.exact ?? null, answer: null };
    this.records.set(id, record);
    appendAudit(this.deps.dataDir, { kind: 'permission.request', request: id, session: view.session, task: view.task, agent: view.agent, tool: view.tool, summary: view.summary, cwd: view.cwd });
    const grant = this.grantFor(record);
    if (grant) {
      const reason = `Allowed for this session by ${grant.by} on the phone`;
      this.settle(record, 'allowed', { decision: 'allow', reason, by: grant.by }, { quiet: true });
      appendAudit(this.deps.dataDir, { kind: 'permission.decision', request: id, decision: 'allow-session', by: null, reason: `${reason} (remembered)` });
      return record;
    }
    this.files.save(record);
    this.deps.broadcast({ type: 'permission.request', request: view });
    this.deps.notify?.(view);
    this.schedule(record);
    return record;
  }

  private schedule(record: PermissionRecord): void {
    const wait = Math.max(0, Date.parse(record.view.expiresAt) - this.now());
    const timer = setTimeout(() => this.expire(record.view.id), wait);
    timer.unref?.();
    this.timers.set(record.view.id, timer);
  }

  private expire(id: string): void {
    const record = this.records.get(id);
    if (!record || record.view.status !== 'pending') return;
    const waited = Date.parse(record.view.expiresAt) - Date.parse(record.view.createdAt);
    const reason = timeoutReason(waited);
    this.settle(record, 'expired', { decision: 'deny', reason, by: null });
    appendAudit(this.deps.dataDir, { kind: 'permission.decision', request: id, decision: 'expired', by: null, reason });
  }

  /** Records the outcome, persists it, tells every device and the waiting hook. */
  private settle(record: PermissionRecord, status: PermissionRequestView['status'], answer: PermissionAnswer, options: { quiet?: boolean } = {}): void {
    record.view = { ...record.view, status, decidedBy: answer.by, reason: answer.reason };
    record.answer = answer;
    clearTimeout(this.timers.get(record.view.id));
    this.timers.delete(record.view.id);
    this.files.save(record);
    if (!options.quiet) {
      this.deps.broadcast({ type: 'permission.request', request: record.view });
      this.deps.notify?.(record.view); // replaces the request's notification (PERM-UI-5)
    }
    this.deps.timeline?.({
      v: 1, session: record.view.session, kind: 'other', ok: answer.decision === 'allow',
      summary: `${status === 'expired' ? 'Permission expired' : answer.decision === 'allow' ? 'Permission allowed' : 'Permission denied'}: ${record.view.summary}`.slice(0, 300),
      detail: answer.reason, ...(record.view.agent ? { agent: record.view.agent } : {}), ...(record.view.task ? { task: record.view.task } : {}),
    });
    const waiting = this.waiters.get(record.view.id);
    this.waiters.delete(record.view.id);
    for (const waiter of waiting ?? []) waiter(answer);
  }

  /** The grant for exactly this call (POLPATH-7): same session, tool and exact text; a legacy prefix grant only for its own text. */
  private grantFor(record: PermissionRecord): SessionGrant | undefined {
    const exact = record.exact;
    if (!exact) return undefined;
    const tool = record.view.tool.toLowerCase();
    return this.grants.find((g) => g.session === record.view.session && g.tool === tool && (g.exact ?? g.prefix) === exact);
  }

  private addGrant(record: PermissionRecord, by: string): void {
    if (!record.exact || this.grantFor(record)) return;
    this.grants = [...this.grants, { session: record.view.session, tool: record.view.tool.toLowerCase(), exact: record.exact, at: new Date(this.now()).toISOString(), by }].slice(-1000);
    this.files.saveGrants(this.grants);
  }
}
