// The demo's sample commander: a commander directory (contract §A) marked demo,
// so the Commanders screen has something to show before the person starts one.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CommanderRecord } from '../../protocol/commander';
import { renderClaudeMd } from '../commanders/claude-md';
import { DOC_FILE, RECORD_FILE, SPAWNED_FILE } from '../commanders/store';
import type { AgentAdapter } from '../commanders/turn';
import { PACKAGE_ROOT } from '../options';

export const DEMO_COMMANDER_ID = 'c-demo000001';

/** DEMO-7: the demo commander's turns run this script, not an agent CLI (its session id is made up). */
export const DEMO_COMMANDER_ADAPTER: AgentAdapter = { name: 'demo', run: path.join(PACKAGE_ROOT, 'relay', 'demo', 'commander-run') };

export function writeDemoCommander(dataDir: string, repo: string): void {
  const dir = path.join(dataDir, 'commanders', DEMO_COMMANDER_ID);
  if (fs.existsSync(path.join(dir, RECORD_FILE))) return;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const session = 'demo-session-0001';
  const record: CommanderRecord = {
    id: DEMO_COMMANDER_ID, name: 'Demo: release helper', referencePaths: [repo], created: new Date().toISOString(),
    session, status: 'idle', waitingFor: null, adapter: 'claude', demo: true,
  };
  fs.writeFileSync(path.join(dir, DOC_FILE), renderClaudeMd(record.name, record.id, dir, record.referencePaths));
  fs.writeFileSync(path.join(dir, SPAWNED_FILE), `${session}\n`);
  fs.writeFileSync(path.join(dir, RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
}

/** What DEMO-6 needs of the commanders service. */
export interface DemoCommanders {
  list(): Array<{ id: string; demo?: boolean }>;
  delete(id: string): Promise<void>;
}

/** DEMO-6: demo commanders leave with the demo workspace (stopped and removed like any delete). */
export async function dismissDemoCommanders(commanders: DemoCommanders): Promise<string[]> {
  const gone: string[] = [];
  for (const c of commanders.list()) {
    if (!c.demo && c.id !== DEMO_COMMANDER_ID) continue; // the view the service lists may leave `demo` out
    await commanders.delete(c.id);
    gone.push(c.id);
  }
  return gone;
}
