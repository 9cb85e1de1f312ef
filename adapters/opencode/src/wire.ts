// `adapters/opencode/wire <project-root> [--dry-run]`: writes the commandr plugin to
// `.opencode/plugin/commandr.js`, idempotently, and keeps it out of git; other plugins are
// never touched (WIREUP-n). The plugin also registers `commandr mcp`, so the committed
// `opencode.json` carries no machine's paths; an older wire's entry there is taken out (WIREPATH-n).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runWire, WireError, writeAtomic, type WireArgs, type WireLine } from '../../lib/wire-report';
import { currentPluginSource, PLUGIN_FILE, PLUGIN_MARKER } from '../lib/plugin-source';
import { unwireOpencodeMcp } from '../../mcp/wire';
import { assertIgnoreFile, ensureIgnored } from '../../lib/wire-ignore';

export function wireOpencode(args: WireArgs): WireLine[] {
  assertIgnoreFile(args.root); // before the plugin is written
  const plugin = wirePlugin(args); // refuses a foreign file before anything is written
  const ignore = ensureIgnored(args.root, PLUGIN_FILE, args.dryRun);
  return [plugin, ...(ignore ? [ignore] : []), ...unwireOpencodeMcp(args)];
}

function wirePlugin({ root, dryRun }: WireArgs): WireLine {
  const file = path.join(root, PLUGIN_FILE);
  const wanted = currentPluginSource();
  let current: string | undefined;
  try {
    current = fs.readFileSync(file, 'utf8');
  } catch {
    current = undefined;
  }
  if (current === wanted) return { file, status: 'ok' };
  if (current !== undefined && !current.startsWith(PLUGIN_MARKER)) {
    throw new WireError('E_BAD_SETTINGS', `${file} exists and was not written by commandr; move it away and run wire again — nothing was changed`);
  }
  if (!dryRun) writeAtomic(file, wanted);
  return { file, status: dryRun ? 'would fix' : 'fixed', detail: current === undefined ? 'plugin added' : 'plugin updated' };
}

process.exitCode = runWire('opencode', process.argv.slice(2), wireOpencode);
