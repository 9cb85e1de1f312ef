// The permission audit log (PERM-8): <dataDir>/audit.jsonl, one JSON line per
// request and per decision (who, when, what, why). Relay-private: never on a bus.
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface AuditEntry {
  kind: 'permission.request' | 'permission.decision';
  request: string;
  [field: string]: unknown;
}

export function auditFile(dataDir: string): string {
  return path.join(dataDir, 'audit.jsonl');
}

/** Appends one line (a single write, so concurrent appends never interleave). */
export function appendAudit(dataDir: string, entry: AuditEntry, at = new Date()): void {
  fs.appendFileSync(auditFile(dataDir), `${JSON.stringify({ at: at.toISOString(), ...entry })}\n`, { mode: 0o600 });
}

export function readAudit(dataDir: string): Array<AuditEntry & { at: string }> {
  let text: string;
  try {
    text = fs.readFileSync(auditFile(dataDir), 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as AuditEntry & { at: string });
}
