// QuestionService (ASK-n, ACTAPPROVE-n): an agent's question or action approval
// waiting for a person. The MCP server's ask creates (or, by its key, finds
// again) a request; every paired device sees it; the first valid answer wins;
// nothing by `expiresAt` settles it as expired (a question: "no answer"; an
// approval: denied); a request whose asker is gone is withdrawn (ASK-7), as a
// permission request whose hook went away is (GUARD-11). Records persist in
// <dataDir>/questions/ across a restart.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CommandrError } from '../../protocol/wire/errors';
import type { ServerFrame } from '../../protocol/wire/frames';
import { type QuestionAsk, QuestionView } from '../../protocol/wire/questions';
import { ensurePrivateDir, readJsonFile, writePrivateFile } from '../devices/files';

/** Settled requests still listed to a newly subscribed client. */
export const RECENT_MS = 10 * 60 * 1000;
const KEEP_MS = 24 * 60 * 60 * 1000;
/** How long a request no asker waits for (its long-poll closed, or the relay restarted) waits for one to come back before it is withdrawn (ASK-7). */
export const ASKER_GRACE_MS = 5_000;

export interface QuestionDeps {
  dataDir: string;
  broadcast(frame: ServerFrame): void;
  /** A new request, and the same request once settled (ASK-4, ASK-9). */
  notify?(view: QuestionView): void;
  repoOf?(cwd: string): string | null;
  now?(): number;
  /** Overrides ASKER_GRACE_MS. */
  askerGraceMs?: number;
}

export type Reply = { via: 'choice'; choice: number } | { via: 'text' | 'voice'; text: string };
type Waiter = (view: QuestionView) => void;


export class QuestionService {
  private readonly dir: string;
  private readonly views = new Map<string, QuestionView>();
  private readonly waiters = new Map<string, Set<Waiter>>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly orphans = new Map<string, NodeJS.Timeout>();
  /** Set by close(): the relay is stopping, so its own closing connections withdraw nothing. */
  private closed = false;
  private readonly now: () => number;

  constructor(private readonly deps: QuestionDeps) {
    this.now = deps.now ?? Date.now;
    this.dir = path.join(deps.dataDir, 'questions');
    ensurePrivateDir(this.dir);
    for (const view of this.load()) {
      this.views.set(view.id, view);
      if (view.status === 'pending') this.schedule(view);
    }
  }

  /**
   * The relay now listens (ASK-7): a request still pending from before a restart has no asker
   * waiting; one that is still there asks again with its key at once (ASK-1), else it is withdrawn.
   */
  listening(): void {
    for (const view of this.views.values()) if (view.status === 'pending') this.askerGone(view.id);
  }

  /** Finds or creates the request; `onSettled` fires once it is answered or expired (maybe at once). */
  ask(ask: QuestionAsk, onSettled: Waiter): { id: string; cancel(): void } {
    const id = ask.key;
    clearTimeout(this.orphans.get(id)); // an ask with the key: its asker is (back) here
    this.orphans.delete(id);
    const view = this.views.get(id) ?? this.create(id, ask);
    if (view.status !== 'pending') {
      onSettled(view);
      return { id, cancel: () => {} };
    }
    const set = this.waiters.get(id) ?? new Set<Waiter>();
    set.add(onSettled);
    this.waiters.set(id, set);
    return { id, cancel: () => set.delete(onSettled) };
  }

  /**
   * No asker may be waiting for `id` any more (ASK-7): its long-poll closed. One that asks again
   * with the key within the grace period (a dropped connection, retried) keeps the request;
   * otherwise it is withdrawn, so no phone answers a question nobody waits for.
   */
  askerGone(id: string): void {
    if (this.closed || this.views.get(id)?.status !== 'pending' || (this.waiters.get(id)?.size ?? 0) > 0 || this.orphans.has(id)) return;
    const timer = setTimeout(() => {
      this.orphans.delete(id);
      if ((this.waiters.get(id)?.size ?? 0) === 0) this.withdraw(id, 'gone');
    }, this.deps.askerGraceMs ?? ASKER_GRACE_MS);
    timer.unref?.();
    this.orphans.set(id, timer);
  }

  /**
   * The asker stopped waiting (ASK-7): `cancelled` when it said so (the agent cancelled the
   * call), `gone` when none came back. A pending request is settled as expired and marked
   * withdrawn; a settled one is left as it is. Answers the request as it now stands.
   */
  withdraw(id: string, why: 'cancelled' | 'gone'): QuestionView {
    const view = this.views.get(id);
    if (!view) throw new CommandrError('E_NOT_FOUND', `no question or approval request ${id}`);
    if (view.status !== 'pending') return view;
    clearTimeout(this.orphans.get(id));
    this.orphans.delete(id);
    return this.settle(view, { status: 'expired', via: view.kind === 'question' ? 'timeout' : null, answer: null, by: null, withdrawn: why });
  }

  /** A device's answer to a question (ASK-3): a choice by index, typed text or a dictated note. */
  answer(device: { name: string }, id: string, reply: Reply): QuestionView {
    const view = this.pending(id, 'question');
    let answer: string;
    if (reply.via === 'choice') {
      const choice = view.choices[reply.choice];
      if (choice === undefined) throw new CommandrError('E_BAD_FRAME', `question ${id} has no choice ${reply.choice} (it has ${view.choices.length})`);
      answer = choice;
    } else {
      answer = reply.text.trim();
      if (!answer) throw new CommandrError('E_BAD_FRAME', 'the answer is empty; type or say something, or pick a choice');
    }
    return this.settle(view, { status: 'answered', via: reply.via, answer, by: device.name });
  }

