import { afterEach, describe, expect, it } from 'vitest';
import { MAX_FRAME_BYTES } from '../../protocol/wire/frames';
import { connectDevice } from '../helpers/device';
import { cleanup, startRelay } from './setup';

afterEach(cleanup);

describe('frames', () => {
  it('WIRE-1: junk frames are each answered E_BAD_FRAME and the socket keeps working', async () => {
    const relay = await startRelay();
    const phone = await connectDevice(relay);
    const junk = ['not json', '[]', '42', 'null', '{"type":"nope","id":"abcdefgh1"}', '{"id":"abcdefgh2"}', '{"type":"device.list"}'];
    for (const raw of junk) phone.send(raw);
    for (const _ of junk) expect((await phone.next('error')).error.code).toBe('E_BAD_FRAME');
    const unknown = phone.received.find((f) => f.type === 'error' && f.id === 'abcdefgh1');
    expect((unknown as { error: { message: string } }).error.message).toMatch(/unknown frame type "nope"/);
    phone.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    expect((await phone.next('error')).error.message).toMatch(/JSON text/);
    await phone.request({ type: 'device.list' });
  });

  it('WIRE-2: hostile ids are refused by the schemas with E_BAD_ID, naming the field', async () => {
    const relay = await startRelay();
    const phone = await connectDevice(relay);
    const digest = `sha256:${'0'.repeat(64)}`;
    const cases = [
      { type: 'task.detail', repo: '../../etc-12345678', task: 'ok' },
      { type: 'task.diff', repo: 'repo-12345678', task: '../secret' },
      { type: 'task.approve', repo: 'repo-12345678', task: '/abs/path', digest },
      { type: 'commander.delete', commander: '../c-aaaaaa' },
    ];
    for (const frame of cases) {
      const error = await phone.request(frame).then(() => undefined, (e: { code: string; message: string }) => e);
      expect(error?.code).toBe('E_BAD_ID');
    }
    const badDigest = await phone.request({ type: 'task.approve', repo: 'repo-12345678', task: 'ok', digest: 'md5:x' }).catch((e) => e);
    expect(badDigest).toMatchObject({ code: 'E_BAD_FRAME', message: expect.stringMatching(/digest/) });
    phone.send({ type: 'device.list', id: 'x/../y' });
    const badActionId = await phone.next('error');
    expect(badActionId).toEqual({ type: 'error', error: { code: 'E_BAD_ID', message: expect.stringMatching(/^id: action id/) } });
  });

  it('WIRE-3: a frame over 1 MiB is E_TOO_LARGE and the socket is closed; others are unaffected', async () => {
    const relay = await startRelay();
    const big = await connectDevice(relay);
    const other = await connectDevice(relay);
    big.send(JSON.stringify({ type: 'device.list', id: 'abcdefgh1', pad: 'x'.repeat(MAX_FRAME_BYTES) }));
    expect((await big.next('error')).error.code).toBe('E_TOO_LARGE');
    expect((await big.closed).code).toBe(1009);
    await other.request({ type: 'device.list' });
  });

  it('WIRE-4: 10,000 junk frames are each answered or the socket closed, and other clients keep being served', async () => {
    const relay = await startRelay();
    const flooder = await connectDevice(relay);
    const other = await connectDevice(relay);
    let sent = 0;
    while (sent < 10_000 && flooder.ws.readyState === flooder.ws.OPEN) {
      flooder.send(sent % 2 ? `junk ${sent}` : `{"type":"task.diff","id":"j${String(sent).padStart(8, '0')}","repo":"..","task":".."}`);
      sent += 1;
    }
    const { code } = await flooder.closed;
    const errors = flooder.received.filter((f) => f.type === 'error');
    // every frame the relay read before closing got exactly one error frame
    expect(errors.every((e) => ['E_BAD_FRAME', 'E_BAD_ID'].includes((e as { error: { code: string } }).error.code))).toBe(true);
    expect(code).toBe(1008);
    expect(errors.length).toBeGreaterThan(0);
    const ack = await other.request({ type: 'device.list' });
    expect(ack.type).toBe('ack');
  });

  it('WIRE-5: a handler that fails unexpectedly answers E_INTERNAL once and the error is logged once', async () => {
    const logged: unknown[] = [];
    const relay = await startRelay({ logger: { info: () => undefined, warn: () => undefined, error: (e) => logged.push(e) } });
    const phone = await connectDevice(relay);
    relay.services.devices.list = () => {
      throw new Error('disk on fire');
    };
    await expect(phone.request({ type: 'device.list' })).rejects.toMatchObject({ code: 'E_INTERNAL' });
    expect(logged).toEqual([expect.objectContaining({ message: 'disk on fire' })]);
    const error = phone.received.find((f) => f.type === 'error') as { error: { message: string } };
    expect(error.error.message).not.toMatch(/disk on fire/);
  });
});
