// Flat row lists the virtualised renderer draws (DIFFVIEW-4..7): one list for
// the unified layout and one for side-by-side, per-file folding, and the
// pairing of removed/added runs that word-level highlighting compares.
import { diffWordsWithSpace } from 'diff';
import type { FileStat } from '../../../protocol/bus/diff';
import type { DiffFile, DiffLine } from './parse';

export type Layout = 'unified' | 'split';

/** Why a file's lines are not shown until the person opens it. */
export type FoldReason = 'generated' | 'huge' | 'binary' | 'omitted' | 'mode-only' | null;

export interface FileView {
  index: number;
  file: DiffFile;
  stat: FileStat | null;
  /** Folded by default (generated, huge, or many lines). */
  foldByDefault: boolean;
  reason: FoldReason;
}

export interface Cell {
  line: DiffLine;
  /** Row key of the paired line on the other side, for word highlighting. */
  partner: DiffLine | null;
}

export type Row =
  | { type: 'file'; key: string; file: number }
  | { type: 'note'; key: string; file: number; reason: Exclude<FoldReason, null> | 'folded' }
  | { type: 'hunk'; key: string; file: number; header: string }
  | { type: 'line'; key: string; file: number; cell: Cell }
  | { type: 'pair'; key: string; file: number; left: Cell | null; right: Cell | null }
  /** The notes left on the line just above, shown inline where they were written (UX-10). */
  | { type: 'comment'; key: string; file: number; anchor: string; notes: LineNote[] };

export interface LineNote { author: string; body: string; consumed: boolean }

/** A file with more changed lines than this is folded until opened. */
export const FOLD_LINES = 1500;

export function fileViews(files: DiffFile[], stats: FileStat[] = []): FileView[] {
  const byPath = new Map(stats.map((s) => [s.path, s]));
  return files.map((file, index) => {
    const stat = byPath.get(file.path) ?? null;
    const reason = foldReason(file, stat);
    const foldByDefault = reason === 'generated' || reason === 'huge' || file.additions + file.deletions > FOLD_LINES;
    return { index, file, stat, foldByDefault, reason };
  });
}

function foldReason(file: DiffFile, stat: FileStat | null): FoldReason {
  if (file.binary || stat?.binary) return 'binary';
  if (stat?.generated) return 'generated';
  if (stat?.huge) return 'huge';
  if (stat?.hunks_omitted || (file.hunks.length === 0 && stat && stat.additions + stat.deletions > 0)) return 'omitted';
  if (file.hunks.length === 0 && file.oldMode !== file.newMode && file.oldMode && file.newMode) return 'mode-only';
  return null;
}

/** The rows to draw; `open` holds the indexes of files whose folding the person flipped. */
export function buildRows(views: FileView[], layout: Layout, flipped: ReadonlySet<number> = new Set(), notes: ReadonlyMap<string, LineNote[]> = new Map()): Row[] {
  const rows: Row[] = [];
  // An anchor names a new-side number, or an old-side one for a removed line: where both
  // exist, the note goes under the new-side line, and each note shows once.
  const shown = new Set<string>();
  const commentAfter = (f: number, key: string, ...cells: (Cell | null)[]) => {
    const path = views[f]!.file.path;
    for (const cell of cells) {
      if (cell === null) continue;
      const anchor = lineAnchor(path, cell.line);
      const list = notes.get(anchor);
      if (!list || list.length === 0 || shown.has(anchor)) continue;
      if (cell.line.kind === 'del' && newSide(views[f]!).has(anchor)) continue;
      shown.add(anchor);
      rows.push({ type: 'comment', key: `${key}c${anchor}`, file: f, anchor, notes: list });
    }
  };
  for (const v of views) {
    const f = v.index;
    rows.push({ type: 'file', key: `f${f}`, file: f });
    const folded = v.foldByDefault !== flipped.has(f);
    if (v.reason && v.reason !== 'generated' && v.reason !== 'huge') {
      rows.push({ type: 'note', key: `f${f}n`, file: f, reason: v.reason });
    }
    if (folded) {
      if (v.file.hunks.length > 0) rows.push({ type: 'note', key: `f${f}z`, file: f, reason: 'folded' });
      continue;
    }
    v.file.hunks.forEach((hunk, h) => {
      rows.push({ type: 'hunk', key: `f${f}h${h}`, file: f, header: hunk.header });
      const cells = pairRuns(hunk.lines);
      if (layout === 'unified') {
        cells.forEach((cell, i) => {
          rows.push({ type: 'line', key: `f${f}h${h}l${i}`, file: f, cell });
          commentAfter(f, `f${f}h${h}l${i}`, cell);
        });
      } else {
        splitRows(cells).forEach(([left, right], i) => {
          rows.push({ type: 'pair', key: `f${f}h${h}p${i}`, file: f, left, right });
          commentAfter(f, `f${f}h${h}p${i}`, right, left);
        });
      }
    });
  }
  return rows;
}

