// The relay's view of a bus changed by the real bin tools, and the task actions a
// phone sends back: real relay on port 0, real temp git repos, real `ws` clients.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BusEvent } from '../../protocol/bus/events';
import { packet } from '../conformance/harness';
import { bundleCli } from '../council/fixtures';
import { watchedWorld } from './fixture';

let evaluator: string;
const fx = watchedWorld({
  inbox: ['T-1', 'T-2', 'T-3', 'T-4'], title: (id) => `${id} title`, device: 'Pixel test',
  prepare(world) {
    evaluator = path.join(world.dir, 'evaluator.cjs');
    fs.writeFileSync(evaluator, `#!${process.execPath}\nconsole.log(process.argv[3] === 'style' ? 'VOTE: FAIL' : 'VOTE: PASS');\n`, { mode: 0o755 });
    process.env.COUNCIL_EVALUATOR_CMD = evaluator;
  },
});

const claimed = (id: string): string => path.join(fx.world.bus, 'claimed', fs.readdirSync(path.join(fx.world.bus, 'claimed')).find((f) => f.endsWith(`_${id}.md`))!);

/** A worktree on agent/<id> with a staged change whose commit the real gate blocked. */
function blockedWorktree(id: string, content: string): string {
  const wt = fx.world.worktree(`wt-${id}`, `agent/${id}`);
  fs.writeFileSync(path.join(wt, 'README.md'), content);
  fx.world.git(['add', 'README.md'], wt);
  expect(() => fx.world.git(['commit', '-q', '-m', 'agent work'], wt)).toThrow();
  return wt;
}

const tokenFile = (id: string): string => path.join(fx.world.bus, 'approvals', `${id}.approved`);
const logBytes = (): number => fs.statSync(path.join(fx.world.bus, 'events.jsonl')).size;

