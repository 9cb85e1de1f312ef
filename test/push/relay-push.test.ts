// Push through the real relay: signed push.subscribe from a paired ws device, the
// triggers produced by real bus activity (bin tools, the installed gate, bin/council),
// and what the local push service (RFC 8030/8291/8292 stand-in) decrypts.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendEvent } from '../../bus/event-log';
import { topicFor } from '../../relay/push/sender';
import { PushService } from '../../relay/push/push-service';
import { DEFAULT_PREFS } from '../../relay/push/store';
import { bundleCli } from '../council/fixtures';
import { connectDevice } from '../helpers/device';
import { repoIdFor } from '../relay-watch/fixture';
import type { ReceivedPush } from '../stand-ins/push-service';
import { type PushDevice, type PushWorld, blockedCommit, claimNext, claimedPacket, pushDevice, startPushWorld, startRelayOn } from './fixture';

let pw: PushWorld;
let phone: PushDevice;
let watcher: PushDevice;
let repo: string;
let repoName: string;

beforeAll(async () => {
  pw = await startPushWorld(['T-1', 'T-2', 'T-3', 'T-4', 'T-5', 'T-6', 'T-7', 'T-8', 'T-9', 'T-10']);
  repo = repoIdFor(pw.world.repo);
  repoName = path.basename(pw.world.repo);
  phone = await pushDevice(pw.relay, pw.endpoint, 'Pixel in a pocket', false);
  watcher = await pushDevice(pw.relay, pw.endpoint, 'Laptop looking', true);
  await watcher.client.request({ type: 'subscribe' });
});

afterAll(async () => {
  await phone?.client.close();
  await watcher?.client.close();
  await pw?.cleanup();
});

const push = () => pw.relay.services.push as PushService;
const payloadOf = (p: ReceivedPush) => p.payload as { kind: string; tag: string; title: string; body: string; data: Record<string, string> };
const forTask = (sub: string, task: string, kind?: string) => (p: ReceivedPush) =>
  p.subscription === sub && payloadOf(p).data.task === task && (kind === undefined || payloadOf(p).kind === kind);

