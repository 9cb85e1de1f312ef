'use client';
// Run an agent on this task from the phone (UX-4, UX-5): choose Claude Code or
// OpenCode and the intent, start a headless job (`task.run`), watch its output
// stream in, and Stop it (`job.stop`). Outcomes show here, where the person tapped. A run the
// relay refuses (the CLI not ready, RUNREADY-2) says why inside the sheet; a failed run says why in
// one sentence with the CLI's output under Details, and Retry starts it again (RUNFAIL-1..4).
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import type { TaskSummary } from '../../protocol/wire/views';
import { Button } from '../components/Button';
import { Prose } from '../components/Prose';
import { useRepoPlace } from '../components/MachineLabel';
import { Sheet } from '../components/Sheet';
import { act, type ActResult } from '../lib/actions';
import { AGENTS, agentLabel } from '../lib/agents';
import { sentence } from '../lib/errors';
import { useRelay, type AppState, type JobView } from '../lib/store';
import { AGENT_RUN_FAILURE, JOB_MODE, JOB_OUTPUT, JOB_STATUS, jobExit } from '../lib/words';
import type { ServerFrameOf } from '../../protocol/wire/frames';
import { canRunAgent, stageOf, waitingOn } from './task-stage';

/** A job as the relay last described it: a failed one carries its reason and details (RUNFAIL-1). */
type ShownJob = JobView & Pick<ServerFrameOf<'job.state'>, 'reason' | 'details'>;

const INTENTS = [
  { id: 'work', label: 'Work on it', help: 'Edits and commits in the task’s own worktree; never pushes.' },
  { id: 'review', label: 'Review only', help: 'Reads the work and says what it thinks; changes nothing.' },
] as const;
type Intent = (typeof INTENTS)[number]['id'];

const TONE: Record<JobView['status'], string | undefined> = { running: 'ok', done: 'ok', failed: 'danger' };

/** The newest job of this task: a running one first. */
export function useTaskJob(repo: string, task: string): ShownJob | null {
  return useRelay(useCallback((s: AppState) => {
    const jobs = Object.values(s.jobs).filter((j) => j.repo === repo && j.task === task);
    return jobs.find((j) => j.status === 'running') ?? jobs.at(-1) ?? null;
  }, [repo, task])) as ShownJob | null; // the store keeps every field of job.state
}

/** The tasks this one still waits for before an agent may work on it (JOB-7, `waitingOn`). */
export function useBlockers(repo: string, task: string): string[] {
  const tasks = useRelay((s) => s.tasks[repo]);
  return waitingOn(tasks?.[task] ?? null, tasks);
}

function outcomeText(r: ActResult, done: string): string | null {
  if (r.status === 'applied') return done;
  if (r.status === 'queued') return 'You are offline: this is sent when the connection is back.';
  return sentence(r.error);
}

/**
 * `choosing`/`setChoosing`: the chooser's state, held by the screen so the action bar's Run agent
 * (the main action of an inbox task, TSTATE-4) opens the same sheet; `inBar`: the bar shows the button.
 */
export function AgentRun({ repo, task, choosing, setChoosing, inBar }: {
  repo: string; task: TaskSummary | null; choosing: boolean; setChoosing(open: boolean): void; inBar: boolean;
}) {
  const job = useTaskJob(repo, task?.id ?? '');
  const [notice, setNotice] = useState<{ text: string; tone?: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const offline = useRepoPlace(repo)?.offline ?? null; // FLEETUI-2
  const blockers = useBlockers(repo, task?.id ?? '');
  if (!task) return null;
  const canRun = canRunAgent(stageOf(task), job, blockers.length > 0);
  const canRetry = job?.status === 'failed' && !job.stopped;

  /**
   * Starts a job; a refusal (e.g. the CLI not ready) keeps the sheet open and says why there (RUNREADY-2).
   * A Retry the relay refuses says so apart from the failure it retried, and that nothing started (RUNFAIL-5).
   */
  async function start(agent: string, mode: Intent, fromSheet: boolean) {
    setBusy(true);
    setRefusal(null);
    setNotice(null);
    const r = await act('task.run', { repo, task: task!.id, mode, agent });
    setBusy(false);
    if (r.status === 'refused' && fromSheet) {
      setRefusal(outcomeText(r, ''));
      return;
    }
    setChoosing(false);
    if (r.status === 'refused') setNotice({ text: AGENT_RUN_FAILURE.retryRefused(outcomeText(r, '') ?? ''), tone: 'danger' });
    else setNotice(r.status === 'applied' ? null : { text: outcomeText(r, '') ?? '', tone: 'danger' });
  }
  const closeSheet = () => { setRefusal(null); setChoosing(false); };
  async function stop(id: string) {
    setBusy(true);
    const r = await act('job.stop', { job: id });
    setBusy(false);
    setNotice({ text: outcomeText(r, 'Stopped. The agent’s processes were ended.') ?? '', tone: r.status === 'applied' ? undefined : 'danger' });
  }

  if (!canRun && !job && blockers.length === 0) return null;
  return (
    <section className="card task-section" aria-labelledby="agent-title" data-testid="agent-run">
      <div className="task-agent-row">
        <h2 id="agent-title" className="task-h2" style={{ margin: 0 }}>Agent</h2>
        {job?.status === 'running' ? (
          <Button variant="danger" disabled={busy} onClick={() => void stop(job.job)} data-testid="job-stop">Stop</Button>
        ) : canRetry ? (
          // With the dock's "Run agent again" beside it (TSTATE-8), the quick Retry is not a second main button.
          <Button variant={inBar ? undefined : 'primary'} disabled={busy || !!offline} title={offline ?? undefined} onClick={() => void start(job.agent ?? AGENTS[0].id, job.mode, false)} data-testid="job-retry">{AGENT_RUN_FAILURE.retry}</Button>
        ) : canRun && !inBar ? (
          <Button variant="primary" disabled={busy || !!offline} title={offline ?? undefined} onClick={() => setChoosing(true)} data-testid="run-agent">Run agent</Button>
        ) : null}
      </div>
      {job ? <JobOutput job={job} /> : blockers.length > 0 ? (
        <p className="muted" style={{ margin: '6px 0 0' }} data-testid="agent-blocked">{AGENT_RUN_FAILURE.blocked(blockers)}</p>
      ) : <p className="muted" style={{ margin: '6px 0 0' }}>Start Claude Code or OpenCode on this task, headless, and watch it work here.</p>}
      {notice ? <p className="notice card" data-tone={notice.tone} role="status" data-testid="agent-notice" style={{ margin: '8px 0 0' }}><Prose text={notice.text} /></p> : null}
      {choosing ? <RunAgentSheet taskId={task.id} busy={busy} refusal={refusal} onClose={closeSheet} onStart={(a, m) => void start(a, m, true)}
        initial={job ? { agent: job.agent ?? AGENTS[0].id, mode: job.mode } : undefined} /> : null}
    </section>
  );
}

function JobOutput({ job }: { job: ShownJob }) {
  const ref = useRef<HTMLPreElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [job.output.text]);
  const running = job.status === 'running';
  if (job.status === 'failed' && job.reason) return <JobFailure job={job} />;
  return (
    <div data-testid="job" data-job={job.job} data-status={job.status}>
      <div className="task-meta" style={{ marginTop: 6 }}>
        <span>{agentLabel(job.agent)}</span>
        <span>{JOB_MODE[job.mode]}</span>
        <span className="pill" data-tone={TONE[job.status]} data-testid="job-status">
          {job.stopped ? JOB_STATUS.stopped : JOB_STATUS[job.status]}{job.status === 'failed' && !job.stopped && job.exitCode !== null ? ` (${jobExit(job.exitCode)})` : ''}
        </span>
      </div>
      <pre ref={ref} className="card job-output mono" aria-live="polite" data-testid="job-output">
        {job.output.text || (running ? JOB_OUTPUT.starting : JOB_OUTPUT.none)}
      </pre>
    </div>
  );
}

