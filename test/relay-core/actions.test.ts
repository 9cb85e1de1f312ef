import { afterEach, describe, expect, it } from 'vitest';
import { DEVICE_HEADER } from '../../protocol/wire/http';
import { connectDevice, newActionId, openSocket, signAction, type DeviceClient } from '../helpers/device';
import { cleanup, startRelay } from './setup';

afterEach(cleanup);

const renameFrame = (client: DeviceClient, name: string, extra: { ts?: number } = {}) =>
  signAction(client.device!, { type: 'device.rename', id: newActionId(), device: client.device!.id, name, ...extra });

const nameOf = (ack: { result?: unknown }) => (ack.result as { device: { name: string } }).device.name;

describe('signed actions', () => {
  it('DEDUPE-1: a replayed action returns the first result and is applied once', async () => {
    const relay = await startRelay();
    const phone = await connectDevice(relay, 'phone');
    const first = renameFrame(phone, 'first');
    expect(nameOf(await phone.requestRaw(first))).toBe('first');
    await phone.request({ type: 'device.rename', device: phone.device!.id, name: 'second' });
    const replay = await phone.requestRaw(first);
    expect(nameOf(replay)).toBe('first');
    expect(relay.services.devices.get(phone.device!.id)?.name).toBe('second');
  });

  it('DEDUPE-1: the same action sent twice at once is applied once', async () => {
    const relay = await startRelay();
    const phone = await connectDevice(relay);
    const frame = renameFrame(phone, 'once');
    let applied = 0;
    const rename = relay.services.devices.rename.bind(relay.services.devices);
    relay.services.devices.rename = (id, name) => {
      applied += 1;
      return rename(id, name);
    };
    phone.send(frame);
    phone.send(frame);
    const answers = [await phone.next('ack', (a) => a.id === frame.id), await phone.next('ack', (a) => a.id === frame.id)];
    expect(answers.map(nameOf)).toEqual(['once', 'once']);
    expect(applied).toBe(1);
  });

  it('DEDUPE-2: an action whose ts is more than 30 s off is E_REPLAY and not applied', async () => {
    const relay = await startRelay();
    const phone = await connectDevice(relay, 'phone');
    for (const ts of [Date.now() - 31_000, Date.now() + 31_000]) {
      await expect(phone.requestRaw(renameFrame(phone, 'stale', { ts }))).rejects.toMatchObject({ code: 'E_REPLAY' });
    }
    expect(relay.services.devices.get(phone.device!.id)?.name).toBe('phone');
  });

  it('DEDUPE-3: an action retried after a reconnect is applied once', async () => {
    const relay = await startRelay();
    const phone = await connectDevice(relay, 'phone');
    const first = renameFrame(phone, 'first');
    await phone.requestRaw(first);
    await phone.request({ type: 'device.rename', device: phone.device!.id, name: 'second' });
    await phone.close();
    const again = await openSocket(relay, phone.device);
    expect(nameOf(await again.requestRaw(first))).toBe('first');
    expect(relay.services.devices.get(phone.device!.id)?.name).toBe('second');
    await again.close();
  });

  it('DEDUPE-4: an action retried after a relay restart is applied once', async () => {
    let relay = await startRelay();
    const phone = await connectDevice(relay, 'phone');
    const first = renameFrame(phone, 'first');
    await phone.requestRaw(first);
    await phone.request({ type: 'device.rename', device: phone.device!.id, name: 'second' });
    relay = await relay.restart();
    const again = await openSocket(relay, phone.device);
    expect(nameOf(await again.requestRaw(first))).toBe('first');
    expect(relay.services.devices.get(phone.device!.id)?.name).toBe('second');
    await again.close();
  });

  it('DEDUPE-2: an error answer is remembered too', async () => {
    const relay = await startRelay();
    const phone = await connectDevice(relay);
    const frame = signAction(phone.device!, { type: 'device.rename', id: newActionId(), device: 'd-0000000000000000', name: 'x' });
    await expect(phone.requestRaw(frame)).rejects.toMatchObject({ code: 'E_NOT_FOUND' });
    await expect(phone.requestRaw(frame)).rejects.toMatchObject({ code: 'E_NOT_FOUND' });
  });

  it('AUTH-5: an action signed by another key is E_UNAUTHORIZED, not applied, and the socket closed', async () => {
    const relay = await startRelay();
    const phone = await connectDevice(relay, 'phone');
    const other = await connectDevice(relay, 'other');
    const forged = signAction(other.device!, { type: 'device.rename', id: newActionId(), device: phone.device!.id, name: 'pwned' });
    await expect(phone.requestRaw(forged)).rejects.toMatchObject({ code: 'E_UNAUTHORIZED' });
    expect((await phone.closed).code).toBe(1008);
    expect(relay.services.devices.get(phone.device!.id)?.name).toBe('phone');
    // a signature over a changed field does not verify either
    const tampered = { ...signAction(other.device!, { type: 'device.rename', id: newActionId(), device: other.device!.id, name: 'a' }), name: 'b' };
    await expect(other.requestRaw(tampered)).rejects.toMatchObject({ code: 'E_UNAUTHORIZED' });
  });

  it('HTTP-6: POST /api/action verifies, dedupes and answers with the ack frame', async () => {
    const relay = await startRelay();
    const phone = await connectDevice(relay, 'phone');
    const frame = renameFrame(phone, 'from-sw');
    const post = (body: unknown, headers: Record<string, string> = { [DEVICE_HEADER]: phone.device!.id }) =>
      fetch(`${relay.url}/api/action`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const ok = await post(frame);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ type: 'ack', id: frame.id, result: { device: expect.objectContaining({ name: 'from-sw' }) } });
    await phone.request({ type: 'device.rename', device: phone.device!.id, name: 'later' });
    const replay = await post(frame);
    expect(nameOf((await replay.json()) as { result: unknown })).toBe('from-sw');
    expect(relay.services.devices.get(phone.device!.id)?.name).toBe('later');
    expect((await post(frame, {})).status).toBe(401);
    const read = await post({ type: 'device.list', id: newActionId() });
    expect(read.status).toBe(400);
    const stale = await post(renameFrame(phone, 'x', { ts: Date.now() - 60_000 }));
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as { error: { code: string } }).error.code).toBe('E_REPLAY');
  });
});
