// Commanders on disk (CMDR-DIR-n): `<dataDir>/commanders/<id>/` holds commander.json,
// CLAUDE.md, spawned and whatever the commander writes; its output log lives apart,
// in `<dataDir>/commander-logs/<id>.log`, so the directory stays the commander's own.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { COMMANDER_ID_PATTERN, CommanderRecord } from '../../protocol/commander';
import { CommandrError } from '../../protocol/wire/errors';
import { ensurePrivateDir, writePrivateFile } from '../devices/files';
import { readPlainText } from '../../bus/plain-file';

export const RECORD_FILE = 'commander.json';
export const DOC_FILE = 'CLAUDE.md';
export const SPAWNED_FILE = 'spawned';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A fresh platform-owned id: `c-` + 12 random lowercase alnum (CMDR-ID-1). */
export function newCommanderId(): string {
  const bytes = crypto.randomBytes(12);
  let id = 'c-';
  for (const b of bytes) id += ALPHABET[b % ALPHABET.length];
  return id;
}

/** Largest CLAUDE.md the relay reads (Claude Code itself warns past 40 k characters). */
export const DOC_MAX_BYTES = 1024 * 1024;

function lstatOrNull(file: string): fs.Stats | null {
  try {
    return fs.lstatSync(file);
  } catch {
    return null;
  }
}

export function assertCommanderId(id: string): void {
  if (!COMMANDER_ID_PATTERN.test(id)) throw new CommandrError('E_BAD_ID', `commander id ${JSON.stringify(id)} must be c-<lowercase alnum>`);
}

export class CommanderStore {
  readonly root: string;
  readonly logs: string;

  constructor(readonly dataDir: string) {
    this.root = path.join(dataDir, 'commanders');
    this.logs = path.join(dataDir, 'commander-logs');
    ensurePrivateDir(this.root);
    ensurePrivateDir(this.logs);
  }

  dir(id: string): string {
    assertCommanderId(id);
    return path.join(this.root, id);
  }

  logFile(id: string): string {
    assertCommanderId(id);
    return path.join(this.logs, `${id}.log`);
  }

  /** Creates the directory exclusively: two commanders never share one (CMDR-DIR-2). */
  createDir(id: string): string {
    const dir = this.dir(id);
    try {
      fs.mkdirSync(dir, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new CommandrError('E_CONFLICT', `commander directory ${dir} already exists`);
      throw error;
    }
    return dir;
  }

  writeRecord(record: CommanderRecord): void {
    writePrivateFile(path.join(this.dir(record.id), RECORD_FILE), JSON.stringify(CommanderRecord.parse(record), null, 2) + '\n');
  }

  /**
   * The commander's CLAUDE.md, or null when it is missing or not its own (CMDR-DIR-3): the directory
   * is the agent's, so a symlink (to the approval key, say), a FIFO (whose open would block the
   * relay) or a file past DOC_MAX_BYTES is never read.
   */
  readDoc(id: string): string | null {
    return readPlainText(path.join(this.dir(id), DOC_FILE), DOC_MAX_BYTES, { followLinks: false }) ?? null;
  }

  writeDoc(id: string, text: string): void {
    writePrivateFile(path.join(this.dir(id), DOC_FILE), text);
  }

  /** Appends to `spawned` only as a regular file of the directory's own: a link the agent put there is replaced, never followed (CMDR-DIR-3). */
  appendSpawned(id: string, session: string): void {
    const file = path.join(this.dir(id), SPAWNED_FILE);
    const st = lstatOrNull(file);
    if (st !== null && !st.isFile()) {
      if (st.isDirectory()) return; // the agent's own directory by that name: nothing to record into
      fs.rmSync(file, { force: true });
    }
    let fd: number;
    try {
      fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK, 0o600);
    } catch {
      return; // swapped for a link or a FIFO since: the record in commander.json still names the session
    }
    try {
      if (fs.fstatSync(fd).isFile()) fs.writeSync(fd, `${session}\n`);
    } finally {
      fs.closeSync(fd);
    }
  }

  /** Every valid record on disk; directories without a readable record are skipped. */
  loadAll(): { records: CommanderRecord[]; skipped: string[] } {
    const records: CommanderRecord[] = [];
    const skipped: string[] = [];
    for (const name of fs.readdirSync(this.root).sort()) {
      if (!COMMANDER_ID_PATTERN.test(name)) continue;
      try {
        const parsed = CommanderRecord.safeParse(JSON.parse(fs.readFileSync(path.join(this.root, name, RECORD_FILE), 'utf8')));
        if (parsed.success && parsed.data.id === name) records.push(parsed.data);
        else skipped.push(name);
      } catch {
        skipped.push(name);
      }
    }
    return { records, skipped };
  }

  /** Deleting a commander is deleting its directory and its log (CMDR-DEL-1). */
  remove(id: string): void {
    fs.rmSync(this.dir(id), { recursive: true, force: true });
    fs.rmSync(this.logFile(id), { force: true });
    fs.rmSync(this.pidFile(id), { force: true });
  }

  /** The pid of a turn in flight, kept beside the log so a restarted relay can stop an orphan. */
  pidFile(id: string): string {
    return path.join(this.logs, `${id}.pid`);
  }
}