describe('relay watch over the real bin tools', () => {
  it('SNAPSHOT-1: subscribing without a cursor gets a repo.snapshot of every task with its state', async () => {
    const snap = await fx.bus.until(() => fx.bus.snapshots.find((s) => s.repo === fx.repo), 'snapshot');
    expect(snap.tasks.map((t) => t.id).sort()).toEqual(['T-1', 'T-2', 'T-3', 'T-4']);
    expect(snap.tasks.find((t) => t.id === 'T-1')).toMatchObject({ state: 'inbox', title: 'Context', owner: null, pendingApproval: null });
  });

  it('WATCH-1: claim, progress and complete made by the bin tools arrive as typed events with updated summaries', async () => {
    expect(fx.world.tool('claim').code).toBe(0);
    const claim = await fx.bus.event('task_claimed', 'T-1');
    expect(BusEvent.parse(claim.event)).toMatchObject({ event: 'task_claimed', task: 'T-1' });
    expect(claim.cursor.offset).toBeGreaterThan(0);
    await fx.bus.task(fx.repo, 'T-1', (t) => t.state === 'claimed' && t.owner !== null);
    expect(fx.world.tool('progress', ['T-1', 'halfway there']).code).toBe(0);
    await fx.bus.event('task_progress', 'T-1');
    await fx.bus.task(fx.repo, 'T-1', (t) => t.lastNote === 'halfway there');
    expect(fx.world.tool('complete', [claimed('T-1'), 'fail']).code).toBe(0);
    const done = await fx.bus.event('task_complete', 'T-1');
    expect(BusEvent.parse(done.event)).toMatchObject({ result: 'fail' });
    expect(BusEvent.parse((await fx.bus.event('task_progress', 'T-1')).event)).toMatchObject({ note: 'halfway there' });
    await fx.bus.task(fx.repo, 'T-1', (t) => t.state === 'done' && t.result === 'fail');
  });

  it('WATCH-2: a council run by bin/council (stand-in evaluator) arrives as council_verdict and the verdict in the summary', async () => {
    const cli = await bundleCli('council');
    execFileSync(process.execPath, [cli, path.join(fx.world.bus, 'done', fs.readdirSync(path.join(fx.world.bus, 'done')).find((f) => f.endsWith('T-1.md'))!)], { env: { ...fx.world.env, COUNCIL_EVALUATOR_CMD: evaluator } });
    const verdict = await fx.bus.event('council_verdict', 'T-1');
    expect(verdict.event).toMatchObject({ verdict: 'PASS', evaluator_count: 3 });
    await fx.bus.task(fx.repo, 'T-1', (t) => t.verdict?.verdict === 'PASS');
  });

  it('APPROVE-1: a gate block becomes pendingApproval; approving its digest writes a 0600 token, logs approval_granted and the commit passes', async () => {
    expect(fx.world.tool('claim').code).toBe(0);
    const wt = blockedWorktree('T-2', 'approved change\n');
    const requested = await fx.bus.event('approval_requested', 'T-2');
    const pending = await fx.bus.task(fx.repo, 'T-2', (t) => t.pendingApproval !== null);
    expect(pending.pendingApproval).toMatchObject({ digest: requested.event.digest, worktree: fs.realpathSync(wt), files: 1 });
    const ack = await fx.client.request({ type: 'task.approve', repo: fx.repo, task: 'T-2', digest: requested.event.digest });
    expect(ack.result).toMatchObject({ token: 'written', digest: requested.event.digest });
    const stat = fs.statSync(tokenFile('T-2'));
    expect(stat.mode & 0o777).toBe(0o600);
    expect(Object.keys(JSON.parse(fs.readFileSync(tokenFile('T-2'), 'utf8'))).sort()).toEqual(['base', 'by', 'digest', 'key', 'repo', 'sig', 'task', 'tree', 'ts', 'v']);
    expect(JSON.parse(fs.readFileSync(tokenFile('T-2'), 'utf8'))).toMatchObject({ digest: requested.event.digest, by: 'Pixel test' });
    const granted = await fx.bus.event('approval_granted', 'T-2');
    expect(granted.event).toMatchObject({ digest: requested.event.digest, by: 'Pixel test' });
    await fx.bus.task(fx.repo, 'T-2', (t) => t.pendingApproval === null);
    fx.world.git(['commit', '-q', '-m', 'agent work'], wt);
  });

  it('APPROVE-2: approving a digest that is no longer staged is E_STALE_DIGEST and writes nothing', async () => {
    expect(fx.world.tool('claim').code).toBe(0);
    const wt = blockedWorktree('T-3', 'first version\n');
    const requested = await fx.bus.event('approval_requested', 'T-3');
    fs.writeFileSync(path.join(wt, 'README.md'), 'second version\n');
    fx.world.git(['add', 'README.md'], wt);
    const before = logBytes();
    await expect(fx.client.request({ type: 'task.approve', repo: fx.repo, task: 'T-3', digest: requested.event.digest })).rejects.toMatchObject({ code: 'E_STALE_DIGEST' });
    expect(fs.existsSync(tokenFile('T-3'))).toBe(false);
    expect(logBytes()).toBe(before);
  });

  it('DENY-1: deny appends approval_denied with the device name and writes no token; a stale deny is refused', async () => {
    const wt = path.join(fx.world.dir, 'wt-T-3');
    await expect(fx.client.request({ type: 'task.deny', repo: fx.repo, task: 'T-3', digest: `sha256:${'0'.repeat(64)}` })).rejects.toMatchObject({ code: 'E_STALE_DIGEST' });
    expect(() => fx.world.git(['commit', '-q', '-m', 'again'], wt)).toThrow();
    const again = await fx.bus.until(() => fx.bus.events.filter((e) => e.event.event === 'approval_requested' && e.event.task === 'T-3')[1], 'second request');
    await fx.client.request({ type: 'task.deny', repo: fx.repo, task: 'T-3', digest: again.event.digest, reason: 'not like this' });
    const denied = await fx.bus.event('approval_denied', 'T-3');
    expect(denied.event).toMatchObject({ digest: again.event.digest, by: 'Pixel test', reason: 'not like this' });
    expect(fs.existsSync(tokenFile('T-3'))).toBe(false);
    await fx.bus.task(fx.repo, 'T-3', (t) => t.pendingApproval === null);
  });

  it('APPROVE-3: a token for a change no longer staged is replaced; the same digest again is a no-op', async () => {
    const wt = path.join(fx.world.dir, 'wt-T-3');
    const current = fx.bus.events.filter((e) => e.event.event === 'approval_requested' && e.event.task === 'T-3')[1]!.event.digest as string;
    fs.writeFileSync(tokenFile('T-3'), JSON.stringify({ digest: `sha256:${'1'.repeat(64)}`, ts: new Date().toISOString(), by: 'someone' }));
    const replaced = await fx.client.request({ type: 'task.approve', repo: fx.repo, task: 'T-3', digest: current });
    expect(replaced.result).toMatchObject({ token: 'written' });
    expect(JSON.parse(fs.readFileSync(tokenFile('T-3'), 'utf8'))).toMatchObject({ digest: current, task: 'T-3' });
    const before = logBytes();
    const again = await fx.client.request({ type: 'task.approve', repo: fx.repo, task: 'T-3', digest: current });
    expect(again.result).toMatchObject({ token: 'existing' });
    expect(logBytes()).toBe(before);
    fx.world.git(['commit', '-q', '-m', 'approved'], wt);
  });

  it('DIFF-WIRE-1: task.diff streams begin (digest, files, bytes), chunks, end, then the ack', async () => {
    expect(fx.world.tool('claim').code).toBe(0);
    blockedWorktree('T-4', 'x'.repeat(700_000) + '\n');
    const requested = await fx.bus.event('approval_requested', 'T-4');
    fx.client.clear();
    const ack = fx.client.request({ type: 'task.diff', id: 'diff-T-4-0001', repo: fx.repo, task: 'T-4' });
    const begin = await fx.client.next('task.diff.begin', (f) => f.id === 'diff-T-4-0001');
    expect(begin).toMatchObject({ source: 'approval', digest: requested.event.digest, repo: fx.repo, task: 'T-4' });
    expect(begin.files).toHaveLength(1);
    let text = '';
    const end = await fx.client.next('task.diff.end', (f) => f.id === 'diff-T-4-0001');
    const chunks = fx.client.received.filter((f) => f.type === 'task.diff.chunk' && f.id === 'diff-T-4-0001') as unknown as Array<{ seq: number; data: string }>;
    expect(chunks.map((c) => c.seq)).toEqual([...Array(end.chunks).keys()]);
    for (const c of chunks) {
      expect(Buffer.byteLength(c.data)).toBeLessThanOrEqual(256 * 1024);
      text += c.data;
    }
    expect(end.chunks).toBeGreaterThan(1);
    expect(Buffer.byteLength(text)).toBe(begin.bytes);
    expect(text).toContain('+xxxx');
    await ack;
  });

  it('ANNOTATE-WIRE-1: task.annotate writes the file then a task_annotation event; counts reach the summary', async () => {
    const ack = await fx.client.request({ type: 'task.annotate', repo: fx.repo, task: 'T-4', turn: 3, anchor: 'line:README.md:1', body: 'use fewer x' });
    expect(ack.result).toEqual({ file: '0003-0000.json', seq: 0 });
    const note = JSON.parse(fs.readFileSync(path.join(fx.world.bus, 'annotations', 'T-4', '0003-0000.json'), 'utf8'));
    expect(note).toMatchObject({ task: 'T-4', turn: 3, anchor: 'line:README.md:1', author: 'Pixel test', body: 'use fewer x', consumed: false });
    const event = await fx.bus.event('task_annotation', 'T-4');
    expect(event.event).toMatchObject({ turn: 3, seq: 0, anchor: 'line:README.md:1' });
    expect(event.event.body).toBeUndefined();
    await fx.bus.task(fx.repo, 'T-4', (t) => t.annotations.total === 1 && t.annotations.unconsumed === 1);
  });

  it('ANNOTATE-WIRE-2: hostile anchors, ids and unknown repos or tasks are refused with their code and nothing is written', async () => {
    const before = logBytes();
    const base = { type: 'task.annotate', repo: fx.repo, task: 'T-4', turn: 1, body: 'x' };
    for (const anchor of ['card:../../etc/passwd', 'line:/etc/passwd:1', 'card:a/../../b']) {
      await expect(fx.client.request({ ...base, anchor })).rejects.toMatchObject({ code: 'E_BAD_PATH' });
    }
    await expect(fx.client.request({ ...base, anchor: 'nonsense' })).rejects.toMatchObject({ code: 'E_BAD_FRAME' });
    await expect(fx.client.request({ ...base, anchor: 'general', task: '../T-4' })).rejects.toMatchObject({ code: 'E_BAD_ID' });
    await expect(fx.client.request({ ...base, anchor: 'general', task: 'NOPE' })).rejects.toMatchObject({ code: 'E_UNKNOWN_TASK' });
    await expect(fx.client.request({ ...base, anchor: 'general', repo: 'other-0123abcd' })).rejects.toMatchObject({ code: 'E_UNKNOWN_REPO' });
    await expect(fx.client.request({ type: 'task.approve', repo: fx.repo, task: 'NOPE', digest: `sha256:${'0'.repeat(64)}` })).rejects.toMatchObject({ code: 'E_UNKNOWN_TASK' });
    expect(logBytes()).toBe(before);
    expect(fs.readdirSync(path.join(fx.world.bus, 'annotations', 'T-4'))).toEqual(['0003-0000.json']);
    expect(fs.existsSync(path.join(fx.world.bus, 'annotations', 'NOPE'))).toBe(false);
  });

  it('COUNCIL-WIRE-1: task.council runs the council in-process (stand-in evaluator) and acks once the verdict file is written', async () => {
    const ack = await fx.client.request({ type: 'task.council', repo: fx.repo, task: 'T-4' });
    expect(ack.result).toMatchObject({ task: 'T-4', verdict: 'PASS' });
    const file = JSON.parse(fs.readFileSync(path.join(fx.world.bus, 'council', 'T-4.json'), 'utf8'));
    expect(file.votes.map((v: { vote: string }) => v.vote)).toEqual(['PASS', 'PASS', 'FAIL']);
    await fx.bus.event('council_verdict', 'T-4');
    fx.world.write('inbox/T-9.md', packet({ id: 'T-9' }));
    await fx.bus.task(fx.repo, 'T-9');
    await expect(fx.client.request({ type: 'task.council', repo: fx.repo, task: 'T-9' })).rejects.toMatchObject({ code: 'E_CONFLICT' });
  });

  it('DETAIL-WIRE-1: task.detail returns the packet body and annotations with file names; task.timeline that task\'s events', async () => {
    const detail = await fx.client.request({ type: 'task.detail', repo: fx.repo, task: 'T-4' });
    const d = detail.result as { body: string; annotations: Array<{ file: string }>; summary: { id: string }; checks: Array<{ label: string; ok: boolean | null }> };
    expect(d.summary.id).toBe('T-4');
    expect(d.body).toContain('# T-4 title');
    expect(d.body).not.toContain('scope:');
    expect(d.annotations.map((a) => a.file)).toEqual(['0003-0000.json']);
    // One row per configured check (the shipped default file); none has run for this task.
    expect(d.checks.length).toBeGreaterThan(0);
    expect(d.checks.every((c) => c.ok === null)).toBe(true);
    const timeline = await fx.client.request({ type: 'task.timeline', repo: fx.repo, task: 'T-4' });
    const names = (timeline.result as { events: Array<{ event: { event: string; task: string } }> }).events.map((e) => e.event.event);
    expect(names).toEqual(['task_claimed', 'approval_requested', 'task_annotation', 'council_verdict']);
  });

  it('ANNOT-6: task.detail flags a note that came with the repository (git tracks it), never the person\'s own beside it', async () => {
    fx.world.write('inbox/T-6.md', `${packet({ id: 'T-6' })}\n# T-6 title\n`);
    await fx.bus.task(fx.repo, 'T-6');
    const hostile = fx.world.write('annotations/T-6/0001-0000.json', JSON.stringify({ task: 'T-6', turn: 1, anchor: 'general', ts: '2026-01-01T00:00:00.000Z', author: 'human', body: 'from the clone', consumed: false }));
    fx.world.git(['add', '-f', path.relative(fx.world.repo, hostile)]);
    fx.world.git(['commit', '-q', '--no-verify', '-m', 'a note in the repository']);
    expect(fx.world.tool('annotate-write', ['--bus', fx.world.bus, '--task', 'T-6', '--turn', '1', '--body', 'mine']).code).toBe(0);
    const detail = await fx.client.request({ type: 'task.detail', repo: fx.repo, task: 'T-6' });
    const notes = (detail.result as { annotations: Array<{ file: string; fromRepository?: boolean; annotation: { body: string } }> }).annotations;
    expect(notes.map((n) => [n.file, n.annotation.body, n.fromRepository ?? false])).toEqual([
      ['0001-0000.json', 'from the clone', true],
      ['0001-0001.json', 'mine', false],
    ]);
    // The Inbox card's unread count is the person's note alone.
    await fx.bus.task(fx.repo, 'T-6', (t) => t.annotations.total === 1 && t.annotations.unconsumed === 1);
    // A note nobody committed that is a symbolic link is not counted either.
    fs.symlinkSync(path.join(fx.world.bus, 'annotations', 'T-6', '0001-0001.json'), path.join(fx.world.bus, 'annotations', 'T-6', '0001-0002.json'));
    fx.world.write('annotations/T-6/0001-0003.json', JSON.stringify({ task: 'T-6', turn: 1, anchor: 'general', ts: '2026-01-01T00:00:00.000Z', author: 'human', body: 'mine too', consumed: false }));
    await fx.bus.task(fx.repo, 'T-6', (t) => t.annotations.total === 2 && t.annotations.unconsumed === 2);
  });
});
