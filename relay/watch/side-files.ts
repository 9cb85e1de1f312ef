// Council verdicts (`council/<id>.json`) and annotation counts (`annotations/<id>/`)
// per task, re-read only when a file's inode, mtime or size changed. A note that is not
// the person's (git tracks it, or it is a symbolic link: ANNOT-6) is not counted.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isTaskId } from '../../protocol/bus/ids';
import { ANNOTATION_FILE_PATTERN, Annotation } from '../../protocol/bus/annotation';
import { Verdict } from '../../protocol/bus/verdict';
import { isTrackedNote, trackedNoteFiles } from '../../bus/note-origin';
import { readPlainText } from '../../bus/plain-file';

export interface AnnotationCount { total: number; unconsumed: number }

const keyOf = (s: fs.Stats): string => `${s.ino}:${s.mtimeMs}:${s.size}`;

function names(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

function statOrNull(file: string, noFollow = false): fs.Stats | null {
  try {
    return noFollow ? fs.lstatSync(file) : fs.statSync(file);
  } catch {
    return null;
  }
}

/** A verdict or note's JSON: the stat above said "regular file", and it is read only if it still is (ANNOT-7: never a FIFO swapped in since). */
function readJson(file: string): unknown {
  try {
    return JSON.parse(readPlainText(file, 1024 * 1024) ?? '');
  } catch {
    return undefined;
  }
}

export class SideFiles {
  readonly verdicts = new Map<string, Verdict>();
  readonly annotations = new Map<string, AnnotationCount>();
  private readonly verdictKeys = new Map<string, string>();
  private readonly consumedByKey = new Map<string, boolean>();
  /** The note files git tracks (trackedNoteFiles), as of the last refreshTracked. */
  private tracked = new Set<string>();

  constructor(private readonly bus: string) {}

  /**
   * Asks git which note files it tracks (one hardened `git ls-files`), before a recount. When git
   * cannot answer the last answer stands: the count is what the Inbox shows, the hooks decide alone.
   */
  async refreshTracked(): Promise<void> {
    const tracked = await trackedNoteFiles(this.bus);
    if (!(tracked instanceof Error)) this.tracked = tracked;
  }

  /** Re-reads changed verdict files; returns the tasks whose verdict changed. */
  rescanVerdicts(): Set<string> {
    const dir = path.join(this.bus, 'council');
    const touched = new Set<string>();
    const present = new Set<string>();
    for (const name of names(dir)) {
      const task = name.endsWith('.json') ? name.slice(0, -5) : '';
      if (!isTaskId(task)) continue;
      const stat = statOrNull(path.join(dir, name));
      if (!stat?.isFile()) continue;
      present.add(task);
      if (this.verdictKeys.get(task) === keyOf(stat)) continue;
      this.verdictKeys.set(task, keyOf(stat));
      const checked = Verdict.safeParse(readJson(path.join(dir, name)));
      if (checked.success && checked.data.task === task) this.verdicts.set(task, checked.data);
      else this.verdicts.delete(task);
      touched.add(task);
    }
    for (const task of [...this.verdictKeys.keys()]) {
      if (present.has(task)) continue;
      this.verdictKeys.delete(task);
      this.verdicts.delete(task);
      touched.add(task);
    }
    return touched;
  }

  /** Recounts the annotations of `tasks` (every task dir when undefined); returns those that changed. */
  rescanAnnotations(tasks?: Iterable<string>): Set<string> {
    const root = path.join(this.bus, 'annotations');
    const list = tasks ? [...tasks] : [...new Set([...names(root), ...this.annotations.keys()])];
    const touched = new Set<string>();
    for (const task of list) {
      if (!isTaskId(task)) continue;
      const count = this.countOf(task, path.join(root, task));
      const before = this.annotations.get(task);
      if (before && before.total === count.total && before.unconsumed === count.unconsumed) continue;
      if (count.total === 0) this.annotations.delete(task);
      else this.annotations.set(task, count);
      if (before || count.total > 0) touched.add(task);
    }
    return touched;
  }

  private countOf(task: string, dir: string): AnnotationCount {
    const count = { total: 0, unconsumed: 0 };
    for (const name of names(dir)) {
      if (!ANNOTATION_FILE_PATTERN.test(name)) continue;
      const stat = statOrNull(path.join(dir, name), true);
      if (!stat?.isFile() || isTrackedNote(this.bus, task, name, this.tracked)) continue;
      const key = `${dir}/${name}:${keyOf(stat)}`;
      let consumed = this.consumedByKey.get(key);
      if (consumed === undefined) {
        const checked = Annotation.safeParse(readJson(path.join(dir, name)));
        if (!checked.success) continue;
        consumed = checked.data.consumed;
        this.consumedByKey.set(key, consumed);
      }
      count.total++;
      if (!consumed) count.unconsumed++;
    }
    return count;
  }
}
