'use client';
// The changed files with their +/− counts; a tap scrolls to the file's card.
import type { FileView } from './view-model';
import './diff.css';

export function FileList({ views, onJump }: { views: FileView[]; onJump(file: number): void }) {
  const additions = views.reduce((n, v) => n + (v.stat?.additions ?? v.file.additions), 0);
  const deletions = views.reduce((n, v) => n + (v.stat?.deletions ?? v.file.deletions), 0);
  return (
    <details className="diff-fileList" open={views.length <= 12} data-testid="diff-files">
      <summary>
        {views.length} {views.length === 1 ? 'file' : 'files'} changed · <span className="diff-plus">+{additions}</span>{' '}
        <span className="diff-minus">−{deletions}</span>
      </summary>
      <ul>
        {views.map((v) => (
          <li key={v.index}>
            <button type="button" className="diff-fileLink" onClick={() => onJump(v.index)} data-testid="diff-file-link">
              <span className="diff-path">{v.file.path}</span>
              <span className="diff-counts">
                {v.file.binary ? 'binary ' : ''}
                <span className="diff-plus">+{v.stat?.additions ?? v.file.additions}</span>{' '}
                <span className="diff-minus">−{v.stat?.deletions ?? v.file.deletions}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </details>
  );
}
