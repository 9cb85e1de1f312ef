// The demo's sample commander: a commander directory (contract §A) marked demo,
// so the Commanders screen has something to show before the person starts one.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CommanderRecord } from '../../protocol/commander';
import { renderClaudeMd } from '../commanders/claude-md';
import { CommanderStore, DOC_FILE, RECORD_FILE, SPAWNED_FILE } from '../commanders/store';
import { NOTICE_MARK, saidLine, toolLine } from '../../protocol/commander-transcript';
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
  fs.writeFileSync(new CommanderStore(dataDir).logFile(DEMO_COMMANDER_ID), demoHistory(session), { mode: 0o600 });
}

/**
 * CHAT-6: the demo commander's past conversation, written to its log in the very format a real
 * turn leaves there (the adapter's SESSION line and text, the relay's `›` and `▸` lines), so a
 * newcomer opening it sees what a conversation looks like. Made up, and it says so.
 */
export function demoHistory(session: string): string {
  return [
    `${NOTICE_MARK}A sample conversation, written by Commandr so you can see what talking to a commander looks like. What you send now is answered by a script, not an agent.\n`,
    `SESSION: ${session}\n`,
    'I look after the **commandr-demo** repository. Ask me about its tasks or what is left before a release.\n',
    saidLine('What is left before we can release?'),
    `SESSION: ${session}\n`,
    toolLine('Read .agents/index.json', 'Five tasks: 1 waiting for approval, 1 done, 1 failed, 1 blocked, 1 in the inbox.'),
    'Three things stand between us and a release:\n\n',
    '1. **Demo: greet people by name** waits for your approval: open it from the Inbox and look at the change.\n',
    '2. **Demo: make the slow test fast** failed: the slow test depends on a network call.\n',
    '3. **Demo: document the greeting** is blocked until the first one is committed.\n',
    saidLine('Is the README ready?'),
    `SESSION: ${session}\n`,
    toolLine('Ran git log --oneline -3', 'Demo: initial commit'),
    'Yes: the typo ("worksapce") is fixed on its task\'s branch, and that task passed its checks. Once the greeting is approved, the README still needs a line about `greet(name)`; that is the blocked task.\n',
    saidLine('Thanks. Tell me when the greeting is approved.'),
    `SESSION: ${session}\n`,
    'Will do. When you approve it I will unblock the docs task and write you a short release note.\n',
  ].join('');
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
