// The commanders service (CMDR-n): creates commanders as directories, runs their
// turns one at a time through the agent adapter, streams output, tracks status,
// replaces dead sessions, deletes. Emits 'state' / 'waiting' / 'removed' for others.
import { removeTranscripts, toolLineOf } from './transcripts';
import { noticeLine } from '../../protocol/commander-transcript';
import type { LiveEvent } from '../../protocol/live-events';
import { EventEmitter } from 'node:events';
import * as fs from 'node:fs';
import type { CommanderRecord } from '../../protocol/commander';
import type { CommanderView } from '../../protocol/wire/views';
import type { ServerFrame } from '../../protocol/wire/frames';
import { CommandrError } from '../../protocol/wire/errors';
import { signalGroup } from '../process-group';
import { referencesIn, renderClaudeMd, withReference, withSessionKind } from './claude-md';
import { OutputBuffer, type OutputChunk } from './output';
import { checkReferencePath, resolveRoots } from './reference-paths';
import { CommanderStore, RECORD_FILE, newCommanderId } from './store';
import { runTurn, type AgentAdapter, type TurnRuntime } from './turn';
import { DEMO_COMMANDER_ADAPTER } from '../demo/commander';
import { checkSandbox, type SandboxPolicy } from '../jobs/sandbox-policy';
import { agentReadiness, isKnownAgent } from '../../adapters/lib/readiness';
import { ScopedTokens } from '../live/scoped-tokens';
import * as path from 'node:path';

export type { AgentAdapter } from './turn';

/** A commander's agent id on live events and hook credentials: `commander-<id>`. */
const AGENT_PREFIX = 'commander-';

export interface CommandersOptions {
  dataDir: string;
  /** Roots a reference path must resolve inside; read fresh (repos come and go). */
  allowedRoots: () => string[];
  /** The adapter to launch, resolved at each turn: the one named, else the selected one. */
  adapter: (name?: string) => AgentAdapter;
  broadcast: (frame: ServerFrame, ephemeral?: boolean) => void;
  /** Extra environment for the agent (tests point the CLI at a stand-in here). */
  env?: Record<string, string>;
  /** Passed to the agent as COMMANDR_URL. */
  relayUrl?: () => string | undefined;
  /** SANDBOX-n: turns run in the OS sandbox unless the relay was started with it off. */
  sandbox?: SandboxPolicy;
  /** JOBTOKEN-n: each turn's own hook credential. */
  tokens?: ScopedTokens;
}

export interface CommandersEvents {
  state: [CommanderView];
  waiting: [CommanderView];
  removed: [string];
  output: [string, OutputChunk];
}

interface Entry extends TurnRuntime {
  record: CommanderRecord;
  queue: string[];
}

export function viewOf(record: CommanderRecord, sandbox?: SandboxPolicy): CommanderView {
  const { id, name, referencePaths, created, session, status, waitingFor, adapter, failure } = record;
  // SANDBOX-WARN-1: the phone warns when this relay runs the commander's turns unsandboxed.
  // CMDRFAIL-1: why its start failed, while it has not started since.
  // DEMO-7: a demo commander names the script that answers it (a demo made by an older relay recorded `claude`).
  return { id, name, referencePaths, created, session, status, waitingFor, adapter: record.demo ? DEMO_COMMANDER_ADAPTER.name : adapter, sandbox: sandbox?.enabled === false ? 'off' : 'on', ...(failure ? { failure } : {}) };
}

export class Commanders extends EventEmitter<CommandersEvents> {
  readonly store: CommanderStore;
  private entries = new Map<string, Entry>();
  private readonly ownTokens = new ScopedTokens();

  /** Set by `close`: from then on no turn starts (CMDR-RELOAD-2). */
  private closing = false;

  constructor(private readonly opts: CommandersOptions) {
    super();
    this.store = new CommanderStore(opts.dataDir);
    this.reload();
  }

  private view(record: CommanderRecord): CommanderView {
    return viewOf(record, this.opts.sandbox);
  }

  list(): CommanderView[] {
    return [...this.entries.values()].map((e) => this.view(e.record)).sort((a, b) => a.created.localeCompare(b.created));
  }

  listFrame(): ServerFrame {
    return { type: 'commander.list', commanders: this.list(), allowedRoots: this.allowedRoots() };
  }

  allowedRoots(): string[] {
    return resolveRoots(this.opts.allowedRoots());
  }

  get(id: string): CommanderView {
    return this.view(this.entry(id).record);
  }

