// The relay's push service against the local RFC 8030/8291 push service:
// exact payloads, replace-by-tag, collapse, 410 cleanup, retry bounds, prefs.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, statSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { PushService, type Delivery } from '../../relay/push/push-service';
import { busEventMessage, commanderWaitingMessage, permissionMessage } from '../../relay/push/messages';
import { topicFor } from '../../relay/push/sender';
import { DEFAULT_PREFS } from '../../relay/push/store';
import { PushService as LocalPushService } from '../stand-ins/push-service';

let svc: LocalPushService;
let dirs: string[] = [];
let services: PushService[] = [];
beforeAll(async () => { svc = await new LocalPushService().start(); });
afterAll(() => svc.close());
afterEach(async () => {
  for (const s of services) { await s.settled(); s.close(); }
  services = [];
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function relayPush(opts: Partial<ConstructorParameters<typeof PushService>[0]> = {}) {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'commandr-push-'));
  dirs.push(dataDir);
  const s = new PushService({ dataDir, isVisible: () => false, ca: svc.certificate.cert, collapseMs: 150, backoffMs: 10, ...opts });
  services.push(s);
  return s;
}
const nextDelivery = (s: PushService) => once(s, 'delivery').then(([d]) => d as Delivery);

const approval = { ts: '2026-11-30T12:00:00.000Z', event: 'approval_requested', task: 'T-7', digest: `sha256:${'a'.repeat(64)}`, worktree: '/w/t7', files: 2 };

