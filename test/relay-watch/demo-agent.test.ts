// DEMO-5: approving the demo change on the phone moves the story on: the simulated agent
// commits it through the real gate, and the task reads Committed like the demo's other
// committed task, ready to merge. Real relay, real git.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_REVIEW_TASK } from '../../relay/demo/agent';
import { COMMITTED_TASK } from '../../relay/demo/packets';
import type { RepoHub } from '../../relay/watch/hub';
import { demoRelay, startRelay, subscribedClient } from './fixture';

const fx = demoRelay('relay-demo-agent-');

describe('demo agent', () => {
  it('DEMO-5: after the person approves the demo change a simulated agent commits it: the task is committed, in the stage of the demo\'s other committed task', async () => {
    const snap = await fx.rec.until(() => fx.rec.snapshots[0], 'snapshot');
    const review = snap.tasks.find((t) => t.id === DEMO_REVIEW_TASK)!;
    expect(review.state).toBe('claimed');
    const worktree = review.pendingApproval!.worktree;
    const headBefore = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: worktree, encoding: 'utf8' });
    await fx.client.request({ type: 'task.approve', repo: snap.repo, task: review.id, digest: review.pendingApproval!.digest });
    const committedTask = await fx.rec.task(snap.repo, review.id, (t) => t.lastNote === 'Committed the approved change');
    expect(committedTask).toMatchObject({ state: 'claimed', result: null, pendingApproval: null });
    // The same git state as the demo's committed task reads the same: Committed, not Done (one stage for one state).
    const other = snap.tasks.find((t) => t.id === COMMITTED_TASK)!;
    expect(committedTask.life).toMatchObject({ stage: 'committed', commit: { branch: `agent/${review.id}`, verified: true, subject: 'Demo: greet people by name' } });
    expect(committedTask.life!.stage).toBe(other.life!.stage);
    expect(execFileSync('git', ['rev-parse', 'HEAD'], { cwd: worktree, encoding: 'utf8' })).not.toBe(headBefore);
    expect(execFileSync('git', ['log', '-1', '--format=%s'], { cwd: worktree, encoding: 'utf8' }).trim()).toBe('Demo: greet people by name');
    expect(execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: worktree, encoding: 'utf8' })).toBe('');
    // The commit carries the approval and spends it, as a real agent's hooks do (APPROVAL-7, -8).
    expect(execFileSync('git', ['log', '-1', '--format=%B'], { cwd: worktree, encoding: 'utf8' })).toContain(`Commandr-Approval: {`);
    const committed = fx.rec.events.map((e) => e.event).find((e) => e.event === 'task_committed' && e.task === review.id);
    expect(committed).toMatchObject({ digest: review.pendingApproval!.digest });
    expect(fs.readdirSync(path.join(path.dirname(path.dirname(worktree)), 'commandr-demo', '.agents', 'approvals')).filter((f) => f.startsWith(review.id))).toEqual([]);
    const names = fx.rec.events.map((e) => `${e.event.event}:${String(e.event.task)}`);
    expect(names.slice(-3)).toEqual([`approval_granted:${review.id}`, `task_committed:${review.id}`, `task_progress:${review.id}`]);
    expect(names).not.toContain(`task_complete:${review.id}`);
  });

  it('DEMO-5: a relay closed while its demo agent commits waits for the commit, so nothing writes into the demo repo once it has closed; the agent commits and does not complete', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-demo-close-'));
    try {
      const relay = await startRelay([], { demo: true, dataDir });
      const { client, bus } = await subscribedClient(relay);
      const snap = await bus.until(() => bus.snapshots[0], 'snapshot');
      const review = snap.tasks.find((t) => t.id === DEMO_REVIEW_TASK)!;
      const worktree = review.pendingApproval!.worktree;
      // The relay is closed in the same turn as the demo agent is started by the approval's bus event.
      let closing: Promise<void> | undefined;
      (relay.services.hub as RepoHub).on('bus-event', (_repo, event) => {
        if (event.event === 'approval_granted') closing ??= relay.close();
      });
      void client.request({ type: 'task.approve', repo: snap.repo, task: review.id, digest: review.pendingApproval!.digest }).catch(() => undefined);
      await bus.until(() => closing, 'the approval reaching the relay');
      await closing;
      await client.close();
      // Closed means done: the commit is in and its progress note written, with no git process left to write.
      expect(execFileSync('git', ['log', '-1', '--format=%s'], { cwd: worktree, encoding: 'utf8' }).trim()).toBe('Demo: greet people by name');
      const log = fs.readFileSync(path.join(path.dirname(path.dirname(worktree)), 'commandr-demo', '.agents', 'events.jsonl'), 'utf8');
      const events = log.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { event: string; task?: string; note?: string });
      expect(events.some((e) => e.event === 'task_progress' && e.task === review.id && e.note === 'Committed the approved change')).toBe(true);
      // …and it stops there, committed like the demo's other committed task: not completed, its packet still claimed.
      expect(events.filter((e) => e.event === 'task_complete' && e.task === review.id)).toEqual([]);
      expect(fs.readdirSync(path.join(path.dirname(path.dirname(worktree)), 'commandr-demo', '.agents', 'claimed')).some((f) => f.endsWith(`_${review.id}.md`))).toBe(true);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
