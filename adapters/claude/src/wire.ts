// `adapters/claude/wire <project-root> [--dry-run]`: merges commandr's hooks into the
// project's local, git-ignored `.claude/settings.local.json`, idempotently, keeping every
// other setting (WIREUP-n); hooks of ours in the committed `.claude/settings.json` (an older
// wire put them there) are taken out, so no machine's paths get committed (WIREPATH-n).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runWire, WireError, writeAtomic, type WireArgs, type WireLine } from '../../lib/wire-report';
import { hookSpecs } from '../lib/hook-specs';
import { mergeHooks, withoutOurHooks } from '../lib/settings-merge';
import { ensureIgnored } from '../../lib/wire-ignore';
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
  const localFile = path.join(root, '.claude', 'settings.local.json');
  const { settings } = readSettings(localFile);
  const sharedFile = path.join(root, '.claude', 'settings.json');
  const shared = readSettings(sharedFile);
  const { settings: merged, changed } = mergeHooks(settings, [...hookSpecs(), permissionHookSpec()]);
  const { settings: cleaned, changed: moved } = withoutOurHooks(shared.settings);
  const hooks: WireLine = changed.length === 0 ? { file: localFile, status: 'ok' } : { file: localFile, status: dryRun ? 'would fix' : 'fixed', detail: `hooks: ${changed.join(', ')}` };
  const ignore = ensureIgnored(root, '.claude/settings.local.json', dryRun);
  if (changed.length > 0 && !dryRun) writeAtomic(localFile, JSON.stringify(merged, null, 2) + '\n');
  const lines = [hooks, ...(ignore ? [ignore] : [])];
  if (moved.length > 0) {
    if (!dryRun) writeAtomic(sharedFile, JSON.stringify(cleaned, null, 2) + '\n');
    lines.push({ file: sharedFile, status: dryRun ? 'would fix' : 'fixed', detail: `commandr hooks moved to settings.local.json: ${moved.join(', ')}` });
  }
  return [...lines, ...wireClaudeMcp({ root, dryRun })];
}

process.exitCode = runWire('claude', process.argv.slice(2), wireClaude);
