// The demo's sample commander: a commander directory (contract §A) marked demo,
// so the Commanders screen has something to show before the person starts one.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CommanderRecord } from '../../protocol/commander';
import { renderClaudeMd } from '../commanders/claude-md';
import { CommanderStore, DOC_FILE, RECORD_FILE, SPAWNED_FILE } from '../commanders/store';
import { NOTICE_MARK, saidLine, toolLine } from '../../protocol/commander-transcript';
import type { AgentAdapter } from '../commanders/turn';
import { gitSync } from '../../bus/git/run';
import { PACKAGE_ROOT } from '../options';

export const DEMO_COMMANDER_ID = 'c-demo000001';

/**
 * DEMO-7: the demo commander's turns run this script, not an agent CLI (its session id is made up).
 * Its name is what the commander's screen shows where a real one names its agent ("Claude Code").
 */
export const DEMO_COMMANDER_ADAPTER: AgentAdapter = { name: 'demo script', run: path.join(PACKAGE_ROOT, 'relay', 'demo', 'commander-run') };

export function writeDemoCommander(dataDir: string, repo: string): void {
  const dir = path.join(dataDir, 'commanders', DEMO_COMMANDER_ID);
  if (fs.existsSync(path.join(dir, RECORD_FILE))) return;
  const session = 'demo-session-0001';
  const history = demoHistory(session, demoFacts(repo));
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const record: CommanderRecord = {
    id: DEMO_COMMANDER_ID, name: 'Demo: release helper', referencePaths: [repo], created: new Date().toISOString(),
    session, status: 'idle', waitingFor: null, adapter: DEMO_COMMANDER_ADAPTER.name, demo: true,
  };
  fs.writeFileSync(path.join(dir, DOC_FILE), renderClaudeMd(record.name, record.id, dir, record.referencePaths));
  fs.writeFileSync(path.join(dir, SPAWNED_FILE), `${session}\n`);
  fs.writeFileSync(path.join(dir, RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  fs.writeFileSync(new CommanderStore(dataDir).logFile(DEMO_COMMANDER_ID), history, { mode: 0o600 });
}

/** What the demo commander's history quotes of the demo repo, read from it when the history is written. */
export interface DemoFacts {
  /** `ls .agents/claimed .agents/done .agents/inbox`, as ls prints it. */
  listing: string;
  /** Task packets in those three directories. */
  tasks: number;
  /** `git log --oneline -3 main`. */
  log: string;
}

export function demoFacts(repo: string): DemoFacts {
  let tasks = 0;
  const listing = ['claimed', 'done', 'inbox'].map((dir) => {
    const names = fs.readdirSync(path.join(repo, '.agents', dir)).filter((f) => !f.startsWith('.')).sort();
    tasks += names.filter((f) => f.endsWith('.md')).length;
    return `.agents/${dir}:\n${names.join('\n')}`;
  }).join('\n\n');
  const log = gitSync(['log', '--oneline', '-3', 'main'], { cwd: repo }).toString('utf8').trim();
  return { listing, tasks, log };
}

/**
 * CHAT-6: the demo commander's past conversation, written to its log in the very format a real
 * turn leaves there (the adapter's SESSION line and text, the relay's `›` and `▸` lines), so a
 * newcomer opening it sees what a conversation looks like. Made up, and it says so; but what it
 * says of the demo is true of it as it was made (the tasks it counts and the log it quotes are
 * read from the repo), and it promises nothing: a script answers it, which cannot act.
 */
export function demoHistory(session: string, facts: DemoFacts): string {
  return [
    `${NOTICE_MARK}A sample conversation, written by Commandr so you can see what talking to a commander looks like. What you send now is answered by a script, not an agent.\n`,
    `SESSION: ${session}\n`,
    'I look after the **commandr-demo** repository. Ask me about its tasks or what is left before a release.\n',
    saidLine('What is left before we can release?'),
    `SESSION: ${session}\n`,
    toolLine('Ran ls .agents/claimed .agents/done .agents/inbox', facts.listing),
    `Of the ${facts.tasks} tasks, two are merged into main: **Demo: fix a typo in the README** and **Demo: add a loud greeting**. Still open:\n\n`,
    '1. **Demo: greet people by name** waits for your approval: open it from the Inbox and look at the change.\n',
    '2. **Demo: say goodbye too** is committed on its branch: **Merge into main** is on its screen.\n',
    '3. **Demo: make the slow test fast** failed: the slow test depends on a network call.\n',
    '4. **Demo: greet in French too**: its agent run failed, as Claude Code was not logged in.\n',
    '5. **Demo: document the greeting** is blocked until the greeting task is done.\n\n',
    '**Demo: test the greeting** is still in progress, and **Demo: compare greeting libraries** has not started.\n',
    saidLine('Is the README ready?'),
    `SESSION: ${session}\n`,
    toolLine('Ran git log --oneline -3 main', facts.log),
    'Not quite. The typo is fixed: main\'s README says "workspace" now, and the fix\'s task passed and was merged (its commit is in that log). ',
    'It still needs a line about `greet(name)`: that is **Demo: document the greeting**, blocked until the greeting task is done.\n',
    saidLine('What happens when I approve the greeting?'),
    `SESSION: ${session}\n`,
    'Its agent commits the change on `agent/demo-1-greeting`, with your approval in the commit, and the task reads **Committed**. ',
    '**Merge into main** on its screen then puts it into main. I only answer when you write to me: I cannot tell you first.\n',
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