  /** Start: record, directory and CLAUDE.md first, then the first turn (CMDR-START-1). */
  create(name: string, referencePath: string, start: { agent?: string; message?: string } = {}): CommanderView {
    this.assertOpen();
    const cleanName = name.trim();
    if (cleanName.length === 0 || cleanName.length > 80 || /[\u0000-\u001f\u007f]/.test(cleanName)) {
      throw new CommandrError('E_BAD_FRAME', 'name must be 1–80 characters on one line');
    }
    const reference = checkReferencePath(referencePath, this.allowedRoots());
    const resolved = this.opts.adapter(start.agent);
    // RUNREADY-3: an agent CLI that cannot run here refuses the start before anything is made.
    if (resolved.source === 'shipped' && isKnownAgent(resolved.name)) {
      const ready = agentReadiness(resolved.name, this.agentEnv(''), undefined, reference); // its folder's opencode.json counts (RUNREADY-6)
      if (!ready.ok) throw new CommandrError('E_NOT_READY', ready.sentence);
    }
    const adapter = resolved.name;
    const id = newCommanderId();
    const dir = this.store.createDir(id);
    const record: CommanderRecord = {
      id, name: cleanName, referencePaths: [reference], created: new Date().toISOString(),
      session: null, status: 'starting', waitingFor: null, adapter,
      ...(start.message?.trim() ? { firstMessage: start.message } : {}), // CMDRFAIL-2: Retry sends it again
    };
    try {
      this.store.writeRecord(record);
      this.store.writeDoc(id, renderClaudeMd(cleanName, id, dir, [reference]));
    } catch (error) {
      // Nothing half-made: a commander exists whole or not at all.
      this.store.remove(id);
      throw error;
    }
    const entry = this.newEntry(record);
    this.entries.set(id, entry);
    this.publish(entry);
    this.startTurn(entry, firstPrompt(record, dir, start.message), null, start.message?.trim() || undefined, true);
    return this.view(record);
  }

  /** The next turn of the current session; queued while a turn runs (CMDR-MSG-1). */
  message(id: string, text: string): { queued: number } {
    this.assertOpen();
    const entry = this.entry(id);
    if (entry.record.status === 'dead') {
      throw new CommandrError('E_CONFLICT', `commander ${id} needs a new session: replace its session first`);
    }
    if (entry.current !== null) {
      entry.queue.push(text);
      return { queued: entry.queue.length };
    }
    this.startTurn(entry, text, entry.record.session, text);
    return { queued: 0 };
  }

  /** A fresh session in the same directory, everything it wrote intact (CMDR-REPLACE-1). */
  async replace(id: string): Promise<CommanderView> {
    this.assertOpen();
    const entry = this.entry(id);
    entry.generation += 1;
    entry.queue = [];
    await this.stopTurn(entry);
    // The relay may have begun to close while the old turn stopped: the new session never starts then.
    this.assertOpen('the relay stopped while the old turn was being stopped; replace the session again once it is back');
    // CMDRFAIL-2: Retry of a commander whose very first turn failed runs that first turn again, first message and all.
    const retryFirst = entry.record.failure?.first === true;
    if (!retryFirst) this.store.writeDoc(id, withSessionKind(this.docOf(entry.record), 'replacement'));
    const { failure: _failed, ...rest } = entry.record;
    entry.record = { ...rest, session: null, status: 'starting', waitingFor: null, adapter: entry.record.demo ? entry.record.adapter : this.opts.adapter(entry.record.adapter).name };
    this.save(entry);
    const dir = this.store.dir(id);
    if (retryFirst) this.startTurn(entry, firstPrompt(entry.record, dir, entry.record.firstMessage), null, undefined, true);
    else this.startTurn(entry, replacementPrompt(entry.record, dir), null);
    return this.view(entry.record);
  }

  addReference(id: string, input: string): CommanderView {
    const entry = this.entry(id);
    const reference = checkReferencePath(input, this.allowedRoots());
    this.store.writeDoc(id, withReference(this.docOf(entry.record), reference));
    if (!entry.record.referencePaths.includes(reference)) {
      entry.record = { ...entry.record, referencePaths: [...entry.record.referencePaths, reference] };
      this.save(entry);
    }
    return this.view(entry.record);
  }