/** RUNFAIL-1: why, in one sentence; the CLI's own output folded under Details. */
function JobFailure({ job }: { job: ShownJob }) {
  const raw = job.details || job.output.text;
  return (
    <div data-testid="job" data-job={job.job} data-status={job.status}>
      <div className="task-meta" style={{ marginTop: 6 }}>
        <span>{agentLabel(job.agent)}</span>
        <span className="pill" data-tone="danger" data-testid="job-status">{JOB_STATUS.failed}</span>
      </div>
      <p className="notice card" data-tone="danger" role="alert" data-testid="job-reason" style={{ margin: '8px 0 0' }}><Prose text={job.reason ?? ''} /></p>
      <details className="job-details" data-testid="job-details" style={{ marginTop: 8 }}>
        <summary>{AGENT_RUN_FAILURE.details}</summary>
        <pre className="card job-output mono" data-testid="job-output">
          {raw || AGENT_RUN_FAILURE.noOutput}{job.exitCode !== null ? `\n(exit ${job.exitCode})` : ''}
        </pre>
      </details>
    </div>
  );
}

/** `initial`: the agent and intent chosen at first, e.g. the failed run's, to run again (TSTATE-8). */
export function RunAgentSheet({ taskId, busy, refusal, onClose, onStart, initial }: {
  taskId: string; busy?: boolean; refusal?: string | null; onClose(): void; onStart(agent: string, mode: Intent): void;
  initial?: { agent: string; mode: Intent };
}) {
  const [agent, setAgent] = useState<string>(initial?.agent ?? AGENTS[0].id);
  const [mode, setMode] = useState<Intent>(initial?.mode ?? 'work');
  const submit = (e: FormEvent) => { e.preventDefault(); onStart(agent, mode); };
  return (
    <Sheet title={`Run an agent on ${taskId}`} onClose={onClose} testId="run-agent-sheet">
      <form onSubmit={submit} className="stack">
        <fieldset className="choice-group">
          <legend>Agent</legend>
          {AGENTS.map((a) => (
            <label key={a.id} className="choice">
              <input type="radio" name="agent" value={a.id} checked={agent === a.id} onChange={() => setAgent(a.id)} data-testid={`agent-${a.id}`} />
              <span>{a.label}</span>
            </label>
          ))}
        </fieldset>
        <fieldset className="choice-group">
          <legend>What it may do</legend>
          {INTENTS.map((i) => (
            <label key={i.id} className="choice">
              <input type="radio" name="intent" value={i.id} checked={mode === i.id} onChange={() => setMode(i.id)} data-testid={`intent-${i.id}`} />
              <span><strong>{i.label}</strong><br /><span className="muted">{i.help}</span></span>
            </label>
          ))}
        </fieldset>
        {/* Start and Cancel stay in view at the sheet's foot on a small or landscape screen (ROOM-8), the refusal with them. */}
        <div className="row sheet-footer">
          {refusal ? (
            <p className="notice card sheet-footer-note" data-tone="danger" role="alert" data-testid="run-agent-refusal">
              <Prose text={refusal} /> {AGENT_RUN_FAILURE.notStarted}
            </p>
          ) : null}
          <Button type="submit" variant="primary" disabled={busy} data-testid="run-agent-start">Start</Button>
          <Button onClick={onClose}>Cancel</Button>
        </div>
      </form>
    </Sheet>
  );
}
