// The hook spool (ORDER-1, HOOK-n): reporting hooks are tiny sh scripts that append one record
// per hook call to `$COMMANDR_HOME/hook-state/spool/` and return; one background poster per
// commandr home reads the records in the order they were made and posts their live events.
// A record file is `<µs>.<pid>` (written under a dot name, then renamed: never seen half
// written): NUL-terminated `KEY=value` fields, an empty field, then the vendor's payload.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { processAlive } from '../../protocol/relay-info';
import { type Env, commandrHome } from './env';

/** The env keys a record carries (the poster serves every session of this home). */
/** COMMANDR_HOOK_TOKEN: a job's scoped credential goes with its own records, to its own relay (HOOKCRED-4). */
export const RECORD_KEYS = ['HOOK', 'AT', 'CLAUDE_PROJECT_DIR', 'AGENTS_TASK_ID', 'COMMANDR_URL', 'COMMANDR_AGENT_ID', 'COMMANDR_TASK', 'COMMANDR_HOOK_TOKEN', 'COMMANDR_SANDBOX'] as const;

export const spoolDir = (env: Env): string => path.join(commandrHome(env), 'hook-state', 'spool');
/** Live events a node hook built and queued (LIVE-DELIVER-1): records of `HOOK=live`, drained by whichever hook holds the queue. */
export const outboxDir = (env: Env): string => path.join(commandrHome(env), 'hook-state', 'outbox');

/**
 * Appends one record to `dir` in the spool's format, named by `at` (µs) and this pid, written
 * under a dot name and renamed (never seen half written). Throws when it cannot be written.
 */
export function writeRecord(dir: string, hook: string, env: Env, payload: unknown, at: number): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const fields = [`HOOK=${hook}`, ...RECORD_KEYS.filter((k) => k !== 'HOOK' && k !== 'AT').map((k) => `${k}=${env[k] ?? ''}`)];
  const bytes = Buffer.concat([Buffer.from(fields.map((f) => `${f}\0`).join('') + '\0', 'utf8'), Buffer.from(JSON.stringify(payload), 'utf8')]);
  for (let stamp = at; ; stamp++) {
    const name = `${stamp}.${process.pid}`;
    const final = path.join(dir, name);
    if (fs.existsSync(final)) continue; // two events of this process in one microsecond
    const temp = path.join(dir, `.${name}`);
    try {
      fs.writeFileSync(temp, bytes, { mode: 0o600 });
      fs.renameSync(temp, final);
    } catch (error) {
      fs.rmSync(temp, { force: true });
      throw error;
    }
    return final;
  }
}

const RECORD_NAME = /^(\d{1,16})\.(\d{1,10})$/;

export interface SpoolRecord {
  file: string;
  /** Microseconds since the epoch when the hook was invoked: the event's `seq`. */
  at: number;
  hook: string;
  env: Env;
  payload: Record<string, unknown> | undefined;
}

/** Complete record files, oldest first (by the time in their name, then pid). */
export function listRecords(dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const keyed = names.flatMap((name) => {
    const m = RECORD_NAME.exec(name);
    return m ? [{ name, at: Number(m[1]), pid: Number(m[2]) }] : [];
  });
  keyed.sort((a, b) => a.at - b.at || a.pid - b.pid);
  return keyed.map((k) => path.join(dir, k.name));
}

/**
 * The `KEY=value` fields (only `keys`) and where the payload starts, in the spool's record
 * format; also the body the permission fast path posts (FAST-1).
 */
export function readFields(bytes: Buffer, keys: readonly string[]): { env: Env; payloadStart: number } {
  const env: Env = {};
  let start = 0;
  let payloadStart = bytes.length;
  for (;;) {
    const end = bytes.indexOf(0, start);
    if (end === -1) break;
    if (end === start) { payloadStart = end + 1; break; }
    const field = bytes.toString('utf8', start, end);
    const eq = field.indexOf('=');
    const key = eq > 0 ? field.slice(0, eq) : '';
    if (keys.includes(key)) env[key] = field.slice(eq + 1);
    start = end + 1;
  }
  return { env, payloadStart };
}

/** Parses one record; fields other than RECORD_KEYS are ignored, a payload that is not an object is undefined. */
export function parseRecord(file: string, bytes: Buffer): SpoolRecord {
  const { env, payloadStart } = readFields(bytes, RECORD_KEYS);
  let payload: Record<string, unknown> | undefined;
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8', payloadStart));
    payload = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    payload = undefined;
  }
  const fromName = Number(RECORD_NAME.exec(path.basename(file))?.[1] ?? NaN);
  const at = Number.isSafeInteger(fromName) ? fromName : Math.floor(Date.now() * 1000);
  const hook = env.HOOK ?? '';
  delete env.HOOK;
  delete env.AT;
  // An empty value means "unset" in the hook's environment.
  for (const key of Object.keys(env)) if (env[key] === '') delete env[key];
  return { file, at, hook, env, payload };
}

const pidFile = (dir: string): string => path.join(dir, 'poster.pid');



/** Becomes the one poster of `dir`; false when a live poster holds it. */
export function acquirePoster(dir: string): boolean {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(pidFile(dir), `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return false;
    }
    const holder = Number.parseInt(readOr(pidFile(dir), ''), 10);
    if (Number.isInteger(holder) && holder !== process.pid && processAlive(holder)) return false;
    fs.rmSync(pidFile(dir), { force: true }); // a poster that died without releasing
  }
  return false;
}

export function releasePoster(dir: string): void {
  if (Number.parseInt(readOr(pidFile(dir), ''), 10) === process.pid) fs.rmSync(pidFile(dir), { force: true });
}

function readOr(file: string, fallback: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}