describe('relay push service', () => {
  it('PUSH-1: VAPID keys are generated once, mode 0600, and reused after a restart', () => {
    const a = relayPush();
    const dataDir = dirs[0];
    const file = join(dataDir, 'push', 'vapid.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const b = relayPush({ dataDir });
    expect(b.publicKey).toBe(a.publicKey);
    expect(JSON.parse(readFileSync(file, 'utf8')).publicKey).toBe(a.publicKey);
  });

  it('PUSH-3: an approval request arrives encrypted with the exact payload, actions and topic', async () => {
    const s = relayPush();
    const sub = svc.subscribe();
    s.subscribe('dev1', sub.json);
    const msg = busEventMessage(approval, { repoId: 'app-0123abcd', repoName: 'app', stats: { files: 2, additions: 10, deletions: 3 } })!;
    s.notify(msg);
    const got = await svc.waitFor((p) => p.subscription === sub.id);
    expect(got.payload).toEqual({
      v: 1, kind: 'approval_requested', tag: 'task:app-0123abcd:T-7',
      title: 'Approve T-7 in app?', body: '2 files changed · +10 −3',
      url: '/task?repo=app-0123abcd&id=T-7',
      actions: [{ action: 'approve', title: 'Approve' }, { action: 'deny', title: 'Deny' }],
      data: { repo: 'app-0123abcd', task: 'T-7', digest: approval.digest },
    });
    expect(got.topic).toBe(topicFor('task:app-0123abcd:T-7'));
    expect(got.urgency).toBe('high');
    expect(got.text).not.toContain('/w/t7');
  });

  it('PUSH-3: council, done, failed, commander and permission triggers say what happened', () => {
    const ctx = { repoId: 'app-0123abcd', repoName: 'app' };
    const verdict = { task: 'T-7', verdict: 'FAIL' as const, ts: 'x', votes: [
      { dimension: 'acceptance-criteria' as const, vote: 'PASS' as const, reason: '' },
      { dimension: 'code-quality' as const, vote: 'FAIL' as const, reason: 'r' },
      { dimension: 'style' as const, vote: 'FAIL' as const, reason: 'r' }] };
    expect(busEventMessage({ ts: 'x', event: 'council_verdict', task: 'T-7', verdict: 'FAIL', evaluator_count: 3, abstentions: 0 }, { ...ctx, verdict }))
      .toMatchObject({ kind: 'council_verdict', title: 'Council FAIL · T-7 in app', body: 'Failed: code-quality, style', actions: [] });
    expect(busEventMessage({ ts: 'x', event: 'task_complete', task: 'T-7', result: 'pass' }, ctx))
      .toMatchObject({ kind: 'task_done', title: 'T-7 finished in app', tag: 'task:app-0123abcd:T-7' });
    expect(busEventMessage({ ts: 'x', event: 'task_failed', task: 'T-7', agent: 'h_1', reason: 'killed' }, ctx))
      .toMatchObject({ kind: 'task_done', title: 'T-7 failed in app', body: 'killed' });
    expect(busEventMessage({ ts: 'x', event: 'task_progress', task: 'T-7', note: 'n' }, ctx)).toBeNull();
    expect(commanderWaitingMessage({ id: 'c-abc123', name: 'Ops', referencePaths: [], created: 'x', session: 's', status: 'waiting', waitingFor: 'NOT READY: need the key', adapter: 'claude' }))
      .toMatchObject({ kind: 'commander_waiting', tag: 'commander:c-abc123', url: '/commander?id=c-abc123', body: 'NOT READY: need the key' });
    expect(permissionMessage({ id: 'p1', session: 's', task: 'T-7', agent: null, repo: null, tool: 'Bash', summary: 'touch x', detail: null, cwd: '/', createdAt: 'x', expiresAt: 'y', status: 'pending', decidedBy: null, reason: null }))
      .toMatchObject({ kind: 'permission_request', actions: [{ action: 'allow', title: 'Allow' }, { action: 'deny', title: 'Deny' }], data: { request: 'p1', task: 'T-7' } });
  });

  it('PUSH-5: a burst for one task collapses to the first and the newest; other tasks are not held back', async () => {
    const s = relayPush({ collapseMs: 300 });
    const sub = svc.subscribe();
    s.subscribe('dev1', sub.json);
    const ctx = { repoId: 'app-0123abcd', repoName: 'app' };
    for (let i = 0; i < 6; i++) s.notify(busEventMessage({ ...approval, files: i + 1 }, ctx)!);
    s.notify(busEventMessage({ ...approval, task: 'T-8' }, ctx)!);
    await svc.waitFor((p) => p.subscription === sub.id && (p.payload as { body: string }).body.startsWith('6 files'));
    await s.settled();
    const bodies = svc.for(sub.id).map((p) => `${(p.payload as { tag: string }).tag} ${(p.payload as { body: string }).body}`);
    expect(bodies.sort()).toEqual(['task:app-0123abcd:T-7 1 file changed', 'task:app-0123abcd:T-7 6 files changed', 'task:app-0123abcd:T-8 2 files changed'].sort());
  });

  it('PUSH-2: a 410 from the push service removes the subscription', async () => {
    const s = relayPush();
    const sub = svc.subscribe();
    s.subscribe('dev1', sub.json);
    svc.expire(sub.id);
    const d = nextDelivery(s);
    s.notify(busEventMessage(approval, { repoId: 'app-0123abcd', repoName: 'app' })!);
    expect((await d).outcome).toMatchObject({ ok: false, gone: true, status: 410 });
    expect(s.hasDevice('dev1')).toBe(false);
  });

  it('PUSH-2: other failures are retried with backoff, at most the configured attempts', async () => {
    const s = relayPush({ attempts: 3 });
    const flaky = svc.subscribe();
    const broken = svc.subscribe();
    s.subscribe('flaky', flaky.json);
    s.subscribe('broken', broken.json);
    svc.failNext(flaky.id, 503);
    svc.failNext(broken.id, 500, 500, 500, 500, 500);
    const seen: Delivery[] = [];
    s.on('delivery', (d: Delivery) => seen.push(d));
    s.notify(busEventMessage(approval, { repoId: 'app-0123abcd', repoName: 'app' })!);
    await svc.waitFor((p) => p.subscription === flaky.id);
    await s.settled();
    expect(seen.find((d) => d.deviceId === 'flaky')!.outcome).toEqual({ ok: true, attempts: 2 });
    expect(seen.find((d) => d.deviceId === 'broken')!.outcome).toMatchObject({ ok: false, gone: false, attempts: 3, status: 500 });
    expect(svc.rejected.filter((r) => r.subscription === broken.id)).toHaveLength(3);
    expect(s.hasDevice('broken')).toBe(true);
  });

  it('PUSH-2: a revoked device gets nothing; neither does a visible one, a kind turned off, or DND', async () => {
    const visible = new Set(['seen']);
    const s = relayPush({ isVisible: (d) => visible.has(d) });
    const subs = Object.fromEntries(['revoked', 'seen', 'muted', 'dnd', 'normal'].map((n) => [n, svc.subscribe()]));
    for (const [n, sub] of Object.entries(subs)) s.subscribe(n, sub.json);
    s.forgetDevice('revoked');
    s.setPrefs('muted', { ...DEFAULT_PREFS, kinds: { ...DEFAULT_PREFS.kinds, approval_requested: false } });
    const now = new Date();
    const hhmm = (d: Date) => `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
    s.setPrefs('dnd', { ...DEFAULT_PREFS, dnd: { start: hhmm(new Date(now.getTime() - 3600_000)), end: hhmm(new Date(now.getTime() + 3600_000)), tzOffsetMinutes: 0 } });
    s.notify(busEventMessage(approval, { repoId: 'app-0123abcd', repoName: 'app' })!);
    await svc.waitFor((p) => p.subscription === subs.normal.id);
    await s.settled();
    for (const n of ['revoked', 'seen', 'muted', 'dnd']) expect(svc.for(subs[n].id), n).toEqual([]);
  });
});
