// Task jobs (JOB-n): one headless run of the selected adapter for a bus task,
// supervised — output streamed as `job.output` and logged under <dataDir>/jobs/,
// `job.state` on start and end, and `task_failed` on the bus for any abnormal end. A job is
// refused before anything starts when its agent CLI is not ready (RUNREADY-1); a failed job's
// reason and details are kept until the task's next job succeeds (RUNFAIL-2).
import * as crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { JobState, type ServerFrame, type ServerFrameOf } from '../../protocol/wire/frames';
import { CommandrError } from '../../protocol/wire/errors';
import { appendEvent } from '../../bus/event-log';
import { ensurePrivateDir } from '../devices/files';
import { startAdapterRun, type AdapterRun } from './adapter-run';
import { agentReadiness, isKnownAgent } from '../../adapters/lib/readiness';
import { explainFailure } from './failure';
import { jobPrompt, type JobMode } from './prompt';
import { ensureTaskWorktree } from './worktree';
import { gitCommonDirOf, type SandboxSpec } from '../../adapters/sandbox';
import { ScopedTokens } from '../live/scoped-tokens';
import { checkSandbox, type SandboxPolicy } from './sandbox-policy';
import { InFlight } from '../in-flight';

export interface JobAdapter {
  name: string;
  run: string;
  /** 'local': the person's own adapter under <dataDir>/adapters/, whose CLI commandr does not know. */
  source?: 'local' | 'shipped';
}

export interface JobsOptions {
  dataDir: string;
  /** Resolves the adapter a job asked for (or the selected one). */
  adapter: (name?: string) => JobAdapter;
  broadcast: (frame: ServerFrame, ephemeral?: boolean) => void;
  env?: Record<string, string>;
  relayUrl?: () => string | undefined;
  /** A task_failed that could not be written (the relay logs it). */
  onError?: (error: unknown) => void;
  /** SANDBOX-n: on unless the relay was started with it off. */
  sandbox?: SandboxPolicy;
  /** JOBTOKEN-n: where each job's own hook credential is issued and revoked. */
  tokens?: ScopedTokens;
}

export interface JobRequest {
  repoId: string;
  /** The repo's main checkout. */
  repo: string;
  bus: string;
  task: string;
  mode: JobMode;
  /** The task's packet file, for the prompt. */
  packet: string;
  /** The adapter to run (UX-4); the selected one when absent. */
  agent?: string;
}

export type JobStateFrame = ServerFrameOf<'job.state'>;

interface Running {
  state: JobStateFrame;
  run: AdapterRun;
}

export interface JobsEvents {
  state: [JobStateFrame];
  output: [job: string, chunk: string];
}

export class Jobs extends EventEmitter<JobsEvents> {
  readonly logDir: string;
  private running = new Map<string, Running>();
  /** Tasks whose job is being set up (its worktree made) but not spawned yet: they count as running (JOB-5), and close waits for them. */
  private readonly starting = new InFlight();
  private readonly ownTokens = new ScopedTokens();

  constructor(private readonly opts: JobsOptions) {
    super();
    this.logDir = path.join(opts.dataDir, 'jobs');
    ensurePrivateDir(this.logDir);
  }

  logFile(job: string): string {
    if (!/^j-[0-9a-f]{12}$/.test(job)) throw new CommandrError('E_BAD_ID', `job id ${JSON.stringify(job)} is invalid`);
    return path.join(this.logDir, `${job}.log`);
  }

  /** Starts the job and returns its first state; the end arrives as a later `job.state`. */
  async start(req: JobRequest): Promise<JobStateFrame & { pid: number | undefined }> {
    if (this.starting.closed) throw new CommandrError('E_UNAVAILABLE', 'the relay is stopping; no job starts now');
    const key = `${req.repoId}\u0000${req.task}`;
    for (const r of this.running.values()) {
      if (r.state.repo === req.repoId && r.state.task === req.task) throw new CommandrError('E_CONFLICT', `task ${req.task} already has a running job (${r.state.job})`);
    }
    if (this.starting.has(key)) throw new CommandrError('E_CONFLICT', `task ${req.task} already has a job starting`);
    const adapter = this.opts.adapter(req.agent);
    this.assertReady(adapter, req.repo);
    const sandbox = checkSandbox(this.opts.sandbox); // refuses before anything is created (SANDBOX-6)
    // The task is taken from here on, across the wait for its worktree: a second start is refused, and close waits.
    const worktree = req.mode === 'work' ? ensureTaskWorktree(req.repo, req.task, path.join(this.opts.dataDir, 'worktrees', req.repoId)) : Promise.resolve(req.repo);
    this.starting.add(worktree, key);
    const cwd = await worktree;
    if (this.starting.closed) throw new CommandrError('E_UNAVAILABLE', 'the relay stopped while the job was being set up; it did not start');
    const job = `j-${crypto.randomBytes(6).toString('hex')}`;
    const agent = `${adapter.name}-${job}`;
    const log = this.logFile(job);
    let seq = 0;
    const tokens = this.opts.tokens ?? this.ownTokens;
    const token = tokens.issue({ owner: job, repoId: req.repoId, task: req.task, agent, roots: [cwd, req.repo] });
    const spec: SandboxSpec | undefined = sandbox ? { cwd, repo: req.repo, gitCommonDir: gitCommonDirOf(req.repo), dataDir: this.opts.dataDir, shown: [path.join(this.opts.dataDir, 'adapters')], hidden: sandbox.hidden } : undefined;
    const run = startAdapterRun({
      run: adapter.run,
      cwd,
      env: this.env({ AGENT_PROMPT: jobPrompt(req, cwd), AGENT_MODE: req.mode, AGENT_CWD: cwd, COMMANDR_TASK: req.task, COMMANDR_AGENT_ID: agent, COMMANDR_HOOK_TOKEN: token }),
      sandbox: spec,
      onStdout: (chunk) => {
        fs.appendFileSync(log, chunk, { mode: 0o600 });
        this.opts.broadcast({ type: 'job.output', job, seq: seq++, chunk }, true);
        this.emit('output', job, chunk);
      },
      onStderr: (chunk) => fs.appendFileSync(log, chunk, { mode: 0o600 }),
    });
    const state: JobStateFrame = { type: 'job.state', job, repo: req.repoId, task: req.task, mode: req.mode, status: 'running', exitCode: null, agent: adapter.name };
    this.running.set(job, { state, run });
    this.publish(state);
    void run.done.then((result) => {
      tokens.revoke(token); // JOBTOKEN-1
      this.running.delete(job);
      const ok = result.code === 0 && result.signal === null && !result.spawnError && !result.stopped;
      const failure = ok ? undefined : explainFailure(adapter.name, result, readTail(log));
      if (failure) {
        try {
          appendEvent(req.bus, { event: 'task_failed', task: req.task, agent, reason: failure.reason });
        } catch (error) {
          this.opts.onError?.(error);
        }
      }
      const end: JobStateFrame = { ...state, status: ok ? 'done' : 'failed', exitCode: result.code, ...(result.stopped ? { stopped: true } : failure) };
      this.keepFailed(end);
      this.publish(end);
    });
    return { ...state, pid: run.pid };
  }

