// `adapters/claude/wire <project-root> [--dry-run]`: merges commandr's hooks into the
// project's local, git-ignored `.claude/settings.local.json`, idempotently, keeping every
// other setting (WIREUP-n); hooks of ours in the committed `.claude/settings.json` (an older
// wire put them there) are taken out, so no machine's paths get committed (WIREPATH-n).
import * as path from 'node:path';
import { readJsonObject, runWire, writeAtomic, type WireArgs, type WireLine } from '../../lib/wire-report';
import { mergeHooks, withoutOurHooks } from '../lib/settings-merge';
import { ensureIgnored } from '../../lib/wire-ignore';
import { wiredHookSpecs } from '../lib/permission-spec';
import { wireClaudeMcp } from '../../mcp/wire';

/** Each event named once (CLIHELP-4): one event can have several hooks (UserPromptSubmit has one per notes part). */
const once = (events: string[]): string => [...new Set(events)].join(', ');

export function wireClaude({ root, dryRun }: WireArgs): WireLine[] {
  const localFile = path.join(root, '.claude', 'settings.local.json');
  const settings = readJsonObject(localFile) ?? {};
  const sharedFile = path.join(root, '.claude', 'settings.json');
  const shared = readJsonObject(sharedFile) ?? {};
  const { settings: merged, changed } = mergeHooks(settings, wiredHookSpecs());
  const { settings: cleaned, changed: moved } = withoutOurHooks(shared);
  const hooks: WireLine = changed.length === 0 ? { file: localFile, status: 'ok' } : { file: localFile, status: dryRun ? 'would fix' : 'fixed', detail: `hooks: ${once(changed)}` };
  const ignore = ensureIgnored(root, '.claude/settings.local.json', dryRun);
  if (changed.length > 0 && !dryRun) writeAtomic(localFile, JSON.stringify(merged, null, 2) + '\n');
  const lines = [hooks, ...(ignore ? [ignore] : [])];
  if (moved.length > 0) {
    if (!dryRun) writeAtomic(sharedFile, JSON.stringify(cleaned, null, 2) + '\n');
    lines.push({ file: sharedFile, status: dryRun ? 'would fix' : 'fixed', detail: `commandr hooks moved to settings.local.json: ${once(moved)}` });
  }
  return [...lines, ...wireClaudeMcp({ root, dryRun })];
}

process.exitCode = runWire('claude', process.argv.slice(2), wireClaude);
