// LIMIT-1..4: a bus whose events.jsonl holds a 100 MB line (a runaway
// task_progress note) or a long note must not kill subscribes, swell the relay's
// memory or make a frame without bound. Real relay, real 100 MB line on disk.
import * as fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { appendEvent } from '../../bus/event-log';
import { MAX_LOG_LINE_BYTES, MAX_SERVER_FRAME_BYTES, SHOWN_FIELD_BYTES } from '../../protocol/limits';
import { connectDevice, type DeviceClient } from '../helpers/device';
import { recordingLogger } from '../relay-watch/fixture';
import { cleanup } from '../relay-core/setup';
import { makeRepo, startWatching, type TestRepo } from './fixture';

afterEach(cleanup);

/** Appends one task_progress line whose note is `bytes` long, written in pieces (the test never holds it whole). */
function appendHugeNote(log: string, task: string, bytes: number): void {
  const fd = fs.openSync(log, 'a');
  try {
    fs.writeSync(fd, `{"ts":"2026-11-30T00:00:00.000Z","event":"task_progress","task":"${task}","note":"`);
    const piece = Buffer.alloc(1024 * 1024, 'x');
    for (let left = bytes; left > 0; left -= piece.length) fs.writeSync(fd, piece, 0, Math.min(piece.length, left));
    fs.writeSync(fd, '"}\n');
  } finally {
    fs.closeSync(fd);
  }
}

/** Largest frame a client received, watched on the raw message sizes. */
function frameSizes(client: DeviceClient): { max: number } {
  const seen = { max: 0 };
  client.ws.on('message', (data: Buffer) => void (seen.max = Math.max(seen.max, data.length)));
  return seen;
}

interface Peak { rss: number; stop(): number }
/** Samples the process RSS (the relay runs in this process) until stopped; returns the peak growth. */
function watchMemory(): Peak {
  const base = process.memoryUsage().rss;
  const peak: Peak = { rss: base, stop: () => { clearInterval(timer); return peak.rss - base; } };
  const timer = setInterval(() => void (peak.rss = Math.max(peak.rss, process.memoryUsage().rss)), 5);
  return peak;
}

async function notesAfter(client: DeviceClient, repoId: string, epoch: string, count: number): Promise<Array<Record<string, unknown>>> {
  await client.request({ type: 'subscribe', cursors: { [repoId]: { offset: 0, epoch } } });
  const out: Array<Record<string, unknown>> = [];
  while (out.length < count) {
    const frame = await client.next('bus.events');
    for (const e of frame.events) if (e.event.event === 'task_progress') out.push({ ...e.event, cursor: e.cursor });
  }
  return out;
}

