// Commanders on disk (CMDR-DIR-n): `<dataDir>/commanders/<id>/` holds commander.json,
// CLAUDE.md, spawned and whatever the commander writes; its output log lives apart,
// in `<dataDir>/commander-logs/<id>.log`, so the directory stays the commander's own.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { COMMANDER_ID_PATTERN, CommanderRecord } from '../../protocol/commander';
import { CommandrError } from '../../protocol/wire/errors';
import { ensurePrivateDir, writePrivateFile } from '../devices/files';

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

  readDoc(id: string): string {
    try {
      return fs.readFileSync(path.join(this.dir(id), DOC_FILE), 'utf8');
    } catch {
      return '';
    }
  }

  writeDoc(id: string, text: string): void {
    writePrivateFile(path.join(this.dir(id), DOC_FILE), text);
  }

  appendSpawned(id: string, session: string): void {
    fs.appendFileSync(path.join(this.dir(id), SPAWNED_FILE), `${session}\n`, { mode: 0o600 });
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
