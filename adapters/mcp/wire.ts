// Registering `commandr mcp` with the agent CLIs (MCP-8), merged and idempotent
// like the hooks. Claude Code: the project's `.mcp.json` names the server without any
// machine's path (`commandr mcp`, found through PATH: `npm link` or a global install,
// WIREPATH-2), and `enabledMcpjsonServers` in `.claude/settings.json` lets a headless `claude -p` load it
// without a prompt. OpenCode: the git-ignored plugin registers the server (WIREPATH-3); an
// older wire's entry in `opencode.json` is taken out. Headless jobs get the same server
// through their generated config (`jobMcpConfig`).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MCP_SERVER_NAME } from '../../protocol/mcp/tools';
import { installRoot, onPath } from '../lib/env';
import { readJsonObject, WireError, writeAtomic, type WireArgs, type WireLine } from '../lib/wire-report';

/**
 * How a headless job's Claude Code or OpenCode starts the server: this install's `commandr mcp`,
 * run as the file itself so the handshake is the shell responder's (MCP-FAST-1), handing over to
 * this node (MCP-FAST-5) whatever the agent's PATH holds.
 */
export function serverCommand(root = installRoot()): string[] {
  return [path.join(root, 'bin', 'commandr'), 'mcp', `--node=${process.execPath}`];
}

export function claudeServerEntry(root?: string): { type: 'stdio'; command: string; args: string[] } {
  const [command, ...args] = serverCommand(root);
  return { type: 'stdio', command: command!, args };
}

/** The `.mcp.json` entry: no path of this machine in it, `commandr` is found through PATH (WIREPATH-2). */
export function portableClaudeServerEntry(): { type: 'stdio'; command: string; args: string[] } {
  return { type: 'stdio', command: 'commandr', args: ['mcp'] };
}

/** Whether `commandr` on PATH is found (what the portable entry needs). */
export function commandrOnPath(env: NodeJS.ProcessEnv = process.env): boolean {
  return onPath('commandr', env) !== undefined;
}

/** `--mcp-config` content for a headless Claude Code job. */
export function jobMcpConfig(root?: string): { mcpServers: Record<string, unknown> } {
  return { mcpServers: { [MCP_SERVER_NAME]: claudeServerEntry(root) } };
}

/** The OpenCode `mcp` entry. */
export function opencodeServerEntry(root?: string): { type: 'local'; command: string[]; enabled: true } {
  return { type: 'local', command: serverCommand(root), enabled: true };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Sets `doc[key][name] = entry`, keeping every other entry; returns the new doc or undefined when nothing changes. */
function withEntry(file: string, doc: Record<string, unknown>, key: string, entry: unknown): Record<string, unknown> | undefined {
  const table = doc[key] ?? {};
  if (typeof table !== 'object' || table === null || Array.isArray(table)) throw new WireError('E_BAD_SETTINGS', `${file}: "${key}" must be an object; nothing was changed`);
  if (same((table as Record<string, unknown>)[MCP_SERVER_NAME], entry)) return undefined;
  return { ...doc, [key]: { ...(table as Record<string, unknown>), [MCP_SERVER_NAME]: entry } };
}

function write(file: string, doc: Record<string, unknown> | undefined, dryRun: boolean, detail: string): WireLine {
  if (!doc) return { file, status: 'ok' };
  if (!dryRun) writeAtomic(file, JSON.stringify(doc, null, 2) + '\n');
  return { file, status: dryRun ? 'would fix' : 'fixed', detail };
}

export function wireClaudeMcp({ root, dryRun }: WireArgs): WireLine[] {
  const mcpFile = path.join(root, '.mcp.json');
  const mcp = withEntry(mcpFile, readJsonObject(mcpFile) ?? {}, 'mcpServers', portableClaudeServerEntry());
  const settingsFile = path.join(root, '.claude', 'settings.json');
  const settings = readJsonObject(settingsFile) ?? {};
  const enabled = settings.enabledMcpjsonServers ?? [];
  if (!Array.isArray(enabled)) throw new WireError('E_BAD_SETTINGS', `${settingsFile}: "enabledMcpjsonServers" must be a list; nothing was changed`);
  const nextSettings = enabled.includes(MCP_SERVER_NAME) ? undefined : { ...settings, enabledMcpjsonServers: [...enabled, MCP_SERVER_NAME] };
  const onPath = commandrOnPath() ? '' : `; \`commandr\` is not on PATH here: run \`npm link\` in ${installRoot()} or the server will not start`;
  return [
    write(mcpFile, mcp, dryRun, 'mcp server commandr'),
    write(settingsFile, nextSettings, dryRun, 'enabledMcpjsonServers: commandr'),
  ].filter((line, i) => i === 0 || line.status !== 'ok').map((line, i) => (i === 0 && onPath ? { ...line, detail: `${line.detail ?? 'mcp server commandr'}${onPath}` } : line));
}

/** An `mcp` entry an older wire wrote: this shape, naming some install's `bin/commandr` by absolute path. */
function isOldOpencodeEntry(entry: unknown): boolean {
  if (typeof entry !== 'object' || entry === null) return false;
  const command = (entry as { command?: unknown }).command;
  return Array.isArray(command) && command.length === 3 && command[2] === 'mcp'
    && typeof command[1] === 'string' && path.isAbsolute(command[1]) && command[1].endsWith(`${path.sep}bin${path.sep}commandr`);
}

/** Takes an older wire's `commandr` entry out of `opencode.json` (WIREPATH-3); a file left empty by that is removed. */
export function unwireOpencodeMcp({ root, dryRun }: WireArgs): WireLine[] {
  const file = path.join(root, 'opencode.json');
  const doc = readJsonObject(file);
  const table = doc?.mcp;
  if (!doc || typeof table !== 'object' || table === null || Array.isArray(table)) return [];
  if (!isOldOpencodeEntry((table as Record<string, unknown>)[MCP_SERVER_NAME])) return [];
  const { [MCP_SERVER_NAME]: _, ...others } = table as Record<string, unknown>;
  const { mcp: __, ...rest } = doc;
  const next = Object.keys(others).length > 0 ? { ...rest, mcp: others } : rest;
  const detail = 'old commandr mcp entry removed (the plugin registers it)';
  if (Object.keys(next).length > 0) return [write(file, next, dryRun, detail)];
  if (!dryRun) {
    try {
      fs.unlinkSync(file);
    } catch (error) {
      throw new WireError('E_IO', `cannot remove ${file}: ${(error as Error).message}`);
    }
  }
  return [{ file, status: dryRun ? 'would fix' : 'fixed', detail: `${detail}; the file held nothing else and was removed` }];
}

/** OPENCODE_CONFIG_CONTENT for a job with the server added (the given content merged, never dropped). */
export function withOpencodeMcp(content: string): string {
  const doc = JSON.parse(content) as Record<string, unknown>;
  const table = (typeof doc.mcp === 'object' && doc.mcp !== null ? doc.mcp : {}) as Record<string, unknown>;
  return JSON.stringify({ ...doc, mcp: { ...table, [MCP_SERVER_NAME]: opencodeServerEntry() } });
}