  /** Stops its processes, then removes its directory, log and agent transcripts (CMDR-DEL-1). */
  async delete(id: string): Promise<void> {
    const entry = this.entry(id);
    entry.generation += 1;
    entry.queue = [];
    this.entries.delete(id);
    await this.stopTurn(entry);
    const dir = this.store.dir(id);
    this.store.remove(id);
    removeTranscripts(this.agentEnv(id).HOME, dir);
    this.opts.broadcast({ type: 'commander.removed', commander: id });
    this.emit('removed', id);
  }

  /** CHAT-7: a completed tool event of a commander's running turn becomes a tool line of its conversation. */
  recordLive(event: LiveEvent): void {
    const id = event.agent?.startsWith(AGENT_PREFIX) ? event.agent.slice(AGENT_PREFIX.length) : null;
    const entry = id === null ? undefined : this.entries.get(id);
    // Only while its turn runs: a straggler would land after the reply it led to.
    if (!entry || entry.current === null) return;
    const line = toolLineOf(event);
    if (line === null) return;
    const chunk = entry.output.append(entry.record.session, line);
    this.opts.broadcast({ type: 'commander.output', commander: entry.record.id, ...chunk }, true);
    this.emit('output', entry.record.id, chunk);
  }

  /** Kept output for a catch-up read. */
  output(id: string, from = 0): { session: string | null; chunks: OutputChunk[]; lastSeq: number } {
    const entry = this.entry(id);
    return { session: entry.record.session, chunks: entry.output.since(from), lastSeq: entry.output.lastSeq };
  }

