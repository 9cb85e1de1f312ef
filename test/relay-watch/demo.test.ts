// DEMO-n: with no repo registered and none given, the relay makes (once) and
// watches a demo workspace whose every state was made by the real bus tools and gate,
// with a sample commander whose history is true of it.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CommanderRecord } from '../../protocol/commander';
import { parseConversation } from '../../protocol/commander-transcript';
import { readEvents } from '../../bus/event-log';
import { DEMO_COMMANDER_ADAPTER, DEMO_COMMANDER_ID } from '../../relay/demo/commander';
import { CommanderStore } from '../../relay/commanders/store';
import { REVIEW_TASK } from '../../relay/demo/packets';
import { demoRoot, ensureDemo } from '../../relay/demo/workspace';
import { viewOf } from '../../relay/commanders/service';
import { demoRelay } from './fixture';

const fx = demoRelay('relay-demo-');

describe('demo workspace', () => {
  it('DEMO-1: with no repos the relay serves one demo repo, labelled demo, every task titled "Demo:"', async () => {
    const snap = await fx.rec.until(() => fx.rec.snapshots[0], 'snapshot');
    const ack = await fx.client.request({ type: 'subscribe' });
    const repos = (ack.result as { repos: Array<{ demo: boolean; path: string }> }).repos;
    expect(repos).toHaveLength(1);
    expect(repos[0]!.demo).toBe(true);
    expect(repos[0]!.path.startsWith(fs.realpathSync(path.join(fx.dataDir, 'demo')))).toBe(true);
    expect(snap.tasks.length).toBeGreaterThanOrEqual(5);
    for (const t of snap.tasks) expect(t.title).toMatch(/^Demo: /);
  });

  it('DEMO-2: every state is there: inbox, blocked-by, claimed with notes, done pass and fail, a real gate block, a council verdict, annotations', async () => {
    const tasks = fx.rec.snapshots[0]!.tasks;
    const byId = new Map(tasks.map((t) => [t.id, t]));
    expect(tasks.some((t) => t.state === 'inbox' && t.blockedBy.length === 0)).toBe(true);
    expect(tasks.some((t) => t.state === 'inbox' && t.blockedBy.length > 0)).toBe(true);
    expect(tasks.some((t) => t.state === 'done' && t.result === 'pass')).toBe(true);
    expect(tasks.some((t) => t.state === 'done' && t.result === 'fail')).toBe(true);
    const review = byId.get(REVIEW_TASK)!;
    expect(review.state).toBe('claimed');
    expect(review.lastNote).toBeTruthy();
    expect(review.pendingApproval).not.toBeNull();
    expect(review.verdict?.votes).toHaveLength(3);
    expect(review.annotations).toEqual({ total: 2, unconsumed: 1 });
    expect(byId.size).toBe(tasks.length);
    // The approval request came from the real gate: its digest is the worktree's staged digest.
    const diff = fx.client.request({ type: 'task.diff', repo: fx.rec.snapshots[0]!.repo, task: review.id });
    const begin = await fx.client.next('task.diff.begin');
    expect(begin.digest).toBe(review.pendingApproval!.digest);
    expect(begin.worktree).toBe(review.pendingApproval!.worktree);
    await diff;
  });

  it('DEMO-3: a sample commander directory marked demo exists under <dataDir>/commanders/', () => {
    const dir = path.join(fx.dataDir, 'commanders', DEMO_COMMANDER_ID);
    const record = CommanderRecord.parse(JSON.parse(fs.readFileSync(path.join(dir, 'commander.json'), 'utf8')));
    expect(record.demo).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'CLAUDE.md'), 'utf8')).toContain(record.name);
    expect(fs.readFileSync(path.join(dir, 'spawned'), 'utf8').trim()).toBe(record.session);
  });

  it('CHAT-6: the demo commander\'s history is true of the workspace: the tasks it counts, the log it read, nothing it cannot do', () => {
    const repo = path.join(demoRoot(fx.dataDir), 'commandr-demo');
    const entries = parseConversation(fs.readFileSync(new CommanderStore(fx.dataDir).logFile(DEMO_COMMANDER_ID), 'utf8'));
    const tools = entries.flatMap((e) => (e.kind === 'tool' ? [e] : []));
    // What it says `ls` printed is what the bus holds, and the tasks it counts are those.
    const dirs = ['claimed', 'done', 'inbox'].map((d) => [d, fs.readdirSync(path.join(repo, '.agents', d)).filter((f) => !f.startsWith('.')).sort()] as const);
    const total = dirs.reduce((n, [, names]) => n + names.filter((f) => f.endsWith('.md')).length, 0);
    expect(total).toBe(9);
    expect(tools[0]!.summary).toBe('Ran ls .agents/claimed .agents/done .agents/inbox');
    expect(tools[0]!.detail).toBe(dirs.map(([d, names]) => `.agents/${d}:\n${names.join('\n')}`).join('\n\n'));
    // The log it says it ran is main's log, as it was when the demo was made.
    expect(tools[1]!.summary).toBe('Ran git log --oneline -3 main');
    expect(tools[1]!.detail).toBe(execFileSync('git', ['log', '--oneline', '-3', 'main'], { cwd: repo, encoding: 'utf8' }).trim());
    const said = entries.flatMap((e) => (e.kind === 'commander' ? [e.text] : [])).join('\n');
    expect(said).toMatch(new RegExp(`^Of the ${total} tasks`, 'm'));
    expect(execFileSync('git', ['show', 'main:README.md'], { cwd: repo, encoding: 'utf8' })).not.toContain('worksapce');
    expect(said).toContain('merged into main');
    // It names no branch the repo does not have, and promises nothing its script will not do.
    for (const branch of said.match(/agent\/[a-z0-9-]+/g) ?? []) execFileSync('git', ['rev-parse', '--verify', '-q', branch], { cwd: repo });
    expect(said).not.toMatch(/\bI will\b|\bI'll\b|Will do/);
  });

  it('DEMO-7: the demo commander\'s view names the script that answers it, not Claude Code, even in a record written as claude', async () => {
    const list = await fx.client.waitFor((f) => f.type === 'commander.list', 'the commander list');
    const demo = (list.commanders as Array<{ id: string; adapter: string }>).find((c) => c.id === DEMO_COMMANDER_ID)!;
    expect(demo.adapter).toBe(DEMO_COMMANDER_ADAPTER.name);
    expect(DEMO_COMMANDER_ADAPTER.name).toBe('demo script');
    const file = path.join(fx.dataDir, 'commanders', DEMO_COMMANDER_ID, 'commander.json');
    expect(CommanderRecord.parse(JSON.parse(fs.readFileSync(file, 'utf8'))).adapter).toBe(DEMO_COMMANDER_ADAPTER.name);
    // A demo made by an older relay wrote `claude` there: its view still names the script.
    expect(viewOf({ ...CommanderRecord.parse(JSON.parse(fs.readFileSync(file, 'utf8'))), adapter: 'claude' }).adapter).toBe(DEMO_COMMANDER_ADAPTER.name);
  });

  it('DEMO-7: a message to the demo commander is answered by the demo\'s own script (no agent CLI): it says what it is and stays usable', async () => {
    const said = fx.client.waitFor((f) => f.type === 'commander.output' && f.commander === DEMO_COMMANDER_ID && String(f.chunk).includes('This is the demo commander'), 'the demo commander\'s answer');
    const idle = fx.client.waitFor((f) => f.type === 'commander.state' && (f.commander as { id: string; status: string }).id === DEMO_COMMANDER_ID
      && (f.commander as { status: string }).status === 'idle', 'the demo commander idle again');
    await fx.client.request({ type: 'commander.message', commander: DEMO_COMMANDER_ID, text: 'ship the release' });
    const answer = await said;
    expect(answer.session).toBe('demo-session-0001');
    await idle;
    // A second message works too: the session is never lost.
    const again = fx.client.waitFor((f) => f.type === 'commander.state' && (f.commander as { id: string; status: string }).id === DEMO_COMMANDER_ID
      && (f.commander as { status: string }).status === 'idle', 'idle after the second message');
    await fx.client.request({ type: 'commander.message', commander: DEMO_COMMANDER_ID, text: 'and again' });
    await again;
    const record = CommanderRecord.parse(JSON.parse(fs.readFileSync(path.join(fx.dataDir, 'commanders', DEMO_COMMANDER_ID, 'commander.json'), 'utf8')));
    expect(record.status).toBe('idle');
  });

  it('DEMO-4: making the demo again is idempotent: same repo, nothing appended', async () => {
    const repo = await ensureDemo(fx.dataDir);
    const bus = path.join(repo, '.agents');
    const before = readEvents(bus).events.length;
    expect(await ensureDemo(fx.dataDir)).toBe(repo);
    expect(readEvents(bus).events.length).toBe(before);
    expect(fs.readdirSync(demoRoot(fx.dataDir)).sort()).toEqual(['.ready', 'commandr-demo', 'demo-evaluator.cjs', 'registry', 'worktrees']);
  });
});
