// Resume reconciles the whole bus, not only the log (RESUME-n), and snapshots are
// paged (PAGE-n): a real relay on port 0, real temp repos, real files and renames, real sockets.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { markConsumed, writeAnnotation } from '../../bus/annotations';
import { appendEvent } from '../../bus/event-log';
import { SNAPSHOT_DONE_TASKS, SNAPSHOT_PAGE_BYTES, SNAPSHOT_PAGE_TASKS } from '../../protocol/wire/frames';
import type { TaskSummary } from '../../protocol/wire/views';
import type { RepoHub } from '../../relay/watch/hub';
import { packet } from '../conformance/harness';
import { watchedRepo } from './fixture';

const fx = watchedRepo('relay-resume-', (bus) => appendEvent(bus, { event: 'task_progress', task: 'A-1', note: 'before' }));

/** Waits (on a deadline, checking every few ms) until the relay's own model shows a condition. */
async function relaySees(check: (hub: RepoHub) => boolean, what: string): Promise<void> {
  const hub = fx.relay.services.hub as RepoHub;
  const deadline = Date.now() + 15_000;
  while (!check(hub)) {
    if (Date.now() > deadline) throw new Error(`the relay never saw ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
const summary = (hub: RepoHub, task: string): TaskSummary | undefined => hub.model(fx.repoId)?.summary(task);

/** Writes a packet the way a careful tool does: a temp file beside the bus, renamed into place. */
function atomicPacket(dirName: string, file: string, id: string): void {
  const tmp = path.join(fx.bus, `.${file}.tmp`);
  fs.writeFileSync(tmp, packet({ id }));
  fs.renameSync(tmp, path.join(fx.bus, dirName, file));
}

async function leaveWithCursor(): Promise<{ offset: number; epoch: string }> {
  const first = await fx.client();
  await first.bus.until(() => first.bus.cursors[fx.repoId], 'cursor');
  await first.client.close();
  return first.bus.cursors[fx.repoId]!;
}

describe('resume reconciles what has no event', () => {
  it('RESUME-1: packets, moves, verdicts and annotations that changed with no event while the phone was away show after resuming with cursors', async () => {
    const written = writeAnnotation(fx.bus, { task: 'A-2', turn: 1, body: 'read me' });
    const cursor = await leaveWithCursor();
    atomicPacket('inbox', 'A-3.md', 'A-3');
    fs.renameSync(path.join(fx.bus, 'inbox', 'A-1.md'), path.join(fx.bus, 'done', 'A-1.md'));
    fs.mkdirSync(path.join(fx.bus, 'council'), { recursive: true });
    const votes = ['acceptance-criteria', 'code-quality', 'style'].map((dimension) => ({ dimension, vote: 'PASS', reason: '' }));
    fs.writeFileSync(path.join(fx.bus, 'council', 'A-2.json'), JSON.stringify({ task: 'A-2', verdict: 'PASS', ts: new Date().toISOString(), votes }));
    markConsumed(fx.bus, 'A-2', written.path);
    await relaySees((h) => summary(h, 'A-3') !== undefined && summary(h, 'A-1')?.state === 'done'
      && summary(h, 'A-2')?.verdict !== null && summary(h, 'A-2')?.annotations.unconsumed === 0, 'the changes');

    const back = await fx.client({ [fx.repoId]: cursor });
    const snap = await back.bus.until(() => back.bus.snapshots[0], 'the reconciling snapshot');
    expect(snap.resync).toBeUndefined();
    expect(back.bus.events).toEqual([]); // no event was missed
    expect(back.bus.tasks.get(`${fx.repoId}/A-3`)).toMatchObject({ state: 'inbox' });
    expect(back.bus.tasks.get(`${fx.repoId}/A-1`)).toMatchObject({ state: 'done' });
    expect(back.bus.tasks.get(`${fx.repoId}/A-2`)).toMatchObject({ verdict: { verdict: 'PASS' }, annotations: { total: 1, unconsumed: 0 } });
    // The snapshot is the whole truth: a client replacing its tasks with it holds exactly the bus's tasks.
    expect(snap.tasks.map((t) => t.id).sort()).toEqual(['A-1', 'A-2', 'A-3']);
  });

  it('RESUME-2: a packet caught half-written is not shown, and shows once it is whole (live and after resume)', async () => {
    const live = await fx.client();
    await live.bus.until(() => live.bus.snapshots[0], 'snapshot');
    const whole = packet({ id: 'A-4' });
    const file = path.join(fx.bus, 'inbox', 'A-4.md');
    const fd = fs.openSync(file, 'w');
    fs.writeSync(fd, whole.slice(0, 20)); // inside the front matter: no closing ---
    await relaySees(() => fx.logger.warnings.some((w) => w.includes(file)), 'the half-written packet');
    expect(live.bus.tasks.has(`${fx.repoId}/A-4`)).toBe(false);
    fs.writeSync(fd, whole.slice(20));
    fs.closeSync(fd);
    expect(await live.bus.task(fx.repoId, 'A-4')).toMatchObject({ state: 'inbox', type: 'implementation' });

    // The same while the phone is away: it sees the whole packet on resume.
    const cursor = live.bus.cursors[fx.repoId]!;
    const file5 = path.join(fx.bus, 'inbox', 'A-5.md');
    const fd5 = fs.openSync(file5, 'w');
    fs.writeSync(fd5, packet({ id: 'A-5' }).slice(0, 20));
    await relaySees(() => fx.logger.warnings.some((w) => w.includes(file5)), 'the second half-written packet');
    fs.writeSync(fd5, packet({ id: 'A-5' }).slice(20));
    fs.closeSync(fd5);
    await relaySees((h) => summary(h, 'A-5') !== undefined, 'the whole packet');
    const back = await fx.client({ [fx.repoId]: cursor });
    expect(await back.bus.task(fx.repoId, 'A-5')).toMatchObject({ state: 'inbox' });
  });

  it('RESUME-3: every snapshot says when the relay built it (the app shows "last synced" from it when not live)', async () => {
    const before = Date.now();
    const c = await fx.client();
    const snap = await c.bus.until(() => c.bus.snapshots[0], 'snapshot');
    const at = Date.parse(snap.at ?? '');
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    expect(at).toBeLessThanOrEqual(Date.now() + 1000);
  });
});

describe('snapshot paging', () => {
  /** `inbox` packets in the inbox and `done` in done/, each with one event so their order is known. */
  function fill(inbox: number, done: number): void {
    for (let i = 0; i < inbox; i++) fs.writeFileSync(path.join(fx.bus, 'inbox', `P-${i}.md`), packet({ id: `P-${i}` }));
    for (let i = 0; i < done; i++) {
      fs.writeFileSync(path.join(fx.bus, 'done', `h_1_D-${i}.md`), packet({ id: `D-${i}` }));
      appendEvent(fx.bus, { event: 'task_complete', task: `D-${i}`, result: 'pass' }, new Date(Date.UTC(2026, 0, 1, 0, 0, i)));
    }
  }

  it('PAGE-1: a snapshot sends every active task in bounded pages and only the newest done tasks, with the done count', async () => {
    fill(1200, 120);
    // A long note makes the byte bound cut pages before the count bound does.
    for (let i = 0; i < 40; i++) appendEvent(fx.bus, { event: 'task_progress', task: `P-${i}`, note: 'n'.repeat(30_000) });
    await relaySees((h) => (h.model(fx.repoId)?.tasks().length ?? 0) === 1322 && summary(h, 'P-39')?.lastNote !== null, 'every packet');
    const c = await fx.client();
    const snap = await c.bus.until(() => c.bus.snapshots[0], 'snapshot');
    await c.bus.until(() => c.bus.pages.length === snap.pages, 'every page');
    expect(snap.done).toEqual({ total: 120, sent: SNAPSHOT_DONE_TASKS });
    const sizes = [snap.tasks.length, ...c.bus.pages.map((p) => p.tasks.length)];
    expect(Math.max(...sizes)).toBeLessThanOrEqual(SNAPSHOT_PAGE_TASKS);
    for (const page of c.bus.pages) expect(page.bytes).toBeLessThan(SNAPSHOT_PAGE_BYTES + 40_000);
    const received = [...snap.tasks, ...c.bus.pages.flatMap((p) => p.tasks)];
    expect(new Set(received.map((t) => t.id)).size).toBe(received.length);
    expect(received.filter((t) => t.state === 'inbox')).toHaveLength(1202);
    // Active first; the done ones sent are the newest (D-119 … D-70).
    const firstDone = received.findIndex((t) => t.state === 'done');
    expect(received.slice(firstDone).every((t) => t.state === 'done')).toBe(true);
    expect(received.slice(firstDone).map((t) => t.id)).toEqual(Array.from({ length: SNAPSHOT_DONE_TASKS }, (_, i) => `D-${119 - i}`));
  });

  it('PAGE-2: repo.done pages through the older done tasks, newest first, with no gap and no duplicate; an unknown repo is E_UNKNOWN_REPO', async () => {
    fill(2, 120);
    await relaySees((h) => (h.model(fx.repoId)?.tasks().length ?? 0) === 124, 'every packet');
    const c = await fx.client();
    const snap = await c.bus.until(() => c.bus.snapshots[0], 'snapshot');
    const seen = snap.tasks.filter((t) => t.state === 'done');
    let more = true;
    while (more) {
      const last = seen.at(-1)!;
      const ack = await c.client.request({ type: 'repo.done', repo: fx.repoId, before: { ts: last.lastEventTs, id: last.id }, limit: 30 });
      const page = c.bus.pages.find((p) => p.id === ack.id)!;
      seen.push(...page.tasks);
      const result = ack.result as { total: number; more: boolean; sent: number };
      expect(result).toMatchObject({ total: 120, sent: page.tasks.length });
      more = result.more;
    }
    expect(seen.map((t) => t.id)).toEqual(Array.from({ length: 120 }, (_, i) => `D-${119 - i}`));
    await expect(c.client.request({ type: 'repo.done', repo: 'nope-00000000' })).rejects.toMatchObject({ code: 'E_UNKNOWN_REPO' });
  });
});
