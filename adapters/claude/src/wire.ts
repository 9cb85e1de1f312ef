// `adapters/claude/wire <project-root> [--dry-run]`: merges commandr's hooks into the
// project's `.claude/settings.json`, idempotently, keeping every other setting (WIREUP-n).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runWire, WireError, writeAtomic, type WireArgs, type WireLine } from '../../lib/wire-report';
import { hookSpecs } from '../lib/hook-specs';
import { mergeHooks } from '../lib/settings-merge';
import { permissionHookSpec } from '../lib/permission-spec';
import { wireClaudeMcp } from '../../mcp/wire';

function readSettings(file: string): { settings: Record<string, unknown>; existed: boolean } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { settings: {}, existed: false };
    throw new WireError('E_IO', `cannot read ${file}: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch (error) {
    throw new WireError('E_BAD_SETTINGS', `${file} is not valid JSON (${(error as Error).message}); fix it and run wire again — nothing was changed`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new WireError('E_BAD_SETTINGS', `${file} must hold a JSON object; nothing was changed`);
  }
  return { settings: value as Record<string, unknown>, existed: true };
}

export function wireClaude({ root, dryRun }: WireArgs): WireLine[] {
  const file = path.join(root, '.claude', 'settings.json');
  const { settings } = readSettings(file);
  const { settings: merged, changed } = mergeHooks(settings, [...hookSpecs(), permissionHookSpec()]);
  const hooks: WireLine = changed.length === 0 ? { file, status: 'ok' } : { file, status: dryRun ? 'would fix' : 'fixed', detail: `hooks: ${changed.join(', ')}` };
  if (changed.length > 0 && !dryRun) writeAtomic(file, JSON.stringify(merged, null, 2) + '\n');
  return [hooks, ...wireClaudeMcp({ root, dryRun })];
}

process.exitCode = runWire('claude', process.argv.slice(2), wireClaude);