  /** Stops a running job (process group); it ends as failed. */
  async stop(job: string): Promise<void> {
    const r = this.running.get(job);
    if (!r) throw new CommandrError('E_NOT_FOUND', `no running job ${job}`);
    r.run.stop(1000);
    await r.run.done;
  }

  /** The running jobs, and the last failed job of each task that has none running (RUNFAIL-2). */
  list(): JobStateFrame[] {
    const running = [...this.running.values()].map((r) => r.state);
    const busy = new Set(running.map((s) => taskKey(s.repo, s.task)));
    return [...running, ...Object.entries(this.readFailed()).filter(([key]) => !busy.has(key)).map(([, s]) => s)];
  }

  /** RUNREADY-1: a shipped adapter's CLI must be installed and able to authenticate, as `commandr doctor` checks. */
  private assertReady(adapter: JobAdapter, repo: string): void {
    if (adapter.source !== 'shipped' || !isKnownAgent(adapter.name)) return;
    const ready = agentReadiness(adapter.name, this.env({}), undefined, repo); // the repo's opencode.json counts (RUNREADY-6)
    if (!ready.ok) throw new CommandrError('E_NOT_READY', ready.sentence);
  }

  private get failedFile(): string {
    return path.join(this.logDir, 'failed.json');
  }

  /** The kept failed jobs by task; a damaged file or entry counts as none. */
  private readFailed(): Record<string, JobStateFrame> {
    let raw: unknown;
    try {
      raw = JSON.parse(fs.readFileSync(this.failedFile, 'utf8'));
    } catch {
      return {};
    }
    if (typeof raw !== 'object' || raw === null) return {};
    const out: Record<string, JobStateFrame> = {};
    for (const [key, value] of Object.entries(raw)) {
      const parsed = JobState.safeParse(value);
      if (parsed.success && parsed.data.status === 'failed') out[key] = parsed.data;
    }
    return out;
  }

  /** A failed end is kept for its task (a reload, a fresh device); a later success forgets it. */
  private keepFailed(end: JobStateFrame): void {
    const kept = this.readFailed();
    const key = taskKey(end.repo, end.task);
    if (end.status === 'failed') kept[key] = end;
    else if (key in kept) delete kept[key];
    else return;
    try {
      const tmp = `${this.failedFile}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify(kept) + '\n', { mode: 0o600 });
      fs.renameSync(tmp, this.failedFile);
    } catch (error) {
      this.opts.onError?.(error);
    }
  }

  async close(): Promise<void> {
    // A job being set up is refused once its worktree is ready (it never spawns after close), then the running ones stop.
    await this.starting.close();
    await Promise.all([...this.running.keys()].map((job) => this.stop(job).catch(() => undefined)));
  }

  private publish(state: JobStateFrame): void {
    this.opts.broadcast(state);
    this.emit('state', state);
  }

  private env(extra: Record<string, string>): Record<string, string | undefined> {
    const env: Record<string, string | undefined> = { ...process.env, ...this.opts.env, ...extra };
    delete env.AGENT_RESUME;
    delete env.COMMANDR_SANDBOX; // set by the sandbox itself, never inherited
    env.AGENT_COMMANDS = env.AGENT_COMMANDS ?? '';
    // This relay's URL, never one inherited from the relay's own environment: the job's credential is for this relay only.
    delete env.COMMANDR_URL;
    const url = this.opts.relayUrl?.();
    if (url) env.COMMANDR_URL = url;
    return env;
  }
}

const taskKey = (repo: string, task: string): string => `${repo}\t${task}`;

/** The last bytes of a job's log (stdout and stderr): what the failure is read from. */
function readTail(file: string, bytes = 16_384): string {
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const size = fs.fstatSync(fd).size;
      const start = Math.max(0, size - bytes);
      const buf = Buffer.alloc(size - start);
      fs.readSync(fd, buf, 0, buf.length, start);
      return buf.toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return '';
  }
}