describe('push through the relay', () => {
  it('PUSH-1: GET /api/push/key answers the VAPID public key kept in the data dir', async () => {
    const res = await fetch(`${pw.relay.url}/api/push/key`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { publicKey: string };
    const saved = JSON.parse(fs.readFileSync(path.join(pw.dataDir, 'push', 'vapid.json'), 'utf8')) as { publicKey: string };
    expect(body).toEqual({ publicKey: saved.publicKey });
    expect(Buffer.from(body.publicKey, 'base64url')).toHaveLength(65);
  });

  it('PUSH-2: push.subscribe stores the signing device\'s subscription; device.list shows it; push.prefs needs one', async () => {
    const stored = JSON.parse(fs.readFileSync(path.join(pw.dataDir, 'push', 'subscriptions.json'), 'utf8')) as Record<string, { subscription: { endpoint: string } }>;
    expect(stored[phone.client.device!.id]!.subscription.endpoint).toBe(phone.sub.json.endpoint);
    expect((fs.statSync(path.join(pw.dataDir, 'push', 'subscriptions.json')).mode & 0o777)).toBe(0o600);
    const list = (await phone.client.request({ type: 'device.list' })).result as { devices: { id: string; push: boolean }[] };
    expect(list.devices.find((d) => d.id === phone.client.device!.id)!.push).toBe(true);
    const other = await connectDevice(pw.relay, 'never subscribed');
    await expect(other.request({ type: 'push.prefs', prefs: DEFAULT_PREFS })).rejects.toMatchObject({ code: 'E_NOT_FOUND' });
    await expect(other.request({ type: 'push.subscribe', subscription: { ...phone.sub.json, endpoint: 'http://insecure.invalid/x' }, prefs: DEFAULT_PREFS }))
      .rejects.toMatchObject({ code: 'E_BAD_FRAME' });
    await other.close();
  });

  it('PUSH-3: a real gate block (git commit through the installed hook) reaches the push endpoint as an approval naming the task, with counts', async () => {
    const task = claimNext(pw.world);
    blockedCommit(pw.world, task, { 'README.md': 'hello\nworld\nagain\n', 'notes.txt': 'one\ntwo\n' });
    const got = await pw.endpoint.waitFor(forTask(phone.sub.id, task, 'approval_requested'));
    const requested = pw.world.events().find((e) => e.event === 'approval_requested' && e.task === task)!;
    expect(got.payload).toEqual({
      v: 1, kind: 'approval_requested', tag: `task:${repo}:${task}`,
      title: `Approve ${task} in ${repoName}?`, body: '2 files changed · +4 −0',
      url: `/task?repo=${repo}&id=${task}`,
      actions: [{ action: 'approve', title: 'Approve' }, { action: 'deny', title: 'Deny' }],
      data: { repo, task, digest: requested.digest },
    });
    expect(got.topic).toBe(topicFor(`task:${repo}:${task}`));
    expect(got.urgency).toBe('high');
    expect(got.text).not.toContain('world');
    expect(got.text).not.toContain(String(requested.worktree));
  });

  it('PUSH-5: a device with the app visible gets the live bus.events frame and no push', async () => {
    const task = claimNext(pw.world);
    blockedCommit(pw.world, task, { 'README.md': 'visible\n' });
    await watcher.client.waitFor((f) => f.type === 'bus.events' && JSON.stringify(f).includes('"approval_requested"') && JSON.stringify(f).includes(`"${task}"`), 'live approval');
    await pw.endpoint.waitFor(forTask(phone.sub.id, task));
    await push().settled();
    expect(pw.endpoint.for(watcher.sub.id)).toEqual([]);
  });

  it('PUSH-3: a council verdict from bin/council names the failing dimensions', async () => {
    const task = claimNext(pw.world);
    const evaluator = path.join(pw.world.dir, 'evaluator.cjs');
    fs.writeFileSync(evaluator, `#!${process.execPath}\nconsole.log(process.argv[3] === 'acceptance-criteria' ? 'VOTE: PASS' : 'VOTE: FAIL');\n`, { mode: 0o755 });
    execFileSync(process.execPath, [await bundleCli('council'), claimedPacket(pw.world, task)], { env: { ...pw.world.env, COUNCIL_EVALUATOR_CMD: evaluator } });
    const got = await pw.endpoint.waitFor(forTask(phone.sub.id, task, 'council_verdict'));
    expect(got.payload).toMatchObject({ title: `Council FAIL · ${task} in ${repoName}`, body: 'Failed: code-quality, style', actions: [], url: `/task?repo=${repo}&id=${task}` });
  });

  it('UX-7: a verdict no reviewer could vote on (every evaluator failing) sends no push; the next trigger for the task still does', async () => {
    const task = claimNext(pw.world);
    const evaluator = path.join(pw.world.dir, 'broken-evaluator.cjs');
    fs.writeFileSync(evaluator, `#!${process.execPath}\nprocess.exit(3);\n`, { mode: 0o755 });
    execFileSync(process.execPath, [await bundleCli('council'), claimedPacket(pw.world, task)], { env: { ...pw.world.env, COUNCIL_EVALUATOR_CMD: evaluator } });
    expect(pw.world.events().find((e) => e.event === 'council_verdict' && e.task === task)).toMatchObject({ verdict: 'FAIL', abstentions: 3 });
    expect(pw.world.tool('complete', [claimedPacket(pw.world, task), 'pass']).code).toBe(0);
    // Triggers are handled in log order: once the later push is in, the verdict's would have been too.
    await pw.endpoint.waitFor(forTask(phone.sub.id, task, 'task_done'));
    await push().settled();
    expect(pw.endpoint.received.filter((p) => p.subscription === phone.sub.id && payloadOf(p).data.task === task).map((p) => payloadOf(p).kind)).toEqual(['task_done']);
  });

  it('PUSH-3: bin/complete and a task_failed line say the task finished or failed; the later push replaces the earlier (same tag and topic)', async () => {
    const done = claimNext(pw.world);
    expect(pw.world.tool('complete', [claimedPacket(pw.world, done), 'pass']).code).toBe(0);
    const finished = await pw.endpoint.waitFor(forTask(phone.sub.id, done, 'task_done'));
    expect(finished.payload).toMatchObject({ title: `${done} finished in ${repoName}`, body: 'Done: acceptance criteria met.', tag: `task:${repo}:${done}` });
    const failed = claimNext(pw.world);
    blockedCommit(pw.world, failed, { 'README.md': 'about to fail\n' });
    const approval = await pw.endpoint.waitFor(forTask(phone.sub.id, failed, 'approval_requested'));
    appendEvent(pw.world.bus, { event: 'task_failed', task: failed, agent: 'h_test', reason: 'the agent process was killed' });
    const gone = await pw.endpoint.waitFor(forTask(phone.sub.id, failed, 'task_done'));
    expect(gone.payload).toMatchObject({ title: `${failed} failed in ${repoName}`, body: 'the agent process was killed' });
    expect(payloadOf(gone).tag).toBe(payloadOf(approval).tag);
    expect(gone.topic).toBe(approval.topic);
  });

  it('PUSH-2: a 410 from the push service removes that subscription; device.list then shows push off', async () => {
    const expired = await pushDevice(pw.relay, pw.endpoint, 'old browser', false);
    pw.endpoint.expire(expired.sub.id);
    const task = claimNext(pw.world);
    expect(pw.world.tool('progress', [task, 'not a trigger']).code).toBe(0);
    expect(pw.world.tool('complete', [claimedPacket(pw.world, task), 'fail']).code).toBe(0);
    await pw.endpoint.waitFor(forTask(phone.sub.id, task));
    await push().settled();
    expect(pw.endpoint.rejected.filter((r) => r.subscription === expired.sub.id).map((r) => r.status)).toEqual([410]);
    expect(push().hasDevice(expired.client.device!.id)).toBe(false);
    const list = (await expired.client.request({ type: 'device.list' })).result as { devices: { id: string; push: boolean }[] };
    expect(list.devices.find((d) => d.id === expired.client.device!.id)!.push).toBe(false);
    expect(pw.endpoint.received.filter((p) => p.subscription === phone.sub.id && payloadOf(p).data.task === task)).toHaveLength(1);
    await expired.client.close();
  });

  it('PUSH-2: failures are retried a bounded number of times; a revoked device gets nothing and its subscription is deleted', async () => {
    const flaky = await pushDevice(pw.relay, pw.endpoint, 'flaky', false);
    const broken = await pushDevice(pw.relay, pw.endpoint, 'broken', false);
    const revoked = await pushDevice(pw.relay, pw.endpoint, 'lost phone', false);
    pw.endpoint.failNext(flaky.sub.id, 503);
    pw.endpoint.failNext(broken.sub.id, 500, 500, 500, 500, 500, 500);
    await phone.client.request({ type: 'device.revoke', device: revoked.client.device!.id });
    await revoked.client.closed;
    const stored = JSON.parse(fs.readFileSync(path.join(pw.dataDir, 'push', 'subscriptions.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(stored)).not.toContain(revoked.client.device!.id);
    const task = claimNext(pw.world);
    expect(pw.world.tool('complete', [claimedPacket(pw.world, task), 'pass']).code).toBe(0);
    await pw.endpoint.waitFor(forTask(flaky.sub.id, task));
    await pw.endpoint.waitFor(forTask(phone.sub.id, task));
    await push().settled();
    expect(pw.endpoint.rejected.filter((r) => r.subscription === flaky.sub.id)).toHaveLength(1);
    expect(pw.endpoint.rejected.filter((r) => r.subscription === broken.sub.id)).toHaveLength(4);
    expect(pw.endpoint.for(broken.sub.id)).toEqual([]);
    expect(push().hasDevice(broken.client.device!.id)).toBe(true);
    expect(pw.endpoint.for(revoked.sub.id)).toEqual([]);
    for (const d of [flaky, broken]) {
      await d.client.request({ type: 'push.unsubscribe' });
      expect(push().hasDevice(d.client.device!.id)).toBe(false);
      await d.client.close();
    }
  });

  it('PUSH-3: only new events push — a relay restarted over an existing log sends nothing for what was already there', async () => {
    await phone.client.close();
    await watcher.client.close();
    await pw.relay.close();
    const before = pw.endpoint.received.length;
    pw.relay = await startRelayOn(pw.dataDir, pw.world.repo);
    const task = claimNext(pw.world);
    expect(pw.world.tool('complete', [claimedPacket(pw.world, task), 'pass']).code).toBe(0);
    await pw.endpoint.waitFor(forTask(phone.sub.id, task));
    await pw.endpoint.waitFor(forTask(watcher.sub.id, task));
    await (pw.relay.services.push as PushService).settled();
    const after = pw.endpoint.received.slice(before);
    // Both devices are offline now, so both get it — and nothing for the older events.
    expect(after.map((p) => `${p.subscription} ${payloadOf(p).data.task} ${payloadOf(p).kind}`).sort())
      .toEqual([`${phone.sub.id} ${task} task_done`, `${watcher.sub.id} ${task} task_done`].sort());
  });
});
