// Permission requests on disk (PERM-5): one JSON file per request under
// <dataDir>/permissions/, replaced atomically, so a pending request outlives a
// relay restart while its hook is still waiting; plus the allow-for-session grants.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as z from 'zod/mini';
import { PermissionAnswer } from '../../protocol/wire/http';
import { PermissionRequestView } from '../../protocol/wire/views';
import { ensurePrivateDir, readJsonFile, writePrivateFile } from '../devices/files';

/** Decided requests are kept this long (so a late retry still gets its answer), then pruned. */
export const KEEP_DECIDED_MS = 24 * 60 * 60 * 1000;

export const PermissionRecord = z.object({
  view: PermissionRequestView,
  key: z.string(),
  /** What allow-for-session remembers (POLPATH-7): the exact command, file or input; null when the ask carried none. */
  exact: z.optional(z.nullable(z.string())),
  /** A prefix an older hook sent; kept for the record, never matched. */
  prefix: z.optional(z.nullable(z.string())),
  answer: z.nullable(PermissionAnswer),
});
export type PermissionRecord = z.infer<typeof PermissionRecord>;

/**
 * One allow-for-session grant (POLPATH-7): the session, the tool and the exact call. A grant
 * stored before POLPATH-7 has only `prefix`; it now matches only a call whose exact text is
 * that prefix (`git push` allows bare `git push`, nothing longer), and a null prefix nothing.
 */
export const SessionGrant = z.object({
  session: z.string(), tool: z.string(), exact: z.optional(z.string()), prefix: z.optional(z.nullable(z.string())), at: z.string(), by: z.string(),
});
export type SessionGrant = z.infer<typeof SessionGrant>;
const Grants = z.array(SessionGrant);

/** The request id a hook's stable key maps to (the key itself never leaves the relay). */
export function requestIdFor(key: string): string {
  return `perm-${crypto.createHash('sha256').update(key).digest('hex').slice(0, 20)}`;
}

export class PermissionFiles {
  readonly dir: string;

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, 'permissions');
    ensurePrivateDir(this.dir);
  }

  save(record: PermissionRecord): void {
    writePrivateFile(path.join(this.dir, `${record.view.id}.json`), `${JSON.stringify(record)}\n`);
  }

  /** Every readable record; unreadable files and decided ones past KEEP_DECIDED_MS are removed. */
  loadAll(now = Date.now()): PermissionRecord[] {
    const out: PermissionRecord[] = [];
    for (const name of fs.readdirSync(this.dir)) {
      if (!/^perm-[0-9a-f]{20}\.json$/.test(name)) continue;
      const file = path.join(this.dir, name);
      const parsed = PermissionRecord.safeParse(safeRead(file));
      const stale = parsed.success && parsed.data.view.status !== 'pending' && now - Date.parse(parsed.data.view.expiresAt) > KEEP_DECIDED_MS;
      if (!parsed.success || stale) fs.rmSync(file, { force: true });
      else out.push(parsed.data);
    }
    return out;
  }

  loadGrants(): SessionGrant[] {
    const parsed = Grants.safeParse(safeRead(path.join(this.dir, 'session-grants.json')));
    return parsed.success ? parsed.data : [];
  }

  saveGrants(grants: SessionGrant[]): void {
    writePrivateFile(path.join(this.dir, 'session-grants.json'), `${JSON.stringify(grants)}\n`);
  }
}

function safeRead(file: string): unknown {
  try {
    return readJsonFile(file);
  } catch {
    return undefined;
  }
}
