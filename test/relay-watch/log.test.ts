// The log follower under hostile conditions (torn, junk, truncated, replaced) and
// cursor resume: real relay, real files, real sockets.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeAnnotation, markConsumed } from '../../bus/annotations';
import { appendEvent } from '../../bus/event-log';
import { initRepo } from '../../bus/init';
import { RepoHub } from '../../relay/watch/hub';
import { git } from '../council/fixtures';
import { packet } from '../conformance/harness';
import { registryOf, repoIdFor, watchedRepo } from './fixture';

const fx = watchedRepo('relay-log-', () => note('A-1', 0));

const logFile = (): string => path.join(fx.bus, 'events.jsonl');
const note = (task: string, n: number): void => {
  appendEvent(fx.bus, { event: 'task_progress', task, note: `note ${n}` });
};
const hub = (): RepoHub => fx.relay.services.hub as RepoHub;

describe('log follower', () => {
  it('WATCH-3: a torn last line is held (offset unchanged) until its newline arrives, then delivered once', async () => {
    const { bus: rec } = await fx.client();
    const before = hub().model(fx.repoId)!.log.offset;
    const line = JSON.stringify({ ts: new Date().toISOString(), event: 'task_progress', task: 'A-2', note: 'torn then whole' });
    fs.appendFileSync(logFile(), line.slice(0, 30));
    await hub().catchUp(fx.repoId);
    expect(hub().model(fx.repoId)!.log.offset).toBe(before);
    fs.appendFileSync(logFile(), line.slice(30) + '\n');
    const got = await rec.event('task_progress', 'A-2');
    expect(got.event.note).toBe('torn then whole');
    expect(got.cursor.offset).toBe(fs.statSync(logFile()).size);
    note('A-2', 9);
    await rec.until(() => rec.events.some((e) => e.event.note === 'note 9'), 'later event');
    expect(rec.events.filter((e) => e.event.note === 'torn then whole')).toHaveLength(1);
    expect(fx.logger.warnings).toEqual([]);
  });

  it('WATCH-4: a junk line is skipped with exactly one warning and later lines still arrive', async () => {
    const { bus: rec } = await fx.client();
    fs.appendFileSync(logFile(), 'this is not json\n');
    note('A-1', 1);
    await rec.until(() => rec.events.find((e) => e.event.note === 'note 1'), 'event after junk');
    note('A-1', 2);
    await rec.until(() => rec.events.find((e) => e.event.note === 'note 2'), 'second event after junk');
    expect(fx.logger.warnings.filter((w) => w.includes('skipped line'))).toHaveLength(1);
  });

  it('WATCH-5: a truncated log is detected and every subscriber gets repo.snapshot with resync: true', async () => {
    const { bus: rec } = await fx.client();
    note('A-1', 1);
    await rec.until(() => rec.events.find((e) => e.event.note === 'note 1'), 'event');
    fs.truncateSync(logFile(), 0);
    const snap = await rec.until(() => rec.snapshots.find((s) => s.resync), 'resync snapshot');
    expect(snap.cursor.offset).toBe(0);
    expect(snap.tasks.find((t) => t.id === 'A-1')!.lastNote).toBeNull(); // the old history went with the log
    note('A-2', 2);
    const after = await rec.until(() => rec.events.find((e) => e.event.note === 'note 2'), 'event after resync');
    expect(after.cursor.offset).toBe(fs.statSync(logFile()).size);
  });

  it('WATCH-6: a replaced log (new inode) is detected: resync snapshot with the new epoch', async () => {
    const { bus: rec } = await fx.client();
    const oldEpoch = rec.cursors[fx.repoId]!.epoch;
    const temp = path.join(fx.dir, 'new-log');
    fs.writeFileSync(temp, JSON.stringify({ ts: new Date().toISOString(), event: 'task_progress', task: 'A-2', note: 'from the new log' }) + '\n');
    fs.renameSync(temp, logFile());
    const snap = await rec.until(() => rec.snapshots.find((s) => s.resync), 'resync snapshot');
    expect(snap.cursor.epoch).not.toBe(oldEpoch);
    expect(snap.tasks.find((t) => t.id === 'A-2')!.lastNote).toBe('from the new log');
  });

  it('CURSOR-1: resuming with a cursor after a disconnect delivers exactly the missed events, then the current state (RESUME-1)', async () => {
    const first = await fx.client();
    await first.bus.until(() => first.bus.cursors[fx.repoId], 'cursor');
    const cursor = first.bus.cursors[fx.repoId]!;
    await first.client.close();
    for (let n = 1; n <= 1200; n++) note(n % 2 ? 'A-1' : 'A-2', n);
    const second = await fx.client({ [fx.repoId]: cursor });
    await second.bus.until(() => second.bus.events.length >= 1200 && second.bus.snapshots.length > 0, '1200 events and the state');
    expect(second.bus.snapshots).toHaveLength(1);
    expect(second.bus.snapshots[0]).toMatchObject({ afterEvents: 1200, cursor: second.bus.events.at(-1)!.cursor, resync: undefined });
    expect(second.bus.events.map((e) => e.event.note)).toEqual(Array.from({ length: 1200 }, (_, i) => `note ${i + 1}`));
    expect(second.bus.cursors[fx.repoId]!.offset).toBe(fs.statSync(logFile()).size);
    expect(second.bus.tasks.get(`${fx.repoId}/A-2`)!.lastNote).toBe('note 1200');
    note('A-1', 1201);
    await second.bus.until(() => second.bus.events.length === 1201, 'live event after resume');
  });

  it('CURSOR-2: a cursor of another epoch, past the end or inside a line gets a resync snapshot instead of events', async () => {
    const size = fs.statSync(logFile()).size;
    const epoch = hub().model(fx.repoId)!.log.epoch;
    for (const cursor of [{ offset: 0, epoch: '1:2' }, { offset: size + 100, epoch }, { offset: 5, epoch }]) {
      const c = await fx.client({ [fx.repoId]: cursor });
      const snap = await c.bus.until(() => c.bus.snapshots[0], 'snapshot');
      expect(snap.resync).toBe(true);
      expect(snap.cursor).toEqual({ offset: size, epoch });
      expect(c.bus.events).toEqual([]);
    }
  });

  it('WATCH-7: a packet added without any event arrives as a summary; a packet deleted from every state dir brings a fresh snapshot', async () => {
    const { bus: rec } = await fx.client();
    fs.writeFileSync(path.join(fx.bus, 'inbox', 'A-3.md'), packet({ id: 'A-3' }));
    const t = await rec.task(fx.repoId, 'A-3');
    expect(t.state).toBe('inbox');
    const snapshots = rec.snapshots.length;
    fs.rmSync(path.join(fx.bus, 'inbox', 'A-3.md'));
    const snap = await rec.until(() => rec.snapshots[snapshots], 'snapshot after delete');
    expect(snap.tasks.map((x) => x.id).sort()).toEqual(['A-1', 'A-2']);
    expect(snap.resync).toBeUndefined();
  });

  it('WATCH-8: a repo added to the registry file is watched and sent to subscribers; one removed from it becomes repo.removed', async () => {
    const { client: c, bus: rec } = await fx.client();
    const other = path.join(fx.dir, 'other');
    fs.mkdirSync(other);
    git(other, 'init', '-q', '-b', 'main');
    const otherBus = initRepo(other, { gateBin: '/bin/false', registryFile: path.join(fx.dir, 'registry') }).bus;
    fs.writeFileSync(path.join(otherBus, 'inbox', 'B-1.md'), packet({ id: 'B-1' }));
    fs.writeFileSync(registryOf(fx.relay.dataDir), `# repos\n${other}\n`);
    const otherId = repoIdFor(other);
    const snap = await rec.until(() => rec.snapshots.find((s) => s.repo === otherId), 'snapshot of the registered repo');
    expect(snap.tasks.map((t) => t.id)).toEqual(['B-1']);
    appendEvent(otherBus, { event: 'task_progress', task: 'B-1', note: 'in the other repo' });
    await rec.until(() => rec.events.find((e) => e.repo === otherId), 'event of the registered repo');
    fs.writeFileSync(registryOf(fx.relay.dataDir), '');
    await c.next('repo.removed', (f) => f.repo === otherId);
  });

  it('WATCH-9: an annotation marked consumed (no event) updates the task summary counts', async () => {
    const { bus: rec } = await fx.client();
    const written = writeAnnotation(fx.bus, { task: 'A-1', turn: 1, body: 'note for the agent' });
    await rec.task(fx.repoId, 'A-1', (t) => t.annotations.unconsumed === 1);
    markConsumed(fx.bus, 'A-1', written.path);
    const t = await rec.task(fx.repoId, 'A-1', (x) => x.annotations.unconsumed === 0);
    expect(t.annotations.total).toBe(1);
  });
});
