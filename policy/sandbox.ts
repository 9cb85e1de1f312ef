// Claude Code's own sandbox, which `commandr init` turns on by default (SBXDEF-1): the agent's
// shell runs sandboxed, and neither its tools nor its sandboxed commands may read Commandr's data
// dir (the relay's keys and credentials) or change it, the approvals, git's hooks or git's config.
// `allowUnsandboxedCommands: false` takes away the agent's way of asking to run outside it.
// Written to `.claude/settings.local.json` (per machine, not committed), merged: other settings
// and rules are kept, ours are added once. Keys checked against Claude Code 2.1's settings schema.
import * as fs from 'node:fs';
import * as path from 'node:path';

export class SandboxError extends Error {
  readonly code = 'E_BAD_SETTINGS';
}

/** What `--no-sandbox` gives up, said where it is chosen (SBXDEF-2). */
export const NO_SANDBOX_COST = [
  'init: --no-sandbox: Claude Code sessions in this repo run their commands without a sandbox, so any command the agent runs',
  '  can read the relay\'s signing key and credentials in the data dir and forge an approval, rewrite .git/hooks or .git/config,',
  '  and write .agents/approvals. Turn it on with `commandr init --wire`, or run the relay as its own OS user (docs/relay-user.md).',
];

export interface SandboxPaths {
  /** Commandr's data dir, the actual `$COMMANDR_HOME`. */
  dataDir: string;
  /** The relay's public key, which the approval gate reads inside the sandbox on `git commit`. */
  publicKey: string;
}

/** Claude Code's permission rules name an absolute path with a leading `//`. */
const abs = (p: string): string => `/${path.resolve(p)}`;

/**
 * The deny rules: for the agent's tools and, merged by Claude Code, for its sandboxed commands.
 * Approvals stay readable: the gate reads them when the agent commits, and a token read gives nothing.
 */
export function sandboxDeny(paths: SandboxPaths): string[] {
  return [
    `Read(${abs(paths.dataDir)}/**)`, `Edit(${abs(paths.dataDir)}/**)`,
    'Edit(./.agents/approvals/**)', 'Edit(./.git/hooks/**)', 'Edit(./.git/config)',
  ];
}

/** `sandbox.filesystem`: the same paths spelled out for the sandboxed commands themselves. */
export function sandboxFilesystem(repo: string, paths: SandboxPaths): { denyRead: string[]; allowRead: string[]; denyWrite: string[] } {
  const root = path.resolve(repo);
  return {
    denyRead: [path.resolve(paths.dataDir)],
    allowRead: [path.resolve(paths.publicKey)],
    denyWrite: [path.resolve(paths.dataDir), path.join(root, '.agents', 'approvals'), path.join(root, '.git', 'hooks'), path.join(root, '.git', 'config')],
  };
}

const settingsFile = (repo: string): string => path.join(repo, '.claude', 'settings.local.json');

function readSettings(file: string): Record<string, any> {
  if (!fs.existsSync(file)) return {};
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    return parsed as Record<string, any>;
  } catch (error) {
    throw new SandboxError(`${file} is not a JSON object (${(error as Error).message}); fix it and run commandr init again`);
  }
}

const union = (have: unknown, add: string[]): string[] => {
  const list = Array.isArray(have) ? (have as string[]) : [];
  return [...list, ...add.filter((r) => !list.includes(r))];
};

/** Merges the sandbox settings into `<repo>/.claude/settings.local.json`; returns the file when it changed. */
export function writeSandboxSettings(repo: string, paths: SandboxPaths): string | undefined {
  const file = settingsFile(repo);
  const settings = readSettings(file);
  const before = JSON.stringify(settings);
  const fsWanted = sandboxFilesystem(repo, paths);
  const sandbox = { ...(settings.sandbox ?? {}) };
  const filesystem = { ...(sandbox.filesystem ?? {}) };
  for (const key of ['denyRead', 'allowRead', 'denyWrite'] as const) filesystem[key] = union(filesystem[key], fsWanted[key]);
  settings.sandbox = { ...sandbox, enabled: true, allowUnsandboxedCommands: false, filesystem };
  settings.permissions = { ...(settings.permissions ?? {}), deny: union(settings.permissions?.deny, sandboxDeny(paths)) };
  if (JSON.stringify(settings) === before) return undefined;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(`${file}.tmp`, `${JSON.stringify(settings, null, 2)}\n`);
  fs.renameSync(`${file}.tmp`, file);
  return file;
}

/** What `writeSandboxSettings` would still add to the repo's settings, by name; empty when all is there (SBXDEF-4). */
export function missingSandboxSettings(repo: string, paths: SandboxPaths): string[] {
  let settings: Record<string, any>;
  try {
    settings = readSettings(settingsFile(repo));
  } catch {
    return ['a readable .claude/settings.local.json'];
  }
  const missing: string[] = [];
  if (settings.sandbox?.enabled !== true) missing.push('sandbox.enabled');
  if (settings.sandbox?.allowUnsandboxedCommands !== false) missing.push('allowUnsandboxedCommands: false');
  const wanted = sandboxFilesystem(repo, paths);
  for (const key of ['denyRead', 'denyWrite'] as const) {
    const have: unknown = settings.sandbox?.filesystem?.[key];
    const absent = wanted[key].filter((p) => !(Array.isArray(have) && have.includes(p)));
    if (absent.length) missing.push(`sandbox.filesystem.${key} ${absent.join(', ')}`);
  }
  const deny: unknown = settings.permissions?.deny;
  const rules = sandboxDeny(paths).filter((r) => !(Array.isArray(deny) && deny.includes(r)));
  if (rules.length) missing.push(`deny ${rules.join(', ')}`);
  return missing;
}
