// Latest definition-of-done check results per task (CHECKS-5): fed by live `check` events,
// served to `task.detail` as one row per configured check. In memory, like all live telemetry.
import { loadChecks } from '../../adapters/lib/checks';
import type { LiveEvent } from '../../protocol/live-events';
import type { CheckResult } from '../../protocol/wire/views';

export const CHECK_TASKS = 500;

export class CheckResults {
  // Map order = least recently updated task first, so eviction takes the oldest.
  private readonly byTask = new Map<string, Map<string, CheckResult>>();

  constructor(
    private readonly env: Record<string, string | undefined>,
    private readonly maxTasks = CHECK_TASKS,
  ) {}

  /** Keeps a completed `check` event that names its task and label; everything else is ignored. */
  record(event: LiveEvent, at: string): void {
    if (event.kind !== 'check' || event.running || !event.task || !event.label) return;
    const results = this.byTask.get(event.task) ?? new Map<string, CheckResult>();
    this.byTask.delete(event.task);
    // Every result reaches the relay through the hook credential: the agent's word, not a verified run (CRED-3).
    results.set(event.label, { label: event.label, ok: event.ok ?? null, cmd: event.cmd, summary: event.summary, at, reportedBy: 'agent' });
    this.byTask.set(event.task, results);
    while (this.byTask.size > this.maxTasks) this.byTask.delete(this.byTask.keys().next().value!);
  }

  /**
   * One row per check configured now (file order, read fresh), with its latest result; a
   * check that never ran has `ok: null` and `at: ''`. Results for labels no longer configured
   * follow. Task ids are per repo in practice; the repo is not part of the key.
   */
  latest(_repo: string, task: string): CheckResult[] {
    const results = this.byTask.get(task) ?? new Map<string, CheckResult>();
    const configured = loadChecks(this.env).checks.map((c) => c.label);
    const rows = configured.map((label) => results.get(label) ?? { label, ok: null, at: '' });
    for (const [label, result] of results) if (!configured.includes(label)) rows.push(result);
    return rows;
  }
}