describe('a 100 MB line in events.jsonl', () => {
  let repo: TestRepo;

  it('LIMIT-1, LIMIT-3: is skipped with exactly one warning; subscribes keep working, every frame is bounded and the relay does not hold the line', async () => {
    repo = makeRepo(['A-1']);
    appendEvent(repo.bus, { event: 'task_progress', task: 'A-1', note: 'before' });
    appendHugeNote(repo.log, 'A-1', 100 * 1024 * 1024);
    appendEvent(repo.bus, { event: 'task_progress', task: 'A-1', note: 'after' });
    const logger = recordingLogger();
    const memory = watchMemory();
    const relay = await startWatching(repo, { logger });
    for (let round = 0; round < 3; round += 1) {
      const client = await connectDevice(relay, `phone ${round}`);
      const sizes = frameSizes(client);
      const ack = await client.request({ type: 'subscribe' });
      const snapshot = await client.next('repo.snapshot');
      expect(snapshot.tasks.find((t) => t.id === 'A-1')?.lastNote).toBe('after');
      const repoId = (ack.result as { repos: Array<{ id: string }> }).repos[0]!.id;
      const notes = await notesAfter(client, repoId, snapshot.cursor.epoch, 2);
      expect(notes.map((n) => n.note)).toEqual(['before', 'after']);
      expect(sizes.max).toBeLessThanOrEqual(MAX_SERVER_FRAME_BYTES);
      expect(client.ws.readyState).toBe(client.ws.OPEN);
      await client.close();
    }
    const growth = memory.stop();
    const warnings = logger.warnings.filter((w) => w.includes('over the') && w.includes('limit'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/skipped line at byte \d+ of .*events\.jsonl: line of 104857\d+ bytes is over the 1048576-byte limit/);
    // The old follower read the whole line and parsed it (~400 MB); one MiB pieces keep it small.
    expect(growth).toBeLessThan(120 * 1024 * 1024);
  });

  it('LIMIT-1: a line over the limit appended while the relay runs is skipped once and later lines still arrive', async () => {
    repo = makeRepo(['A-1']);
    const logger = recordingLogger();
    const relay = await startWatching(repo, { logger });
    const client = await connectDevice(relay, 'phone');
    await client.request({ type: 'subscribe' });
    await client.next('repo.snapshot');
    const fd = fs.openSync(repo.log, 'a');
    fs.writeSync(fd, `{"ts":"2026-11-30T00:00:00.000Z","event":"task_progress","task":"A-1","note":"${'y'.repeat(MAX_LOG_LINE_BYTES + 10)}`);
    fs.closeSync(fd);
    // The bus tool ends the torn line before appending (its own rule), so the long line completes here.
    appendEvent(repo.bus, { event: 'task_progress', task: 'A-1', note: 'next' });
    const after = 'delivered after the long line';
    appendEvent(repo.bus, { event: 'task_progress', task: 'A-1', note: after });
    const notes: unknown[] = [];
    while (!notes.includes(after)) notes.push(...(await client.next('bus.events')).events.map((e) => e.event.note));
    expect(notes).toEqual(['next', after]);
    expect(logger.warnings.filter((w) => w.includes('over the'))).toHaveLength(1);
    await client.close();
  });
});

describe('long notes', () => {
  it('LIMIT-2: a note over 2 KiB is shown cut to 2 KiB with its full size; task.note answers the whole of it', async () => {
    const repo = makeRepo(['A-1']);
    const long = `${'é'.repeat(1500)}${'z'.repeat(300_000)}`; // multi-byte characters across the cut
    appendEvent(repo.bus, { event: 'task_progress', task: 'A-1', note: long });
    const relay = await startWatching(repo);
    const client = await connectDevice(relay, 'phone');
    const ack = await client.request({ type: 'subscribe' });
    const snapshot = await client.next('repo.snapshot');
    const summary = snapshot.tasks.find((t) => t.id === 'A-1')!;
    expect(Buffer.byteLength(summary.lastNote ?? '')).toBeLessThanOrEqual(SHOWN_FIELD_BYTES);
    expect(long.startsWith(summary.lastNote ?? 'x')).toBe(true);
    const repoId = (ack.result as { repos: Array<{ id: string }> }).repos[0]!.id;
    const [event] = await notesAfter(client, repoId, snapshot.cursor.epoch, 1);
    const shown = event!.note as string;
    expect(Buffer.byteLength(shown)).toBeLessThanOrEqual(SHOWN_FIELD_BYTES);
    expect(Buffer.byteLength(shown)).toBeGreaterThan(SHOWN_FIELD_BYTES - 4);
    expect(long.startsWith(shown)).toBe(true);
    expect(event!.truncated).toEqual({ note: Buffer.byteLength(long) });

    const timeline = await client.request({ type: 'task.timeline', repo: repoId, task: 'A-1' });
    const timed = (timeline.result as { events: Array<{ event: { note?: string } }> }).events.find((e) => e.event.note?.startsWith('é'));
    expect(timed?.event.note).toBe(shown);

    const whole = await client.request({ type: 'task.note', repo: repoId, task: 'A-1', cursor: event!.cursor });
    expect(whole.result).toEqual({ fields: { note: long } });
    // A cursor that is not the end of one of this task's lines names nothing.
    await expect(client.request({ type: 'task.note', repo: repoId, task: 'A-1', cursor: { offset: 1, epoch: snapshot.cursor.epoch } }))
      .rejects.toMatchObject({ code: 'E_NOT_FOUND' });
    await client.close();
  });
});
