'use client';
// The diff review (DIFFVIEW-5..8): file list, then every file as a card of rows
// drawn through a window virtualiser, so a 10,000-line diff keeps a bounded DOM.
// Highlighting loads after first paint and only recolours rows already drawn.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import type { FileStat } from '../../../protocol/bus/diff';
import { parseDiff } from './parse';
import { buildRows, fileViews, type Layout, type LineNote, type Row } from './view-model';
import type { Highlighter } from './highlight';
import { DiffRow } from './DiffRow';
import { FileList } from './FileList';
import { useMedia } from './use-media';
import './diff.css';

export interface DiffViewProps {
  patch: string;
  stats?: FileStat[];
  /** Called with `line:<path>:<n>` or `card:<path>`. */
  onAnnotate(anchor: string): void;
  /** Notes on lines, by anchor (`line:<path>:<n>`), drawn under their line. */
  notes?: ReadonlyMap<string, LineNote[]>;
}

const ESTIMATES: Record<Row['type'], number> = { file: 56, note: 36, hunk: 28, line: 22, pair: 22, comment: 48 };
/** On a touch screen a line row is at least its 44 px line-number target (CARD-4). */
const TOUCH_LINE = 44;
/** Rows drawn beyond the viewport on each side. */
const OVERSCAN = 30;

export function DiffView({ patch, stats, onAnnotate, notes }: DiffViewProps) {
  const wide = useMedia('(min-width: 900px)');
  const touch = useMedia('(pointer: coarse)');
  const layout: Layout = wide ? 'split' : 'unified';
  const views = useMemo(() => fileViews(parseDiff(patch), stats), [patch, stats]);
  const [flipped, setFlipped] = useState<ReadonlySet<number>>(new Set());
  const rows = useMemo(() => buildRows(views, layout, flipped, notes), [views, layout, flipped, notes]);
  const highlighter = useLazyHighlighter(views.map((v) => v.file.path));

  const listRef = useRef<HTMLDivElement>(null);
  const [margin, setMargin] = useState(0);
  useLayoutEffect(() => {
    const el = listRef.current;
    if (el) setMargin(el.getBoundingClientRect().top + window.scrollY);
  });
  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize: (i) => (touch && (rows[i].type === 'line' || rows[i].type === 'pair') ? TOUCH_LINE : ESTIMATES[rows[i].type]),
    getItemKey: (i) => rows[i].key,
    overscan: OVERSCAN,
    scrollMargin: margin,
  });

  const toggle = useCallback((file: number) => setFlipped((prev) => {
    const next = new Set(prev);
    if (next.has(file)) next.delete(file);
    else next.add(file);
    return next;
  }), []);
  const jumpTo = useCallback((file: number) => {
    const index = rows.findIndex((r) => r.type === 'file' && r.file === file);
    if (index >= 0) virtualizer.scrollToIndex(index, { align: 'start' });
  }, [rows, virtualizer]);

  if (views.length === 0) return <p className="diff-note" data-testid="diff-empty">There are no changed lines to show.</p>;
  const items = virtualizer.getVirtualItems();
  return (
    <section className="diff-diff" aria-label="Changes" data-testid="diff-view" data-layout={layout}>
      <FileList views={views} onJump={jumpTo} />
      <div ref={listRef} className="diff-rows" style={{ height: virtualizer.getTotalSize() }} data-testid="diff-rows" data-total={rows.length}>
        {items.map((item) => {
          const row = rows[item.index];
          const view = views[row.file];
          return (
            <div key={item.key} data-index={item.index} ref={virtualizer.measureElement} className="diff-row" data-testid="diff-row"
              style={{ transform: `translateY(${item.start - virtualizer.options.scrollMargin}px)` }}>
              <DiffRow row={row} view={view} folded={view.foldByDefault !== flipped.has(row.file)} highlighter={highlighter}
                onToggle={toggle} onAnnotate={onAnnotate} />
            </div>
          );
        })}
      </div>
    </section>
  );
}

/** The highlighter, imported once the diff has painted (never before). */
function useLazyHighlighter(paths: string[]): Highlighter | null {
  const [highlighter, setHighlighter] = useState<Highlighter | null>(null);
  const key = paths.join('\n');
  useEffect(() => {
    let cancelled = false;
    const start = () => {
      void import('./highlight')
        .then((m) => m.loadHighlighter(key.split('\n')))
        .then((h) => { if (!cancelled) setHighlighter(h); })
        .catch(() => undefined); // colour is optional; the diff stays readable without it
    };
    // Two frames: the first paint of the rows has happened by then.
    const frame = requestAnimationFrame(() => requestAnimationFrame(start));
    return () => { cancelled = true; cancelAnimationFrame(frame); };
  }, [key]);
  return highlighter;
}
