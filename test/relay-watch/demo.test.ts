// DEMO-n: with no repo registered and none given, the relay makes (once) and
// watches a demo workspace whose every state was made by the real bus tools and gate.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CommanderRecord } from '../../protocol/commander';
import { readEvents } from '../../bus/event-log';
import { DEMO_COMMANDER_ID } from '../../relay/demo/commander';
import { REVIEW_TASK } from '../../relay/demo/packets';
import { demoRoot, ensureDemo } from '../../relay/demo/workspace';
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
