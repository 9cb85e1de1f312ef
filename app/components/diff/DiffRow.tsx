'use client';
// One row of the virtualised diff: a file card header, a note, a hunk header,
// or a line (unified) / a pair of lines (side by side). Gutter tap or a long
// press on a line annotates it (DIFFVIEW-7).
import { memo, useRef, type PointerEvent, type ReactNode } from 'react';
import type { DiffLine } from './parse';
import { cardAnchor, lineAnchor, wordSegments, type Cell, type FileView, type Row } from './view-model';
import type { Highlighter } from './highlight';
import { languageOf } from './languages';
import { NOTE } from '../../lib/words';
import './diff.css';

export interface RowProps {
  row: Row;
  view: FileView;
  folded: boolean;
  highlighter: Highlighter | null;
  onToggle(file: number): void;
  onAnnotate(anchor: string): void;
}

const NOTES: Record<string, string> = {
  binary: 'Binary file — not shown as text.',
  omitted: 'This file’s changes are too large to send to the phone; only its line counts are shown.',
  'mode-only': 'Only the file mode changed.',
  folded: 'Folded. Open it to see the lines.',
};

export const DiffRow = memo(function DiffRow(props: RowProps) {
  const { row } = props;
  switch (row.type) {
    case 'file': return <FileHeader {...props} />;
    case 'note': return <div className="diff-note">{row.reason === 'folded' ? foldNote(props.view) : NOTES[row.reason]}</div>;
    case 'hunk': return <div className="diff-hunk">{row.header}</div>;
    case 'comment': return (
      <div className="diff-comment" data-testid="diff-comment" data-anchor={row.anchor}>
        {row.notes.map((n, i) => (
          <p key={i} className="diff-comment-note"><strong>{n.author}</strong>{n.consumed ? '' : ' · not read yet'}: {n.body}</p>
        ))}
      </div>
    );
    case 'line': return <LineCell {...props} cell={row.cell} />;
    case 'pair': return (
      <div className="diff-pair">
        {row.left ? <LineCell {...props} cell={row.left} side="old" /> : <div className="diff-empty" />}
        {row.right ? <LineCell {...props} cell={row.right} side="new" /> : <div className="diff-empty" />}
      </div>
    );
  }
});

function foldNote(view: FileView): string {
  if (view.reason === 'generated') return 'Generated file, folded. Open it to see the lines.';
  if (view.reason === 'huge') return 'Very large change, folded. Open it to see the lines.';
  return NOTES.folded;
}

function FileHeader({ view, folded, onToggle, onAnnotate }: RowProps) {
  const { file } = view;
  const status = file.status === 'renamed' || file.status === 'copied'
    ? `${file.status} from ${file.oldPath}${file.similarity !== null ? ` (${file.similarity}% similar)` : ''}`
    : file.status;
  const mode = file.oldMode && file.newMode && file.oldMode !== file.newMode ? ` · mode ${file.oldMode} → ${file.newMode}` : '';
  return (
    <div className="diff-fileHeader" data-testid="diff-file" data-path={file.path}>
      <div className="diff-fileTitle">
        <span className="diff-path">{file.path}</span>
        <span className="diff-fileMeta">
          {status}{file.binary ? ' · binary' : ''}{mode} · <span className="diff-plus">+{file.additions}</span>{' '}
          <span className="diff-minus">−{file.deletions}</span>
        </span>
      </div>
      {file.hunks.length > 0 && (
        <button type="button" className="diff-tool" onClick={() => onToggle(view.index)} aria-expanded={!folded}
          aria-label={`${folded ? 'Open' : 'Fold'} ${file.path}`} data-testid="diff-fold">
          {folded ? 'Open' : 'Fold'}
        </button>
      )}
      <button type="button" className="diff-tool" onClick={() => onAnnotate(cardAnchor(file.path))}
        aria-label={NOTE.addToFile(file.path)} data-testid="diff-annotate-file">
        {NOTE.add}
      </button>
    </div>
  );
}

const LONG_PRESS_MS = 500;

function LineCell({ view, cell, highlighter, onAnnotate, side }: RowProps & { cell: Cell; side?: 'old' | 'new' }) {
  const { line } = cell;
  const path = view.file.path;
  const anchor = lineAnchor(path, line);
  const press = useLongPress(() => onAnnotate(anchor));
  const number = side === 'old' ? line.oldNo : side === 'new' ? line.newNo : null;
  return (
    <div className={`diff-line diff-${line.kind}`} data-testid="diff-line" data-anchor={anchor}>
      <button type="button" className="diff-gutter" onClick={() => onAnnotate(anchor)}
        aria-label={NOTE.addToLine(anchor.slice(anchor.lastIndexOf(':') + 1), path)} data-testid="diff-gutter">
        {side ? <span>{number ?? ''}</span> : <><span>{line.oldNo ?? ''}</span><span>{line.newNo ?? ''}</span></>}
      </button>
      <code className="diff-code" {...press}>
        <span className="diff-marker" aria-hidden>{line.kind === 'add' ? '+' : line.kind === 'del' ? '−' : ' '}</span>
        {lineText(cell, path, highlighter)}
        {line.noNewline && <span className="diff-noNewline"> (no newline at end of file)</span>}
      </code>
    </div>
  );
}

/** Paired lines show changed words; others get syntax colour once it has loaded. */
function lineText(cell: Cell, path: string, highlighter: Highlighter | null): ReactNode {
  if (cell.partner) {
    return wordSegments(cell).map((s, i) => (s.changed ? <mark key={i} className="diff-word">{s.text}</mark> : <span key={i}>{s.text}</span>));
  }
  const lang = languageOf(path);
  const html = highlighter && lang ? highlighter.highlight(lang, cell.line.text) : null;
  // highlight.js escapes every character of the text it is given.
  return html === null ? cell.line.text : <span dangerouslySetInnerHTML={{ __html: html }} />;
}

function useLongPress(fire: () => void) {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const cancel = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  };
  return {
    onPointerDown: (e: PointerEvent) => {
      if (e.pointerType === 'mouse') return;
      cancel();
      timer.current = setTimeout(fire, LONG_PRESS_MS);
    },
    onPointerUp: cancel,
    onPointerCancel: cancel,
    onPointerMove: cancel,
    onContextMenu: (e: { preventDefault(): void }) => {
      if (timer.current) e.preventDefault();
    },
  };
}