const newSideCache = new WeakMap<FileView, Set<string>>();
/** Anchors of a file's added and context lines. */
function newSide(view: FileView): Set<string> {
  let set = newSideCache.get(view);
  if (!set) {
    set = new Set(view.file.hunks.flatMap((h) => h.lines.filter((l) => l.kind !== 'del').map((l) => lineAnchor(view.file.path, l))));
    newSideCache.set(view, set);
  }
  return set;
}

/** Each line with its partner: the i-th line of a removed run pairs with the
 *  i-th line of the added run right after it. */
export function pairRuns(lines: DiffLine[]): Cell[] {
  const cells: Cell[] = lines.map((line) => ({ line, partner: null }));
  let i = 0;
  while (i < lines.length) {
    if (lines[i].kind !== 'del') { i++; continue; }
    const delStart = i;
    while (i < lines.length && lines[i].kind === 'del') i++;
    const addStart = i;
    while (i < lines.length && lines[i].kind === 'add') i++;
    const n = Math.min(addStart - delStart, i - addStart);
    for (let k = 0; k < n; k++) {
      cells[delStart + k].partner = lines[addStart + k];
      cells[addStart + k].partner = lines[delStart + k];
    }
  }
  return cells;
}

/** Side-by-side: context on both sides; a removed run beside its added run. */
function splitRows(cells: Cell[]): Array<[Cell | null, Cell | null]> {
  const out: Array<[Cell | null, Cell | null]> = [];
  let i = 0;
  while (i < cells.length) {
    const kind = cells[i].line.kind;
    if (kind === 'context') { out.push([cells[i], cells[i]]); i++; continue; }
    const dels: Cell[] = [];
    const adds: Cell[] = [];
    while (i < cells.length && cells[i].line.kind === 'del') dels.push(cells[i++]);
    while (i < cells.length && cells[i].line.kind === 'add') adds.push(cells[i++]);
    for (let k = 0; k < Math.max(dels.length, adds.length); k++) out.push([dels[k] ?? null, adds[k] ?? null]);
  }
  return out;
}

export interface Segment { text: string; changed: boolean }

/** Longer lines are shown without word highlighting: comparing them costs more than it helps. */
export const WORD_DIFF_MAX = 400;
const wordCache = new WeakMap<DiffLine, Segment[]>();

/** The line split into unchanged and changed parts relative to its partner
 *  (computed on demand, when a row is drawn, and remembered). */
export function wordSegments(cell: Cell): Segment[] {
  const { line, partner } = cell;
  if (!partner || line.text.length > WORD_DIFF_MAX || partner.text.length > WORD_DIFF_MAX) return [{ text: line.text, changed: false }];
  const cached = wordCache.get(line);
  if (cached) return cached;
  const [oldText, newText] = line.kind === 'del' ? [line.text, partner.text] : [partner.text, line.text];
  const segments: Segment[] = [];
  for (const part of diffWordsWithSpace(oldText, newText)) {
    if (line.kind === 'del' ? part.added : part.removed) continue;
    segments.push({ text: part.value, changed: line.kind === 'del' ? !!part.removed : !!part.added });
  }
  wordCache.set(line, segments);
  return segments;
}

/** The annotation anchor of a line: the new-side number, or the old one for a removed line. */
export function lineAnchor(path: string, line: DiffLine): string {
  return `line:${path}:${line.kind === 'del' ? line.oldNo : line.newNo}`;
}

export function cardAnchor(path: string): string {
  return `card:${path}`;
}
