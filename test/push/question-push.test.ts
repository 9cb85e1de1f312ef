// A question's (or permission request's) notification does not outlive it (ASK-9, PERM-UI-5): once it is answered on
// another device, times out or is withdrawn, the relay sends a quiet push with the same tag
// and no buttons, which replaces it. Real relay, real long-polling asker (the hook
// credential, as `commandr mcp` asks), the local RFC 8030/8291 push service.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PushPayload } from '../../protocol/wire/push';
import { connectDevice, postJson, type DeviceClient } from '../helpers/device';
import type { ReceivedPush } from '../stand-ins/push-service';
import { ask as askPermission, askBody } from '../permissions/helpers';
import { type PushDevice, type PushWorld, pushDevice, startPushWorld } from './fixture';

let pw: PushWorld;
let pocket: PushDevice;
let desk: DeviceClient;

beforeAll(async () => {
  pw = await startPushWorld(['T-1']);
  pocket = await pushDevice(pw.relay, pw.endpoint, 'Pixel in a pocket', false);
  desk = await connectDevice(pw.relay, 'Desk');
});

afterAll(async () => {
  await pocket?.client.close();
  await desk?.close();
  await pw?.cleanup();
});

const auth = () => ({ authorization: `Bearer ${fs.readFileSync(path.join(pw.dataDir, 'hook-token'), 'utf8').trim()}` });

/** Asks as the MCP server does (long-poll); resolves when the request is settled. */
function ask(extra: Record<string, unknown>): { key: string; settled: Promise<unknown> } {
  const key = `q-${crypto.randomBytes(10).toString('hex')}`;
  const body = { kind: 'question', key, task: 'T-1', cwd: pw.world.repo, timeoutMs: 60_000, question: 'Which port?', choices: ['8080', '9090'], ...extra };
  return { key, settled: postJson(pw.relay, '/api/questions', body, auth()) };
}

const byTag = (key: string, settled: boolean) => (p: ReceivedPush) =>
  p.subscription === pocket.sub.id && (p.payload as PushPayload).tag === `question:${key}` && ((p.payload as PushPayload).quiet === true) === settled;

describe('a settled question replaces its notification', () => {
  it('ASK-9: answered on another device, the pocket phone\'s notification becomes a quiet "Answered by Desk" with no buttons, same tag and topic', async () => {
    const { key, settled } = ask({});
    const first = await pw.endpoint.waitFor(byTag(key, false));
    expect((first.payload as PushPayload).actions.map((a) => a.action)).toEqual(['choice-0', 'choice-1']);
    await desk.request({ type: 'question.answer', request: key, via: 'choice', choice: 1 });
    await settled;
    const after = await pw.endpoint.waitFor(byTag(key, true));
    expect(PushPayload.safeParse(after.payload).success).toBe(true);
    expect(after.payload).toMatchObject({ kind: 'permission_request', title: 'Answered by Desk · T-1', body: 'Which port?', actions: [], quiet: true });
    expect(after.topic).toBe(first.topic);
  });

  it('ASK-9: withdrawn by its asker, the notification says so; an action approval that times out says it was denied', async () => {
    const withdrawn = ask({});
    await pw.endpoint.waitFor(byTag(withdrawn.key, false));
    expect((await postJson(pw.relay, '/api/questions/cancel', { key: withdrawn.key }, auth())).status).toBe(200);
    expect((await pw.endpoint.waitFor(byTag(withdrawn.key, true))).payload).toMatchObject({ title: 'Withdrawn: the agent stopped waiting · T-1', actions: [] });

    const approval = ask({ kind: 'approval', action: 'deploy to staging', reason: 'tests pass', timeoutMs: 1_000, question: undefined, choices: undefined });
    await pw.endpoint.waitFor(byTag(approval.key, false));
    expect((await pw.endpoint.waitFor(byTag(approval.key, true))).payload).toMatchObject({ title: 'Denied: no answer in time · T-1', body: 'deploy to staging', actions: [] });
    await approval.settled;
  });

  it('PERM-UI-5: a permission request allowed on another device is replaced the same way: "Allowed by Desk", quiet, no buttons', async () => {
    const body = askBody({ cwd: pw.world.repo, summary: 'touch made.txt' });
    const decided = askPermission(pw.relay, body);
    const first = await pw.endpoint.waitFor((p) => p.subscription === pocket.sub.id && (p.payload as PushPayload).tag.startsWith('permission:') && !(p.payload as PushPayload).quiet);
    const request = (first.payload as PushPayload).data.request!;
    expect((first.payload as PushPayload).actions.map((a) => a.action)).toEqual(['allow', 'deny']);
    await desk.request({ type: 'permission.decide', request, decision: 'allow' });
    expect((await decided).body.decision).toBe('allow');
    const after = await pw.endpoint.waitFor((p) => p.subscription === pocket.sub.id && (p.payload as PushPayload).tag === `permission:${request}` && (p.payload as PushPayload).quiet === true);
    expect(after.payload).toMatchObject({ title: 'Allowed by Desk · Bash', body: 'touch made.txt', actions: [], quiet: true });
    expect(after.topic).toBe(first.topic);
  });
});
