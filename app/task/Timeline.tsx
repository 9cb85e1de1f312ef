// What happened to the task, oldest first: bus events (durable) and the agent's
// live session events (ephemeral); an action still running is the live line (REVIEW-8).
// A note the relay cut (LIMIT-2) shows its first part and a "Show all" that reads
// the whole text with `task.note` on demand (NOTEUI-1..3).
import { anchorPhrase } from './anchor';
import { useState } from 'react';
import type { AnyBusEvent } from '../../protocol/bus/events';
import type { LiveEvent } from '../../protocol/live-events';
import { read } from '../lib/actions';
import { sentence } from '../lib/errors';
import { clock, clockFull } from '../lib/clock';
import { agentName, claimant, verdictWord } from '../lib/words';
import { cutFields, sizeLabel, type CutField } from './timeline';
import type { TimelineItem } from './use-task';
import './Timeline.css';

/** One line for a bus event. Unknown event types still show their name. */
export function describeBusEvent(e: AnyBusEvent): string {
  const f = e as Record<string, unknown>;
  switch (e.event) {
    // The claim's agent is the claimant, `<host>_<pid>` (CLAIM-3): on its own machine, the process says it.
    case 'task_claimed': {
      const agent = String(f.agent);
      return agent.startsWith(`${String(f.machine)}_`) ? `Claimed on ${claimant(agent)}` : `Claimed by ${agentName(agent)} on ${f.machine}`;
    }
    case 'task_progress': return `Progress: ${f.note}`;
    case 'task_complete': return `Completed (${verdictWord(String(f.result))})`;
    case 'task_failed': return `Failed: ${f.reason}`;
    case 'session_end': return `Session ended${f.tests_summary ? ` · ${f.tests_summary}` : ''}${f.files_changed !== undefined ? ` · ${f.files_changed} files changed` : ''}`;
    case 'council_verdict': return `Council verdict ${verdictWord(String(f.verdict))}${Number(f.abstentions) > 0 ? ` (${f.abstentions} abstained)` : ''}`;
    case 'task_annotation': return `Note from ${f.author} on ${anchorPhrase(String(f.anchor))}`;
    case 'approval_requested': return `Approval requested for ${f.files} staged file${f.files === 1 ? '' : 's'}`;
    case 'approval_granted': return `Approved by ${f.by}`;
    case 'approval_denied': return `Denied by ${f.by}${f.reason ? `: ${f.reason}` : ''}`;
    case 'task_committed': return `Committed ${String(f.commit).slice(0, 10)}${f.digest ? '' : ' without an approval'}: ${f.subject}`;
    case 'task_merged': return `Merged into ${f.base} by ${f.by} (${f.mode === 'fast-forward' ? 'fast-forward' : 'merge commit'} ${String(f.commit).slice(0, 10)})`;
    case 'task_pushed': return `Pushed ${f.branch} to ${f.remote} by ${f.by}`;
    case 'pr_opened': return `Pull request opened by ${f.by}: ${f.url}`;
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

type Whole = { status: 'closed' } | { status: 'loading' } | { status: 'open'; fields: [string, string][] } | { status: 'error'; message: string };

/**
 * "Show all (N KB)" under a cut event: reads the whole fields with `task.note` when
 * asked (never before), shows them as text (React escapes it; never HTML) in a box
 * of bounded height that scrolls, and says a failure as a sentence (NOTEUI-1..3).
 */
function WholeNote({ repo, event, cursor, cut }: { repo: string; event: AnyBusEvent; cursor: { offset: number; epoch: string }; cut: CutField[] }) {
  const [whole, setWhole] = useState<Whole>({ status: 'closed' });
  const total = cut.reduce((sum, c) => sum + c.bytes, 0);
  const show = () => {
    setWhole({ status: 'loading' });
    read('task.note', { repo, task: String(event.task), cursor })
      .then((value) => {
        const fields = (value as { fields?: Record<string, unknown> } | null)?.fields ?? {};
        const texts = cut.map((c) => [c.field, fields[c.field]] as const).filter((f): f is [string, string] => typeof f[1] === 'string');
        if (texts.length === 0) throw new Error('the relay sent no text for this note');
        setWhole({ status: 'open', fields: texts });
      })
      .catch((e: unknown) => setWhole({ status: 'error', message: sentence(e) }));
  };
  return (
    <div className="timeline-whole">
      {whole.status === 'open' ? (
        <>
          {whole.fields.map(([field, text]) => (
            <div key={field} className="timeline-whole-text" data-testid="timeline-note-full" data-field={field} tabIndex={0} role="region"
              aria-label={`Whole ${field.replace(/_/g, ' ')}`}>
              {text}
            </div>
          ))}
          <button type="button" className="link-button timeline-note-button" data-testid="timeline-note-less" onClick={() => setWhole({ status: 'closed' })}>Show less</button>
        </>
      ) : (
        <button type="button" className="link-button timeline-note-button" data-testid="timeline-note-more" disabled={whole.status === 'loading'} aria-busy={whole.status === 'loading'} onClick={show}>
          {whole.status === 'loading' ? 'Loading…' : `Show all (${sizeLabel(total)})`}
        </button>
      )}
      {whole.status === 'error' ? <p className="card notice" data-tone="danger" role="alert" data-testid="timeline-note-error">{whole.message}</p> : null}
    </div>
  );
}

function BusLine({ repo, item }: { repo: string; item: Extract<TimelineItem, { kind: 'bus' }> }) {
  const cut = cutFields(item.event);
  if (cut.length === 0) return <>{describeBusEvent(item.event)}</>;
  return (
    <>
      {describeBusEvent(item.event)}…
      {item.cursor ? <WholeNote repo={repo} event={item.event} cursor={item.cursor} cut={cut} /> : null}
    </>
  );
}

export function Timeline({ repo, items, running }: { repo: string; items: TimelineItem[]; running: LiveEvent | null }) {
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
            <time dateTime={item.ts} className="muted" title={clockFull(new Date(item.ts))}>{clock(new Date(item.ts))}</time>{' '}
            {item.kind === 'bus' ? <BusLine repo={repo} item={item} /> : <span className="task-live">{describeLive(item.event)}</span>}
          </li>
        ))}
      </ol>
    </section>
  );
}
