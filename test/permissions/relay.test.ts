// The relay side of permission requests against a real relay and real paired
// devices over `ws`: shown to every device, first decision wins, expiry, session
// grants, restart while the hook waits, audit log, push per request.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PermissionService } from '../../relay/permissions/service';
import { readAudit } from '../../relay/permissions/audit';
import type { Relay } from '../../relay/server';
import { connectDevice, type DeviceClient, openSocket, WireFrameError, signAction, newActionId } from '../helpers/device';
import { ask, askBody, startTestRelay, tempDir } from './helpers';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function relayWithDevices(n: number): Promise<{ relay: Relay; devices: DeviceClient[]; dataDir: string }> {
  const dataDir = tempDir('commandr-perm-', cleanups);
  const relay = await startTestRelay(dataDir);
  cleanups.push(() => relay.close());
  const devices: DeviceClient[] = [];
  for (let i = 0; i < n; i++) {
    const d = await connectDevice(relay, `phone ${i + 1}`);
    cleanups.push(() => d.close());
    devices.push(d);
  }
  return { relay, devices, dataDir };
}

const decideError = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p;
  } catch (error) {
    if (error instanceof WireFrameError) return error.code;
    throw error;
  }
  throw new Error('the decision was accepted');
};

describe('permission requests on the relay', () => {
  it('PERM-1: only the hook credential may ask, and a malformed ask is refused by name', async () => {
    const { relay } = await relayWithDevices(0);
    const wrong = await ask(relay, askBody(), 'not-the-token');
    expect(wrong.status).toBe(401);
    expect(wrong.body.error?.code).toBe('E_UNAUTHORIZED');
    const bad = await ask(relay, { ...askBody(), key: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.code).toBe('E_BAD_FRAME');
  });

  it('PERM-10: with no paired device the ask is refused at once (E_UNAVAILABLE), so the hook leaves the decision to the agent', async () => {
    const { relay } = await relayWithDevices(0);
    const started = Date.now();
    const answer = await ask(relay, askBody());
    expect(answer.status).toBe(503);
    expect(answer.body.error?.code).toBe('E_UNAVAILABLE');
    expect(Date.now() - started).toBeLessThan(10_000); // at once, not after the ask's 30 s: a bound a loaded machine keeps
  });

  it('PERM-2: a request reaches every paired device, and permission.list follows subscribe', async () => {
    const { relay, devices } = await relayWithDevices(2);
    const waiting = ask(relay, askBody({ summary: 'touch shown.txt' }));
    const [a, b] = await Promise.all(devices.map((d) => d.next('permission.request', (f) => f.request.summary === 'touch shown.txt')));
    expect(a!.request.status).toBe('pending');
    expect(b!.request.id).toBe(a!.request.id);
    const late = await connectDevice(relay, 'late phone');
    cleanups.push(() => late.close());
    const listed = late.next('permission.list');
    await late.request({ type: 'subscribe' });
    expect((await listed).requests.map((r) => r.id)).toContain(a!.request.id);
    await devices[0]!.request({ type: 'permission.decide', request: a!.request.id, decision: 'deny' });
    expect((await waiting).body.decision).toBe('deny');
  });

  it('PERM-3: two devices answer at once: exactly one decision applies, the other gets E_CONFLICT', async () => {
    const { relay, devices } = await relayWithDevices(2);
    const waiting = ask(relay, askBody());
    const { request } = await devices[0]!.next('permission.request');
    const results = await Promise.allSettled([
      devices[0]!.request({ type: 'permission.decide', request: request.id, decision: 'allow' }),
      devices[1]!.request({ type: 'permission.decide', request: request.id, decision: 'deny' }),
    ]);
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(ok).toHaveLength(1);
    expect(refused.map((r) => (r.reason as WireFrameError).code)).toEqual(['E_CONFLICT']);
    const answer = (await waiting).body;
    const winner = results[0]!.status === 'fulfilled' ? 'allow' : 'deny';
    expect(answer.decision).toBe(winner);
    const final = await devices[1]!.next('permission.request', (f) => f.request.status !== 'pending');
    expect(final.request.status).toBe(winner === 'allow' ? 'allowed' : 'denied');
  });

  it('PERM-4: a decision for an unknown request is E_NOT_FOUND; a bad signature is refused and changes nothing', async () => {
    const { relay, devices } = await relayWithDevices(1);
    const phone = devices[0]!;
    expect(await decideError(phone.request({ type: 'permission.decide', request: 'perm-00000000000000000000', decision: 'allow' }))).toBe('E_NOT_FOUND');
    const waiting = ask(relay, askBody());
    const { request } = await phone.next('permission.request');
    const signed = signAction(phone.device!, { type: 'permission.decide', id: newActionId(), request: request.id, decision: 'allow' });
    const forged = { ...signed, decision: 'allow-session' };
    expect(await decideError(phone.requestRaw(forged))).toBe('E_UNAUTHORIZED');
    expect((relay.services.permissions as PermissionService).get(request.id)!.status).toBe('pending');
    const again = await openSocket(relay, phone.device); // a bad signature may cost the socket
    cleanups.push(() => again.close());
    await again.request({ type: 'permission.decide', request: request.id, decision: 'deny', reason: 'not now' });
    const answer = (await waiting).body;
    expect(answer.decision).toBe('deny');
    expect(answer.reason).toContain('not now');
  });

  it('PERM-5: no answer within the timeout denies with a readable reason; the request shows expired and cannot be decided', async () => {
    const { relay, devices } = await relayWithDevices(1);
    const started = Date.now();
    const answer = await ask(relay, askBody({ timeoutMs: 1000 }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(answer.body.decision).toBe('deny');
    expect(answer.body.reason).toMatch(/No one answered on the phone within 1 s/);
    const expired = await devices[0]!.next('permission.request', (f) => f.request.status === 'expired');
    expect(await decideError(devices[0]!.request({ type: 'permission.decide', request: expired.request.id, decision: 'allow' }))).toBe('E_EXPIRED');
  });

  it('PERM-6: allow-for-session auto-allows the same session, tool and exact command only', async () => {
    const { relay, devices } = await relayWithDevices(1);
    const phone = devices[0]!;
    const first = ask(relay, askBody({ session: 'S1', exact: 'touch made.txt' }));
    const { request } = await phone.next('permission.request');
    await phone.request({ type: 'permission.decide', request: request.id, decision: 'allow-session' });
    expect((await first).body.decision).toBe('allow');
    phone.clear();
    const again = await ask(relay, askBody({ session: 'S1', exact: 'touch made.txt' }));
    expect(again.body.decision).toBe('allow');
    expect(again.body.reason).toMatch(/for this session/);
    const otherSession = ask(relay, askBody({ session: 'S2', exact: 'touch made.txt' }));
    const otherCommand = ask(relay, askBody({ session: 'S1', exact: 'touch other.txt', summary: 'touch other.txt' }));
    const pending = [await phone.next('permission.request'), await phone.next('permission.request')];
    expect(pending.map((p) => p.request.status)).toEqual(['pending', 'pending']);
    for (const p of pending) await phone.request({ type: 'permission.decide', request: p.request.id, decision: 'deny' });
    expect((await otherSession).body.decision).toBe('deny');
    expect((await otherCommand).body.decision).toBe('deny');
  });

  it('PERM-7: after a relay restart the retried long-poll with the same key gets the decision', async () => {
    const dataDir = tempDir('commandr-perm-', cleanups);
    const first = await startTestRelay(dataDir);
    const body = askBody({ timeoutMs: 60_000 });
    const phone1 = await connectDevice(first, 'phone');
    const waiting = ask(first, body).catch((error: unknown) => error);
    const { request } = await phone1.next('permission.request');
    await first.close();
    await waiting; // the hook's connection dropped with the relay
    const second = await startTestRelay(dataDir);
    cleanups.push(() => second.close());
    const retried = ask(second, body);
    const phone2 = await connectDevice(second, 'phone again');
    cleanups.push(() => phone2.close());
    const listed = phone2.next('permission.list');
    await phone2.request({ type: 'subscribe' });
    expect((await listed).requests.find((r) => r.id === request.id)?.status).toBe('pending');
    await phone2.request({ type: 'permission.decide', request: request.id, decision: 'allow' });
    const answer = await retried;
    expect(answer.body).toMatchObject({ id: request.id, decision: 'allow' });
    expect(fs.existsSync(path.join(dataDir, 'permissions', `${request.id}.json`))).toBe(true);
  });

  it('PERM-8: every request and decision is in audit.jsonl (who, when, what); nothing is written to a bus', async () => {
    const { relay, devices, dataDir } = await relayWithDevices(1);
    const waiting = ask(relay, askBody({ summary: 'touch audited.txt' }));
    const { request } = await devices[0]!.next('permission.request');
    await devices[0]!.request({ type: 'permission.decide', request: request.id, decision: 'allow' });
    await waiting;
    const lines = readAudit(dataDir).filter((l) => l.request === request.id);
    expect(lines.map((l) => l.kind)).toEqual(['permission.request', 'permission.decision']);
    expect(lines[0]).toMatchObject({ tool: 'Bash', summary: 'touch audited.txt' });
    expect(lines[1]).toMatchObject({ decision: 'allow', by: { device: devices[0]!.device!.id, name: 'phone 1' } });
    expect(Date.parse(lines[1]!.at)).toBeGreaterThan(0);
  });

  it('PERM-9: each request sends one push (Allow/Deny) and each outcome is a line in the session timeline; PERM-UI-5: the decision replaces the push quietly', async () => {
    const { relay, devices } = await relayWithDevices(1);
    const pushed: unknown[] = [];
    relay.services.push!.notify = (payload) => { pushed.push(payload); };
    const waiting = ask(relay, askBody({ session: 'timeline-1' }));
    const { request } = await devices[0]!.next('permission.request');
    expect(pushed).toEqual([expect.objectContaining({ kind: 'permission_request', actions: [{ action: 'allow', title: 'Allow' }, { action: 'deny', title: 'Deny' }] })]);
    await devices[0]!.request({ type: 'permission.decide', request: request.id, decision: 'allow' });
    await waiting;
    // PERM-UI-5: and one more, quiet and without buttons, replacing it once decided.
    expect(pushed).toEqual([expect.anything(), expect.objectContaining({ tag: `permission:${request.id}`, title: 'Allowed by phone 1 · Bash', actions: [], quiet: true })]);
    const live = await devices[0]!.next('live.event', (f) => f.event.session === 'timeline-1');
    expect(live.event.summary).toMatch(/^Permission allowed: touch made.txt/);
    expect(relay.services.live.recent('timeline-1').length).toBe(1);
  });
});
