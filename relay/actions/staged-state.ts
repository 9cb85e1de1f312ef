// What an approval binds — the staged digest, the base commit and the index tree
// (APPROVE-1, APPROVAL-4..6) — read from ONE copy of the worktree's index, so the
// three describe the same staged change by construction: `git diff --cached` and
// `git write-tree` run side by side on that copy (GIT_INDEX_FILE, as in the gate's
// hook), and the base is read from the ref files before and after (it must not
// move). Two git processes at once instead of four or five one after another, and
// the agent's own index is never rewritten by the relay (write-tree writes the copy).
// A read is reused for the same index bytes, HEAD and git settings files, and a
// shown diff reads ahead, so the approve that follows it runs no git process.
// Anything unusual (no index file, reftable refs) falls back to asking git in turn.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gitBytes, stagedDigest } from '../../bus/digest';
import { headOf, indexTree, NULL_OID } from '../../bus/diff';
import { copyPlainFile, isMissing, readPlainFile, readPlainText } from '../../bus/plain-file';
import { CommandrError } from '../../protocol/wire/errors';

/** `tree` is git's error when write-tree failed (e.g. unmerged paths): the caller reports it only for the digest it wanted. */
export interface StagedState { digest: string; base: string; tree: string | Error }

const OID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
/** `.git`, `HEAD`, `commondir`, a loose ref: a few bytes each. */
const SMALL = 64 * 1024;
/** Past this git is asked instead (the ref files are then read by git, not here). */
const PACKED_REFS_BYTES = 64 * 1024 * 1024;

/** The worktree's git dir (`.git` itself, or the `gitdir:` a linked worktree's `.git` file names), if it can be read. */
export function gitDirOf(worktree: string): string | undefined {
  const dotGit = path.join(worktree, '.git');
  try {
    if (fs.statSync(dotGit).isDirectory()) return dotGit;
    // The worktree is the agent's: never wait on a FIFO there (GITREAD-1).
    const line = /^gitdir: (.+)$/m.exec(readPlainText(dotGit, SMALL) ?? '')?.[1]?.trim();
    return line ? path.resolve(worktree, line) : undefined;
  } catch {
    return undefined;
  }
}

/** The dir holding shared refs (`commondir` of a linked worktree's git dir, else the git dir). */
export function commonDirOf(gitDir: string): string {
  try {
    const rel = readPlainText(path.join(gitDir, 'commondir'), SMALL)?.trim();
    return rel === undefined ? gitDir : path.resolve(gitDir, rel);
  } catch {
    return gitDir;
  }
}

/** The worktree's HEAD as its symbolic ref (`refs/heads/x`) or undefined when detached or unreadable. */
export function headRefOf(gitDir: string): string | undefined {
  try {
    return /^ref: (\S+)\s*$/.exec(readPlainText(path.join(gitDir, 'HEAD'), SMALL) ?? '')?.[1];
  } catch {
    return undefined;
  }
}

/**
 * HEAD's commit read from the ref files (loose ref, then packed-refs; NULL_OID on an
 * unborn branch, as `headOf`), or undefined when git must be asked (reftable, a
 * symbolic ref to a symbolic ref, anything unreadable).
 */
export function headFromFiles(gitDir: string): string | undefined {
  const head = readPlainText(path.join(gitDir, 'HEAD'), SMALL)?.trim();
  if (head === undefined) return undefined;
  if (OID.test(head)) return head;
  // Branches only (they live in the common dir); any other symbolic HEAD is git's to resolve.
  const ref = /^ref: (refs\/heads\/\S+)$/.exec(head)?.[1];
  if (!ref || ref.split('/').some((part) => part === '..' || part === '.' || part === '')) return undefined;
  const common = commonDirOf(gitDir);
  if (fs.existsSync(path.join(common, 'reftable'))) return undefined;
  const looseFile = path.join(common, ref);
  const loose = readPlainText(looseFile, SMALL)?.trim();
  if (loose !== undefined) return OID.test(loose) ? loose : undefined;
  if (!isMissing(looseFile)) return undefined;
  const packedFile = path.join(common, 'packed-refs');
  const packed = readPlainText(packedFile, PACKED_REFS_BYTES);
  if (packed === undefined) return isMissing(packedFile) ? NULL_OID : undefined;
  for (const line of packed.split('\n')) {
    const [oid, name] = line.split(' ');
    if (name === ref && oid && OID.test(oid)) return oid;
  }
  return NULL_OID;
}

let scratch: string | undefined;
/** A private dir (0700) for index copies, made once per process. */
function scratchDir(): string {
  if (!scratch || !fs.existsSync(scratch)) scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'commandr-index-'));
  return scratch;
}

