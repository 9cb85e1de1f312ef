// Whose a task's notes are (ANNOT-6). annotate-write only ever creates untracked files in real
// directories of this machine's bus, so a note file that git tracks came with the repository,
// and one reached through a symbolic link (which git would not look through) came from elsewhere:
// neither is the person's. Such notes are held back — never injected, never consumed — and shown
// to the phone as from the repository. Deciding costs one hardened `git ls-files`, none when the
// bus has no work tree of its own or there is no note to decide about.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { StoredAnnotation } from './annotations';
import { git, gitSync } from './git/run';

/** `tracked`: git tracks it; `link`: a symbolic link (or not a file) on its path; `unchecked`: git could not tell. */
export type HeldReason = 'tracked' | 'link' | 'unchecked';
export interface HeldNote extends StoredAnnotation { why: HeldReason; detail?: string }
export interface SortedNotes {
  /** Notes the person left on this machine, in the order given. */
  own: StoredAnnotation[];
  held: HeldNote[];
}

const GIT_OPTIONS = { timeoutMs: 5000, maxBytes: 4 * 1024 * 1024 };

/** The notes directory of `task` (all tasks' when undefined) relative to the work tree holding the bus. */
const notesRel = (bus: string, task?: string): string => `${path.basename(bus)}/annotations${task === undefined ? '' : `/${task}`}`;

function lsFiles(bus: string, task: string | undefined): { cwd: string; args: string[] } | undefined {
  const top = path.dirname(bus);
  // No `.git` beside the bus (a bare repository's worktrees): no index covers it, nothing is tracked there.
  if (!fs.existsSync(path.join(top, '.git'))) return undefined;
  // `ls-files` reads only the index (no object, no filter); the pathspec also matches the task
  // directory itself, tracked as a symbolic link or a submodule. icase: a case-insensitive disk
  // holds `t-1/` where git tracks `T-1/`; holding back too much is the safe side.
  const args = ['--no-optional-locks', 'ls-files', '-z', '--', `:(top,icase,literal)${notesRel(bus, task)}`];
  return { cwd: top, args };
}

const trackedSet = (out: string): Set<string> => new Set(out.split('\0').filter(Boolean).map((p) => p.toLowerCase()));

/** The first of the bus, its annotations/ and the task's directory that is a symbolic link. */
function linkOnPath(bus: string, task: string): string | undefined {
  for (const dir of [bus, path.join(bus, 'annotations'), path.join(bus, 'annotations', task)]) {
    try {
      if (fs.lstatSync(dir).isSymbolicLink()) return dir;
    } catch { /* missing: nothing below it to read */ }
  }
  return undefined;
}

function isPlainFile(file: string): boolean {
  try {
    return fs.lstatSync(file).isFile();
  } catch {
    return false;
  }
}

function classify(bus: string, task: string, notes: StoredAnnotation[], tracked: Set<string> | Error): SortedNotes {
  const sorted: SortedNotes = { own: [], held: [] };
  const link = linkOnPath(bus, task);
  for (const note of notes) {
    // Tracked first: "it came with the repository" is the clearest thing to tell the person.
    if (!(tracked instanceof Error) && isTrackedNote(bus, task, note.file, tracked)) sorted.held.push({ ...note, why: 'tracked' });
    else if (link) sorted.held.push({ ...note, why: 'link', detail: link });
    else if (!isPlainFile(note.file)) sorted.held.push({ ...note, why: 'link', detail: note.file });
    else if (tracked instanceof Error) sorted.held.push({ ...note, why: 'unchecked', detail: tracked.message });
    else sorted.own.push(note);
  }
  return sorted;
}

const gitError = (error: unknown): Error => {
  const stderr = (error as { stderr?: unknown }).stderr;
  const first = typeof stderr === 'string' ? stderr.trim().split('\n')[0] : '';
  return new Error(first || (error instanceof Error ? error.message : String(error)));
};

/** `notes` (all of `task`'s, from listAnnotations) split into the person's own and those held back. */
export function sortNotes(bus: string, task: string, notes: StoredAnnotation[]): SortedNotes {
  if (notes.length === 0) return { own: [], held: [] };
  const run = lsFiles(bus, task);
  let tracked: Set<string> | Error = new Set();
  if (run) {
    try {
      tracked = trackedSet(gitSync(run.args, { cwd: run.cwd, top: run.cwd, ...GIT_OPTIONS }).toString('utf8'));
    } catch (error) {
      tracked = gitError(error);
    }
  }
  return classify(bus, task, notes, tracked);
}

/**
 * The note files git tracks anywhere under the bus's `annotations/` (lower-cased, relative to the work
 * tree), for the relay's unread counts; an Error when git could not answer. One hardened `git ls-files`.
 */
export async function trackedNoteFiles(bus: string): Promise<Set<string> | Error> {
  const run = lsFiles(bus, undefined);
  if (!run) return new Set();
  return git(run.args, { cwd: run.cwd, top: run.cwd, ...GIT_OPTIONS }).then((out) => trackedSet(out.toString('utf8')), gitError);
}

/** Whether git tracks the note `file` of `task`, or its task directory, by a set from trackedNoteFiles. */
export function isTrackedNote(bus: string, task: string, file: string, tracked: Set<string>): boolean {
  const dir = notesRel(bus, task).toLowerCase();
  return tracked.has(dir) || tracked.has(`${dir}/${path.basename(file).toLowerCase()}`);
}

/** sortNotes without blocking, for the relay. */
export async function sortNotesAsync(bus: string, task: string, notes: StoredAnnotation[]): Promise<SortedNotes> {
  if (notes.length === 0) return { own: [], held: [] };
  const run = lsFiles(bus, task);
  const tracked = !run ? new Set<string>() : await git(run.args, { cwd: run.cwd, top: run.cwd, ...GIT_OPTIONS }).then((out) => trackedSet(out.toString('utf8')), gitError);
  return classify(bus, task, notes, tracked);
}

const WHY: Record<HeldReason, string> = {
  tracked: 'came with the repository (git tracks it)',
  link: 'is reached through a symbolic link',
  unchecked: 'could not be checked with git',
};

/** The one warning for the person: which note files were not passed on, and why. */
export function heldWarning(bus: string, task: string, held: HeldNote[]): string {
  const top = path.dirname(bus);
  const shown = held.slice(0, 10).map((h) => `  ${path.relative(top, h.file)} ${WHY[h.why]}${h.why === 'tracked' ? '' : `: ${h.detail}`}`);
  if (held.length > shown.length) shown.push(`  … and ${held.length - shown.length} more`);
  const fix = held.some((h) => h.why === 'tracked')
    ? `\nTo remove the repository's notes: git rm -r ${notesRel(bus, task)} (\`commandr doctor\` checks the whole bus).`
    : '';
  const one = held.length === 1;
  return `commandr: ${held.length} note${one ? ' was' : 's were'} not given to the agent on task ${task}: not written by you on this machine.\n${shown.join('\n')}${fix}`;
}
