// Claude Code's sandbox settings that `commandr init --sandbox` writes (GUARD-10): the
// agent's shell runs sandboxed, and neither its tools nor its sandboxed commands may
// read or change Commandr's data dir (the relay's credentials and keys) or the
// approvals. Written to `.claude/settings.local.json` (per machine, not committed),
// merged: other settings and rules are kept, ours are added once.
import * as fs from 'node:fs';
import * as path from 'node:path';

export const SANDBOX_DENY = ['Read(~/.commandr/**)', 'Edit(~/.commandr/**)', 'Read(./.agents/approvals/**)', 'Edit(./.agents/approvals/**)', 'Edit(./.git/hooks/**)'];

export class SandboxError extends Error {
  readonly code = 'E_BAD_SETTINGS';
}

/** Merges the sandbox settings into `<repo>/.claude/settings.local.json`; returns the file when it changed. */
export function writeSandboxSettings(repo: string): string | undefined {
  const file = path.join(repo, '.claude', 'settings.local.json');
  let settings: Record<string, any> = {};
  if (fs.existsSync(file)) {
    try {
      const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      settings = parsed as Record<string, any>;
    } catch (error) {
      throw new SandboxError(`${file} is not a JSON object (${(error as Error).message}); fix it and run init --sandbox again`);
    }
  }
  const before = JSON.stringify(settings);
  settings.sandbox = { ...(settings.sandbox ?? {}), enabled: true };
  const deny: string[] = Array.isArray(settings.permissions?.deny) ? settings.permissions.deny : [];
  settings.permissions = { ...(settings.permissions ?? {}), deny: [...deny, ...SANDBOX_DENY.filter((r) => !deny.includes(r))] };
  if (JSON.stringify(settings) === before) return undefined;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(`${file}.tmp`, `${JSON.stringify(settings, null, 2)}\n`);
  fs.renameSync(`${file}.tmp`, file);
  return file;
}