/** Indexes bigger than this are copied by the kernel and not hashed for reuse. */
const HASHED_INDEX_BYTES = 16 << 20;
const KNOWN_KEEP = 1000;
/**
 * Earlier reads per worktree, reused only for the very same index bytes, HEAD and
 * git settings files (the staged digest depends on all three; the tree on the bytes alone).
 */
const known = new Map<string, { key: string; state: Promise<StagedState> }>();

/** What the staged digest can depend on besides the index and HEAD, as cheap stats: config and attribute files. */
function settingsStamp(gitDir: string, worktree: string): string {
  const common = commonDirOf(gitDir);
  const home = process.env.HOME ?? os.homedir();
  const xdg = process.env.XDG_CONFIG_HOME || path.join(home, '.config');
  const files = [
    path.join(common, 'config'), path.join(gitDir, 'config.worktree'), path.join(common, 'info', 'attributes'), path.join(worktree, '.gitattributes'),
    path.join(home, '.gitconfig'), path.join(xdg, 'git', 'config'), path.join(xdg, 'git', 'attributes'), '/etc/gitconfig',
  ];
  return files.map((f) => {
    try {
      const st = fs.statSync(f);
      return `${st.ino}:${st.size}:${st.mtimeMs}`;
    } catch {
      return '-';
    }
  }).join(',');
}

/** digest, base and tree of the worktree's staged change, all of one index (see the file's head). */
export async function stagedState(worktree: string): Promise<StagedState> {
  const gitDir = gitDirOf(worktree);
  const index = gitDir && path.join(gitDir, 'index');
  const before = gitDir && headFromFiles(gitDir);
  if (!gitDir || !index || !before || process.env.GIT_INDEX_FILE) return inTurn(worktree);
  let bytes: Buffer | undefined;
  try {
    // One read of the index as git last renamed it into place: a later `git add` replaces the file, not these bytes.
    // Only a plain file is read or copied: a FIFO there would stop the relay (GITREAD-1).
    const stat = fs.statSync(index);
    if (!stat.isFile()) return inTurn(worktree);
    if (stat.size <= HASHED_INDEX_BYTES) bytes = readPlainFile(index, HASHED_INDEX_BYTES);
    if (stat.size <= HASHED_INDEX_BYTES && bytes === undefined) return inTurn(worktree);
  } catch {
    return inTurn(worktree);
  }
  const key = bytes && `${crypto.createHash('sha256').update(bytes).digest('hex')} ${before} ${settingsStamp(gitDir, worktree)}`;
  const hit = key ? known.get(worktree) : undefined;
  if (hit && hit.key === key) return hit.state;
  const state = fromCopy(worktree, gitDir, index, before, bytes);
  if (key) {
    known.delete(worktree);
    known.set(worktree, { key, state });
    if (known.size > KNOWN_KEEP) known.delete(known.keys().next().value!);
    state.catch(() => known.get(worktree)?.state === state && known.delete(worktree));
  }
  return state;
}

/** Reads the staged state ahead (after a diff was shown), so the approve that usually follows runs no git process. */
export function warmStagedState(worktree: string): void {
  void stagedState(worktree).catch(() => undefined);
}

async function fromCopy(worktree: string, gitDir: string, index: string, before: string, bytes: Buffer | undefined): Promise<StagedState> {
  const copy = path.join(scratchDir(), `index-${crypto.randomBytes(8).toString('hex')}`);
  try {
    if (bytes) fs.writeFileSync(copy, bytes, { mode: 0o600 });
    else if (!copyPlainFile(index, copy)) return inTurn(worktree);
  } catch {
    return inTurn(worktree);
  }
  try {
    const env = { ...process.env, GIT_INDEX_FILE: copy };
    const [digest, tree] = await Promise.all([
      stagedDigest(worktree, env).then((d) => d.digest),
      gitBytes(worktree, ['write-tree'], undefined, env).then((out) => out.toString('utf8').trim(), (error: unknown) => error as Error),
    ]);
    if (headFromFiles(gitDir) !== before) throw moved(worktree);
    return { digest, base: before, tree };
  } finally {
    fs.rmSync(copy, { force: true });
    fs.rmSync(`${copy}.lock`, { force: true });
  }
}

/** The way without a copy: digest, then base and tree, then the digest again (all three must describe one index). */
async function inTurn(worktree: string): Promise<StagedState> {
  const digest = (await stagedDigest(worktree)).digest;
  const [base, tree] = [await headOf(worktree), await indexTree(worktree).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))))];
  if ((await stagedDigest(worktree)).digest !== digest || await headOf(worktree) !== base) throw moved(worktree);
  return { digest, base, tree };
}

function moved(worktree: string): CommandrError {
  return new CommandrError('E_STALE_DIGEST', `the staged change in ${path.basename(worktree)} moved while it was being approved; review it again`);
}
