'use client';
// Choose a reference path: one of the relay's allowed roots, plus an optional
// folder inside it (CMDR-UI-2). The relay checks the path again.
import { useEffect, useState } from 'react';
import { folderChoice, joinReference, referenceProblem } from './status';

export function ReferencePicker({ roots, onChange }: { roots: string[]; onChange(path: string | null): void }) {
  const [root, setRoot] = useState(roots[0] ?? '');
  const [inside, setInside] = useState('');
  useEffect(() => {
    if (!root && roots[0]) setRoot(roots[0]);
  }, [root, roots]);
  const problem = referenceProblem(inside);
  useEffect(() => onChange(root && !problem ? joinReference(root, inside) : null), [root, inside, problem, onChange]);
  if (roots.length === 0) {
    return <p className="card notice" data-testid="no-roots">The relay allows no folders for commanders yet. Start the relay with a repository or an allowed root (<code>--allow-root</code>), then try again.</p>;
  }
  return (
    <>
      <div className="field">
        <label htmlFor="ref-root">Folder it works on</label>
        <select id="ref-root" value={root} onChange={(e) => setRoot(e.target.value)} data-testid="ref-root">
          {roots.map((r) => <option key={r} value={r}>{folderChoice(r)}</option>)}
        </select>
      </div>
      <div className="field">
        <label htmlFor="ref-inside">Sub-folder (optional)</label>
        <input id="ref-inside" value={inside} onChange={(e) => setInside(e.target.value)} placeholder="e.g. docs/notes" autoCapitalize="off" autoCorrect="off" data-testid="ref-inside" />
        {problem ? <span role="alert" className="muted">{problem}</span> : null}
      </div>
    </>
  );
}