  /** Relay shutdown: turns in flight are stopped but not judged; the next start reloads them (CMDR-RELOAD-1). */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all([...this.entries.values()].map((e) => {
      e.generation += 1;
      e.queue = [];
      return this.stopTurn(e);
    }));
  }

  private assertOpen(why = 'the relay is stopping; no commander turn starts now'): void {
    if (this.closing) throw new CommandrError('E_UNAVAILABLE', why);
  }

  private entry(id: string): Entry {
    const entry = this.entries.get(id);
    if (!entry) throw new CommandrError('E_NOT_FOUND', `no commander ${JSON.stringify(id)}`);
    return entry;
  }

  private newEntry(record: CommanderRecord): Entry {
    return { record, queue: [], current: null, generation: 0, output: new OutputBuffer(this.store.logFile(record.id)) };
  }

  private startTurn(entry: Entry, prompt: string, resume: string | null, said?: string, first = false): void {
    // A commander keeps the agent it was started with: sessions do not cross agent CLIs (UX-6).
    // The demo's commander has no real session behind it: a script answers (DEMO-7).
    const adapter = entry.record.demo ? DEMO_COMMANDER_ADAPTER : this.opts.adapter(entry.record.adapter);
    const id = entry.record.id;
    let sandbox;
    try {
      sandbox = checkSandbox(this.opts.sandbox);
    } catch (error) {
      // SANDBOX-6: no sandbox, no turn; the person reads why in the conversation.
      this.opts.broadcast({ type: 'commander.output', commander: id, ...entry.output.append(entry.record.session, noticeLine((error as Error).message)) }, true);
      entry.record = { ...entry.record, status: entry.record.session === null ? 'dead' : 'idle', waitingFor: null };
      if (resume === null) entry.record = { ...entry.record, failure: { reason: (error as Error).message, details: '', ...(first ? { first: true } : {}) } }; // CMDRFAIL-1
      this.save(entry);
      return;
    }
    const dir = this.store.dir(id);
    const tokens = this.opts.tokens ?? this.ownTokens;
    const agent = `${AGENT_PREFIX}${id}`;
    const token = tokens.issue({ owner: agent, agent, roots: [dir, ...entry.record.referencePaths] });
    const env = { ...this.agentEnv(id), COMMANDR_HOOK_TOKEN: token };
    // The commander works in its directory; its record (which names its edit roots) is the relay's.
    const spec = sandbox ? { cwd: dir, dataDir: this.opts.dataDir, shown: [path.join(this.opts.dataDir, 'adapters')], readOnly: [path.join(dir, RECORD_FILE)], hidden: sandbox.hidden } : undefined;
    void runTurn(entry, { prompt, said, resume, first, store: this.store, adapter, env, sandbox: spec, onEnd: () => tokens.revoke(token) }, {
      save: () => this.save(entry),
      output: (chunk) => {
        this.opts.broadcast({ type: 'commander.output', commander: entry.record.id, ...chunk }, true);
        this.emit('output', entry.record.id, chunk);
      },
      finished: (waiting) => this.afterTurn(entry, waiting),
    });
  }

  private afterTurn(entry: Entry, waiting: boolean): void {
    if (!this.entries.has(entry.record.id)) return;
    this.pickUpReferences(entry);
    if (waiting) this.emit('waiting', this.view(entry.record));
    const next = entry.queue.shift();
    if (next !== undefined && entry.record.status !== 'dead' && !this.closing) this.startTurn(entry, next, entry.record.session, next);
    else if (entry.record.status === 'dead') entry.queue = [];
  }

  /** Its CLAUDE.md to edit; one that is not its own regular file (CMDR-DIR-3) is written afresh, as at creation. */
  private docOf(record: CommanderRecord): string {
    return this.store.readDoc(record.id) ?? renderClaudeMd(record.name, record.id, this.store.dir(record.id), record.referencePaths);
  }

  /** Reference paths the commander wrote into its CLAUDE.md, validated like any other (CMDR-REF-3). */
  private pickUpReferences(entry: Entry): void {
    const roots = this.allowedRoots();
    const added: string[] = [];
    for (const candidate of referencesIn(this.store.readDoc(entry.record.id) ?? '')) {
      try {
        const real = checkReferencePath(candidate, roots);
        if (!entry.record.referencePaths.includes(real) && !added.includes(real)) added.push(real);
      } catch {
        // Not allowed: never becomes a reference path.
      }
    }
    if (added.length === 0) return;
    entry.record = { ...entry.record, referencePaths: [...entry.record.referencePaths, ...added] };
    this.save(entry);
  }

  private async stopTurn(entry: Entry): Promise<void> {
    const current = entry.current;
    if (current === null) return;
    current.stop(1000);
    await current.done;
  }

  private save(entry: Entry): void {
    if (!this.entries.has(entry.record.id)) return;
    this.store.writeRecord(entry.record);
    this.publish(entry);
  }

  private publish(entry: Entry): void {
    const view = this.view(entry.record);
    this.opts.broadcast({ type: 'commander.state', commander: view });
    this.emit('state', view);
  }

  private agentEnv(id: string): Record<string, string | undefined> {
    const env: Record<string, string | undefined> = { ...process.env, ...this.opts.env };
    for (const key of ['AGENT_RESUME', 'AGENT_PROMPT', 'COMMANDR_TASK', 'COMMANDR_URL', 'COMMANDR_SANDBOX', 'COMMANDR_HOOK_TOKEN']) delete env[key];
    env.COMMANDR_AGENT_ID = `${AGENT_PREFIX}${id}`;
    const url = this.opts.relayUrl?.();
    if (url) env.COMMANDR_URL = url;
    return env;
  }

  /** Relay restart: commanders come back from their directories (CMDR-RELOAD-1). */
  private reload(): void {
    for (const record of this.store.loadAll().records) {
      const entry = this.newEntry(record);
      entry.output.restoreFromLog();
      if (record.status === 'starting' || record.status === 'running') {
        stopOrphan(this.store.pidFile(record.id));
        entry.record = { ...record, status: record.session === null ? 'dead' : 'idle', waitingFor: null };
        this.store.writeRecord(entry.record);
      }
      this.entries.set(record.id, entry);
    }
  }
}

/** A turn that outlived its relay can no longer be heard: stop it. */
function stopOrphan(pidFile: string): void {
  try {
    const pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
    if (Number.isInteger(pid) && pid > 1) signalGroup(pid, 'SIGKILL');
  } catch {
    // No pid file: nothing was running.
  }
  fs.rmSync(pidFile, { force: true });
}

function firstPrompt(record: CommanderRecord, dir: string, message?: string): string {
  const lines = [
    `This is your first turn as the commander "${record.name}".`,
    `Your directory is ${dir}; read CLAUDE.md there first.`,
    `The material you operate on is at: ${record.referencePaths.join(', ')}.`,
  ];
  if (message !== undefined && message.trim() !== '') {
    lines.push('Orient on it, then answer the person\'s first message:', '', message.trim());
  } else {
    lines.push('Orient on it, then tell the person what you found and what you propose to do.');
  }
  return lines.join('\n');
}

function replacementPrompt(record: CommanderRecord, dir: string): string {
  return [
    `This is a replacement session for the commander "${record.name}", not its first turn.`,
    `Read CLAUDE.md and what you have recorded in ${dir}, then carry on.`,
    'Tell the person where things stand.',
  ].join('\n');
}
