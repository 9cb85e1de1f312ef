// Notes people left for the agent, and whether the agent has read them yet (REVIEW-6). Files
// that came with the repository are shown apart, as such, never as the person's (ANNOT-6).
import type { AnnotationView } from '../../protocol/wire/views';
import { anchorLabel } from './anchor';
import { NOTE } from '../lib/words';
import { NoteBody } from '../components/NoteBody';

export function Annotations({ annotations, repo }: { annotations: AnnotationView[]; repo?: string }) {
  if (annotations.length === 0) return null;
  return (
    <section className="task-section" aria-labelledby="notes-title">
      <h2 id="notes-title" className="group-title">{NOTE.listTitle}</h2>
      <ul className="stack task-notes">
        {annotations.map(({ file, annotation: a, fromRepository }) => (
          <li key={file} className="card" data-testid="annotation" data-anchor={a.anchor} data-consumed={a.consumed} data-from-repository={fromRepository ? 'true' : undefined}>
            <div className="task-meta">
              <span className="wrap-anywhere">{anchorLabel(a.anchor)}</span>
              {fromRepository
                ? <span className="pill" data-tone="danger">from the repository, not you: not given to the agent</span>
                : <>
                    <span>{a.author}</span>
                    <span className="pill" data-tone={a.consumed ? 'ok' : 'warn'}>{a.consumed ? 'read by the agent' : 'not read yet'}</span>
                  </>}
            </div>
            <NoteBody body={a.body} source={repo ? { repo, task: a.task } : undefined} />
          </li>
        ))}
      </ul>
    </section>
  );
}
