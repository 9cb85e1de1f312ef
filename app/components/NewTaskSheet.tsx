'use client';
// New task from the phone (UX-3): the fields a packet needs — id, type, scope, title,
// context, acceptance criteria — checked here with the wire's own schema, then sent
// as a signed `task.create`; the relay writes the packet into the chosen repo's inbox.
// It opens on Title (the Id is pre-filled), says what is missing only once the person has
// tried to add the task, and keeps its buttons in view at the sheet's foot (ROOM-8).
import { useRouter } from 'next/navigation';
import { useMemo, useState, type FormEvent } from 'react';
import { NewPacket } from '../../protocol/wire/frames';
import { PACKET_TYPES, type PacketType } from '../../protocol/bus/packet';
import type { RepoInfo, TaskSummary } from '../../protocol/wire/views';
import { act } from '../lib/actions';
import { sentence } from '../lib/errors';
import { Button } from './Button';
import { Sheet } from './Sheet';
import { taskHref } from './TaskCard';
import { VoiceInput } from './voice/VoiceInput';

const FIELD_LABEL: Record<string, string> = { id: 'Id', type: 'Type', scope: 'Scope', title: 'Title', context: 'Context', acceptance: 'Acceptance criteria' };
/** The packet's fields in the order they are on the sheet: the first one missing gets the focus. */
const FIELD_ORDER = ['id', 'type', 'title', 'scope', 'context', 'acceptance'] as const;

/** The next free `T-<n>` in a repo, as a suggestion the person may change. */
export function suggestId(tasks: Record<string, TaskSummary> | undefined): string {
  let max = 0;
  for (const id of Object.keys(tasks ?? {})) {
    const m = /^T-(\d{1,9})$/.exec(id);
    if (m) max = Math.max(max, Number(m[1]));
  }
  return `T-${max + 1}`;
}

export function NewTaskSheet({ repos, tasks, onClose }: { repos: RepoInfo[]; tasks: Record<string, Record<string, TaskSummary>>; onClose(): void }) {
  const router = useRouter();
  const [repo, setRepo] = useState(repos[0]?.id ?? '');
  const [id, setId] = useState(() => suggestId(tasks[repos[0]?.id ?? '']));
  const [type, setType] = useState<PacketType>('implementation');
  const [scope, setScope] = useState('');
  const [title, setTitle] = useState('');
  const [context, setContext] = useState('');
  const [acceptance, setAcceptance] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [tried, setTried] = useState(false);
  const packet = { id: id.trim(), type, scope: scope.trim(), title: title.trim(), context, acceptance };
  const checked = useMemo(() => NewPacket.safeParse(packet), [packet.id, type, packet.scope, packet.title, context, acceptance]); // eslint-disable-line react-hooks/exhaustive-deps
  const invalid = checked.success ? [] : FIELD_ORDER.filter((f) => checked.error.issues.some((i) => i.path[0] === f));
  const problems = invalid.map((f) => FIELD_LABEL[f]);
  const taken = !!tasks[repo]?.[packet.id];
  const ready = !busy && checked.success && !taken;

  async function submit(e: FormEvent) {
    e.preventDefault();
    // Off but not `disabled`: a tap on it says what is missing and goes to the first such field.
    if (!checked.success || taken) {
      setTried(true);
      document.getElementById(`nt-${invalid[0] ?? 'id'}`)?.focus();
      return;
    }
    if (busy) return;
    setBusy(true);
    const outcome = await act('task.create', { repo, packet: checked.data });
    setBusy(false);
    if (outcome.status === 'applied') {
      onClose();
      router.push(taskHref({ repo, id: checked.data.id }));
    } else if (outcome.status === 'queued') {
      setError('You are offline: the task is written when the connection is back.');
    } else {
      setError(sentence(outcome.error));
    }
  }

  if (repos.length === 0) {
    return (
      <Sheet title="New task" onClose={onClose} testId="new-task-sheet">
        <p>No repository is watched yet. Run <code>commandr init</code> in a repository, then start the relay.</p>
        <Button onClick={onClose}>Close</Button>
      </Sheet>
    );
  }
  return (
    <Sheet title="New task" onClose={onClose} testId="new-task-sheet" focus="#nt-title">
      <form onSubmit={submit} noValidate>
        {repos.length > 1 ? (
          <div className="field">
            <label htmlFor="nt-repo">Repository</label>
            <select id="nt-repo" value={repo} onChange={(e) => { setRepo(e.target.value); setId(suggestId(tasks[e.target.value])); }} data-testid="new-task-repo">
              {repos.map((r) => <option key={r.id} value={r.id}>{r.name}{r.demo ? ' (demo)' : ''}</option>)}
            </select>
          </div>
        ) : null}
        <div className="row" style={{ alignItems: 'flex-start' }}>
          <div className="field" style={{ flex: '1 1 8rem' }}>
            <label htmlFor="nt-id">Id</label>
            <input id="nt-id" value={id} onChange={(e) => setId(e.target.value)} autoCapitalize="off" autoCorrect="off" spellCheck={false} data-testid="new-task-id" aria-describedby="nt-id-help" />
            <span id="nt-id-help" className="muted field-help">{taken ? 'This repository already has a task with this id.' : 'Letters, digits, . _ - (becomes the file name).'}</span>
          </div>
          <div className="field" style={{ flex: '1 1 10rem' }}>
            <label htmlFor="nt-type">Type</label>
            <select id="nt-type" value={type} onChange={(e) => setType(e.target.value as PacketType)} data-testid="new-task-type">
              {PACKET_TYPES.map((t) => <option key={t} value={t}>{t}</option>)}
            </select>
          </div>
        </div>
        <div className="field">
          <label htmlFor="nt-title">Title</label>
          <input id="nt-title" value={title} onChange={(e) => setTitle(e.target.value)} maxLength={200} data-testid="new-task-title" />
        </div>
        <div className="field">
          <label htmlFor="nt-scope">Scope (the files it may change)</label>
          <input id="nt-scope" value={scope} onChange={(e) => setScope(e.target.value)} placeholder="e.g. src/parser/**" autoCapitalize="off" autoCorrect="off" spellCheck={false} data-testid="new-task-scope" />
        </div>
        <VoiceInput id="nt-context" label="Context (why, and what to know)" value={context} onChange={setContext} rows={3} testId="new-task-context" />
        <div className="field">
          <label htmlFor="nt-acceptance">Acceptance criteria (one per line)</label>
          <textarea id="nt-acceptance" rows={3} value={acceptance} onChange={(e) => setAcceptance(e.target.value)} data-testid="new-task-acceptance" />
        </div>
        {error ? <p className="card notice" data-tone="danger" role="alert" data-testid="new-task-error">{error}</p> : null}
        <div className="row sheet-footer">
          {tried && problems.length > 0 ? (
            <p className="muted sheet-footer-note" role="status" data-testid="new-task-problems">Still needed or not valid: {problems.join(', ')}.</p>
          ) : null}
          <Button type="submit" variant="primary" aria-disabled={!ready} data-testid="new-task-create">Add to inbox</Button>
          <Button onClick={onClose}>Cancel</Button>
        </div>
      </form>
    </Sheet>
  );
}
