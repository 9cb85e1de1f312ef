// Task jobs (JOB-n): one headless run of the selected adapter for a bus task,
// supervised — output streamed as `job.output` and logged under <dataDir>/jobs/,
// `job.state` on start and end, and `task_failed` on the bus for any abnormal end.
import * as crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ServerFrame, ServerFrameOf } from '../../protocol/wire/frames';
import { CommandrError } from '../../protocol/wire/errors';
import { appendEvent } from '../../bus/event-log';
import { ensurePrivateDir } from '../devices/files';
import { failureReason, startAdapterRun, type AdapterRun } from './adapter-run';
import { jobPrompt, type JobMode } from './prompt';
import { ensureTaskWorktree } from './worktree';
import { gitCommonDirOf, type SandboxSpec } from '../../adapters/sandbox';
import { ScopedTokens } from '../live/scoped-tokens';
import { checkSandbox, type SandboxPolicy } from './sandbox-policy';

export interface JobAdapter {
  name: string;
  run: string;
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
    for (const r of this.running.values()) {
      if (r.state.repo === req.repoId && r.state.task === req.task) throw new CommandrError('E_CONFLICT', `task ${req.task} already has a running job (${r.state.job})`);
    }
    const adapter = this.opts.adapter(req.agent);
    const sandbox = checkSandbox(this.opts.sandbox); // refuses before anything is created (SANDBOX-6)
    const cwd = req.mode === 'work' ? await ensureTaskWorktree(req.repo, req.task, path.join(this.opts.dataDir, 'worktrees', req.repoId)) : req.repo;
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
      if (!ok) {
        try {
          appendEvent(req.bus, { event: 'task_failed', task: req.task, agent, reason: failureReason(result) });
        } catch (error) {
          this.opts.onError?.(error);
        }
      }
      this.publish({ ...state, status: ok ? 'done' : 'failed', exitCode: result.code, ...(result.stopped ? { stopped: true } : {}) });
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

  list(): JobStateFrame[] {
    return [...this.running.values()].map((r) => r.state);
  }

  async close(): Promise<void> {
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
