// Registering `commandr mcp` with the agent CLIs (MCP-8), merged and idempotent
// like the hooks: Claude Code's project `.mcp.json` plus `enabledMcpjsonServers`
// in `.claude/settings.json` (so a headless `claude -p` loads it without a
// prompt); OpenCode's `mcp` entry in the project's `opencode.json`. Headless jobs
// get the same server through their generated config (`jobMcpConfig`).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MCP_SERVER_NAME } from '../../protocol/mcp/tools';
import { installRoot } from '../lib/env';
import { WireError, writeAtomic, type WireArgs, type WireLine } from '../lib/wire-report';

/** How an agent CLI starts the server: this node, this install's `commandr mcp`. */
export function serverCommand(root = installRoot()): string[] {
  return [process.execPath, path.join(root, 'bin', 'commandr'), 'mcp'];
}

export function claudeServerEntry(root?: string): { type: 'stdio'; command: string; args: string[] } {
  const [command, ...args] = serverCommand(root);
  return { type: 'stdio', command: command!, args };
}

/** `--mcp-config` content for a headless Claude Code job. */
export function jobMcpConfig(root?: string): { mcpServers: Record<string, unknown> } {
  return { mcpServers: { [MCP_SERVER_NAME]: claudeServerEntry(root) } };
}

/** The OpenCode `mcp` entry. */
export function opencodeServerEntry(root?: string): { type: 'local'; command: string[]; enabled: true } {
  return { type: 'local', command: serverCommand(root), enabled: true };
}

function readJsonObject(file: string): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new WireError('E_IO', `cannot read ${file}: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch (error) {
    throw new WireError('E_BAD_SETTINGS', `${file} is not valid JSON (${(error as Error).message}); fix it and run wire again — nothing was changed`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new WireError('E_BAD_SETTINGS', `${file} must hold a JSON object; nothing was changed`);
  return value as Record<string, unknown>;
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
  const mcp = withEntry(mcpFile, readJsonObject(mcpFile) ?? {}, 'mcpServers', claudeServerEntry());
  const settingsFile = path.join(root, '.claude', 'settings.json');
  const settings = readJsonObject(settingsFile) ?? {};
  const enabled = settings.enabledMcpjsonServers ?? [];
  if (!Array.isArray(enabled)) throw new WireError('E_BAD_SETTINGS', `${settingsFile}: "enabledMcpjsonServers" must be a list; nothing was changed`);
  const nextSettings = enabled.includes(MCP_SERVER_NAME) ? undefined : { ...settings, enabledMcpjsonServers: [...enabled, MCP_SERVER_NAME] };
  return [write(mcpFile, mcp, dryRun, 'mcp server commandr'), write(settingsFile, nextSettings, dryRun, 'enabledMcpjsonServers: commandr')].filter(
    (line, i) => i === 0 || line.status !== 'ok',
  );
}

export function wireOpencodeMcp({ root, dryRun }: WireArgs): WireLine[] {
  const file = path.join(root, 'opencode.json');
  return [write(file, withEntry(file, readJsonObject(file) ?? {}, 'mcp', opencodeServerEntry()), dryRun, 'mcp server commandr')];
}

/** OPENCODE_CONFIG_CONTENT for a job with the server added (the given content merged, never dropped). */
export function withOpencodeMcp(content: string): string {
  const doc = JSON.parse(content) as Record<string, unknown>;
  const table = (typeof doc.mcp === 'object' && doc.mcp !== null ? doc.mcp : {}) as Record<string, unknown>;
  return JSON.stringify({ ...doc, mcp: { ...table, [MCP_SERVER_NAME]: opencodeServerEntry() } });
}