  /** A device's decision on an action approval (ACTAPPROVE-2). */
  decide(device: { name: string }, id: string, decision: 'approve' | 'deny', reason?: string): QuestionView {
    const view = this.pending(id, 'approval');
    return this.settle(view, { status: decision === 'approve' ? 'approved' : 'denied', via: null, answer: reason?.trim() || null, by: device.name });
  }

  /** Pending requests and those settled in the last few minutes, newest first. */
  list(): QuestionView[] {
    const since = this.now() - RECENT_MS;
    return [...this.views.values()]
      .filter((v) => v.status === 'pending' || Date.parse(v.createdAt) >= since || Date.parse(v.expiresAt) >= since)
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  get(id: string): QuestionView | undefined {
    return this.views.get(id);
  }

  close(): void {
    this.closed = true;
    for (const timer of [...this.timers.values(), ...this.orphans.values()]) clearTimeout(timer);
    this.timers.clear();
    this.orphans.clear();
    this.waiters.clear();
  }

  private pending(id: string, kind: QuestionView['kind']): QuestionView {
    const view = this.views.get(id);
    if (!view || view.kind !== kind) throw new CommandrError('E_NOT_FOUND', `no ${kind === 'question' ? 'question' : 'approval request'} ${id}`);
    if (view.status === 'pending' && Date.parse(view.expiresAt) <= this.now()) this.expire(id);
    const now = this.views.get(id)!;
    if (now.withdrawn) {
      const how = now.withdrawn === 'cancelled' ? 'the agent cancelled it' : 'the agent that asked it is gone (its session ended or it was stopped)';
      throw new CommandrError('E_EXPIRED', `${id} was withdrawn: ${how}; no one waits for ${kind === 'question' ? 'an answer' : 'a decision'}, so it was not delivered`);
    }
    if (now.status === 'expired') throw new CommandrError('E_EXPIRED', `${id} expired at ${now.expiresAt}; the agent was told no one answered`);
    if (now.status !== 'pending') throw new CommandrError('E_CONFLICT', `${id} was already ${now.status} by ${now.by ?? 'someone'}`);
    return now;
  }

  private create(id: string, ask: QuestionAsk): QuestionView {
    const now = this.now();
    const view: QuestionView = {
      id, kind: ask.kind, task: ask.task, repo: this.deps.repoOf?.(ask.cwd) ?? null, agent: ask.agent ?? null,
      title: ask.kind === 'question' ? ask.question : ask.action,
      reason: ask.kind === 'approval' ? ask.reason : null,
      choices: ask.kind === 'question' ? ask.choices : [],
      createdAt: new Date(now).toISOString(), expiresAt: new Date(now + ask.timeoutMs).toISOString(),
      status: 'pending', via: null, answer: null, by: null,
    };
    this.views.set(id, view);
    this.save(view);
    this.deps.broadcast({ type: 'question.request', request: view });
    this.deps.notify?.(view);
    this.schedule(view);
    return view;
  }

  private schedule(view: QuestionView): void {
    const timer = setTimeout(() => this.expire(view.id), Math.max(0, Date.parse(view.expiresAt) - this.now()));
    timer.unref?.();
    this.timers.set(view.id, timer);
  }

  private expire(id: string): void {
    const view = this.views.get(id);
    if (!view || view.status !== 'pending') return;
    this.settle(view, { status: 'expired', via: view.kind === 'question' ? 'timeout' : null, answer: null, by: null });
  }

  private settle(view: QuestionView, outcome: Pick<QuestionView, 'status' | 'via' | 'answer' | 'by' | 'withdrawn'>): QuestionView {
    const settled: QuestionView = { ...view, ...outcome };
    this.views.set(view.id, settled);
    clearTimeout(this.timers.get(view.id));
    this.timers.delete(view.id);
    this.save(settled);
    this.deps.broadcast({ type: 'question.request', request: settled });
    this.deps.notify?.(settled);
    const waiting = this.waiters.get(view.id);
    this.waiters.delete(view.id);
    for (const waiter of waiting ?? []) waiter(settled);
    return settled;
  }

  private save(view: QuestionView): void {
    writePrivateFile(path.join(this.dir, `${view.id}.json`), `${JSON.stringify(view)}\n`);
  }

  private load(): QuestionView[] {
    const out: QuestionView[] = [];
    for (const name of fs.readdirSync(this.dir)) {
      if (!/^q-[0-9a-f]{20}\.json$/.test(name)) continue;
      const file = path.join(this.dir, name);
      let parsed;
      try {
        parsed = QuestionView.safeParse(readJsonFile(file));
      } catch {
        parsed = undefined;
      }
      const stale = parsed?.success && parsed.data.status !== 'pending' && this.now() - Date.parse(parsed.data.expiresAt) > KEEP_MS;
      if (!parsed?.success || stale) fs.rmSync(file, { force: true });
      else out.push(parsed.data);
    }
    return out;
  }
}
