// What happened to the task, oldest first: bus events (durable) and the agent's
// live session events (ephemeral); an action still running is the live line (REVIEW-8).
import type { AnyBusEvent } from '../../protocol/bus/events';
import type { LiveEvent } from '../../protocol/live-events';
import type { TimelineItem } from './use-task';

/** One line for a bus event. Unknown event types still show their name. */
export function describeBusEvent(e: AnyBusEvent): string {
  const f = e as Record<string, unknown>;
  switch (e.event) {
    case 'task_claimed': return `Claimed by ${f.agent} on ${f.machine}`;
    case 'task_progress': return `Progress: ${f.note}`;
    case 'task_complete': return `Completed (${f.result})`;
    case 'task_failed': return `Failed: ${f.reason}`;
    case 'session_end': return `Session ended${f.tests_summary ? ` · ${f.tests_summary}` : ''}${f.files_changed !== undefined ? ` · ${f.files_changed} files changed` : ''}`;
    case 'council_verdict': return `Council verdict ${f.verdict}${Number(f.abstentions) > 0 ? ` (${f.abstentions} abstained)` : ''}`;
    case 'task_annotation': return `Note from ${f.author} on ${f.anchor}`;
    case 'approval_requested': return `Approval requested for ${f.files} staged file${f.files === 1 ? '' : 's'}`;
    case 'approval_granted': return `Approved by ${f.by}`;
    case 'approval_denied': return `Denied by ${f.by}${f.reason ? `: ${f.reason}` : ''}`;
    case 'task_committed': return `Committed ${String(f.commit).slice(0, 10)}${f.digest ? '' : ' without an approval'}: ${f.subject}`;
    case 'artifact_emitted': return `Artifact: ${f.title ?? f.path}`;
    default: return e.event.replace(/_/g, ' ');
  }
}

function describeLive(e: LiveEvent): string {
  const target = e.file ?? e.cmd ?? '';
  const result = e.ok === false ? ' — failed' : '';
  // A check result comes from the agent's own hook: say so, it is not verified (CRED-3).
  const source = e.kind === 'check' ? ' · reported by the agent' : '';
  return `${e.summary}${target && !e.summary.includes(target) ? ` (${target})` : ''}${result}${source}`;
}

export function Timeline({ items, running }: { items: TimelineItem[]; running: LiveEvent | null }) {
  return (
    <section className="task-section" aria-labelledby="timeline-title" data-testid="timeline">
      <h2 id="timeline-title" className="group-title">Timeline</h2>
      {running ? (
        <p className="card task-live-line" data-testid="timeline-running" aria-live="polite">
          <span className="task-pulse" aria-hidden /> Now: {describeLive(running)}
        </p>
      ) : null}
      {items.length === 0 ? <p className="muted">No events yet.</p> : null}
      <ol className="task-timeline">
        {items.map((item) => (
          <li key={item.key} data-testid="timeline-item" data-kind={item.kind} data-event={item.kind === 'bus' ? item.event.event : item.event.kind}>
            <time dateTime={item.ts} className="muted">{new Date(item.ts).toLocaleTimeString()}</time>{' '}
            {item.kind === 'bus' ? describeBusEvent(item.event) : <span className="task-live">{describeLive(item.event)}</span>}
          </li>
        ))}
      </ol>
    </section>
  );
}
