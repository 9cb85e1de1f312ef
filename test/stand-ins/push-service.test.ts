// The stand-in must reject what a real push service rejects, or tests built on it prove nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from 'node:https';
import webpush from 'web-push';
import { PushService } from './push-service';

let svc: PushService;
beforeAll(async () => { svc = await new PushService().start(); });
afterAll(() => svc.close());

const vapid = webpush.generateVAPIDKeys();
const send = (sub: { endpoint: string; keys: { p256dh: string; auth: string } }, payload: string, details = vapid) =>
  webpush.sendNotification(sub, payload, {
    vapidDetails: { subject: 'mailto:relay@commandr.invalid', publicKey: details.publicKey, privateKey: details.privateKey },
    agent: new Agent({ ca: svc.certificate.cert }),
    TTL: 60,
  });

describe('local push service stand-in', () => {
  it('PUSHSVC-1: decrypts a real web-push aes128gcm send with the subscription keys', async () => {
    const s = svc.subscribe();
    await send(s.json, JSON.stringify({ hello: 'phone' }));
    expect(svc.rejected).toEqual([]);
    expect(svc.for(s.id).map((p) => p.payload)).toEqual([{ hello: 'phone' }]);
    expect(svc.for(s.id)[0].vapidSubject).toBe('mailto:relay@commandr.invalid');
  });

  it('PUSHSVC-2: refuses a body encrypted for another subscription and a forged VAPID signature', async () => {
    const a = svc.subscribe();
    const b = svc.subscribe();
    await expect(send({ endpoint: a.json.endpoint, keys: b.json.keys }, 'x')).rejects.toMatchObject({ statusCode: 400 });
    const other = webpush.generateVAPIDKeys();
    const forged = { publicKey: vapid.publicKey, privateKey: other.privateKey };
    await expect(send(a.json, 'x', forged)).rejects.toMatchObject({ statusCode: 403 });
    expect(svc.for(a.id)).toEqual([]);
  });

  it('PUSHSVC-3: an expired subscription answers 410 Gone', async () => {
    const s = svc.subscribe();
    svc.expire(s.id);
    await expect(send(s.json, 'x')).rejects.toMatchObject({ statusCode: 410 });
  });
});
