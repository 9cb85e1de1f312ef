// Row building, folding, pairing and word segments (DIFFVIEW-4..7).
import { describe, expect, it } from 'vitest';
import type { FileStat } from '../../../protocol/bus/diff';
import { parseDiff } from './parse';
import { buildRows, cardAnchor, fileViews, FOLD_LINES, lineAnchor, pairRuns, wordSegments } from './view-model';

const PATCH = [
  'diff --git a/src/a.ts b/src/a.ts',
  '--- a/src/a.ts',
  '+++ b/src/a.ts',
  '@@ -1,4 +1,4 @@',
  ' keep',
  '-const total = 1;',
  '-const gone = 2;',
  '+const total = 10;',
  ' end',
  'diff --git a/package-lock.json b/package-lock.json',
  '--- a/package-lock.json',
  '+++ b/package-lock.json',
  '@@ -1 +1 @@',
  '-{"v":1}',
  '+{"v":2}',
  '',
].join('\n');

const stat = (path: string, extra: Partial<FileStat>): FileStat => ({
  path, status: 'modified', additions: 1, deletions: 1, binary: false, huge: false, generated: false,
  untracked: false, hunks_omitted: false, ...extra,
});

describe('view model', () => {
  it('DIFFVIEW-4: a removed run pairs line by line with the added run after it', () => {
    const cells = pairRuns(parseDiff(PATCH)[0].hunks[0].lines);
    expect(cells[1].partner?.text).toBe('const total = 10;');
    expect(cells[2].partner).toBeNull();
    expect(cells[3].partner?.text).toBe('const total = 1;');
    expect(cells[0].partner).toBeNull();
  });

  it('DIFFVIEW-4: word segments mark only the changed words of a paired line', () => {
    const cells = pairRuns(parseDiff(PATCH)[0].hunks[0].lines);
    const added = wordSegments(cells[3]);
    expect(added.map((s) => s.text).join('')).toBe('const total = 10;');
    expect(added.filter((s) => s.changed).map((s) => s.text)).toEqual(['10']);
    const removed = wordSegments(cells[1]);
    expect(removed.filter((s) => s.changed).map((s) => s.text)).toEqual(['1']);
    expect(wordSegments(cells[2])).toEqual([{ text: 'const gone = 2;', changed: false }]);
  });

  it('UX-10: a note on a line is a row right under that line, in both layouts; other anchors add nothing', () => {
    const views = fileViews(parseDiff(PATCH));
    const notes = new Map([['line:src/a.ts:2', [{ author: 'Pixel', body: 'why ten?', consumed: false }]], ['line:src/a.ts:99', [{ author: 'x', body: 'nowhere', consumed: true }]]]);
    const unified = buildRows(views, 'unified', new Set(), notes);
    const at = unified.findIndex((r) => r.type === 'comment');
    expect(unified.filter((r) => r.type === 'comment')).toHaveLength(1);
    const above = unified[at - 1]!;
    expect(above.type === 'line' && above.cell.line.text).toBe('const total = 10;');
    const split = buildRows(views, 'split', new Set(), notes);
    const before = split[split.findIndex((r) => r.type === 'comment') - 1]!;
    expect(before.type === 'pair' && before.right?.line.text).toBe('const total = 10;');
  });

  it('DIFFVIEW-5: unified rows are header, hunk and one row per line; split rows put - beside +', () => {
    const views = fileViews(parseDiff(PATCH));
    const unified = buildRows(views, 'unified');
    expect(unified.map((r) => r.type)).toEqual(['file', 'hunk', 'line', 'line', 'line', 'line', 'line', 'file', 'hunk', 'line', 'line']);
    const split = buildRows(views, 'split');
    const pairs = split.filter((r) => r.type === 'pair');
    expect(pairs).toHaveLength(5);
    const first = pairs[1];
    if (first.type !== 'pair') throw new Error('expected a pair');
    expect(first.left?.line.text).toBe('const total = 1;');
    expect(first.right?.line.text).toBe('const total = 10;');
    const second = pairs[2];
    if (second.type !== 'pair') throw new Error('expected a pair');
    expect(second.left?.line.text).toBe('const gone = 2;');
    expect(second.right).toBeNull();
    expect(new Set(split.map((r) => r.key)).size).toBe(split.length);
  });

  it('DIFFVIEW-6: generated and huge files are folded until opened; big files too', () => {
    const files = parseDiff(PATCH);
    const views = fileViews(files, [stat('package-lock.json', { generated: true })]);
    expect(views[1]).toMatchObject({ foldByDefault: true, reason: 'generated' });
    const rows = buildRows(views, 'unified');
    expect(rows.filter((r) => r.file === 1).map((r) => r.type)).toEqual(['file', 'note']);
    const opened = buildRows(views, 'unified', new Set([1]));
    expect(opened.filter((r) => r.file === 1 && r.type === 'line')).toHaveLength(2);
    const big = ['diff --git a/b.txt b/b.txt', '--- a/b.txt', '+++ b/b.txt', `@@ -0,0 +1,${FOLD_LINES + 1} @@`,
      ...Array.from({ length: FOLD_LINES + 1 }, (_, i) => `+${i}`)].join('\n');
    expect(fileViews(parseDiff(big))[0].foldByDefault).toBe(true);
  });

  it('DIFFVIEW-6: binary, omitted and mode-only files say so in a note row', () => {
    const patch = [
      'diff --git a/img.png b/img.png', 'Binary files a/img.png and b/img.png differ',
      'diff --git a/run.sh b/run.sh', 'old mode 100644', 'new mode 100755',
      'diff --git a/big.sql b/big.sql', '',
    ].join('\n');
    const views = fileViews(parseDiff(patch), [stat('big.sql', { hunks_omitted: true, huge: true })]);
    expect(views.map((v) => v.reason)).toEqual(['binary', 'mode-only', 'huge']);
    const notes = buildRows(views, 'unified').filter((r) => r.type === 'note').map((r) => (r.type === 'note' ? r.reason : ''));
    expect(notes).toEqual(['binary', 'mode-only']);
  });

  it('DIFFVIEW-7: anchors name the new-side line, or the old-side line of a removed line', () => {
    const lines = parseDiff(PATCH)[0].hunks[0].lines;
    expect(lineAnchor('src/a.ts', lines[1])).toBe('line:src/a.ts:2');
    expect(lineAnchor('src/a.ts', lines[3])).toBe('line:src/a.ts:2');
    expect(lineAnchor('src/a.ts', lines[4])).toBe('line:src/a.ts:3');
    expect(cardAnchor('src/a.ts')).toBe('card:src/a.ts');
  });
});
