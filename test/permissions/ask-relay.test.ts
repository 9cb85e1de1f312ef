// The hook's relay client (adapters/lib/permission-ask.ts) against a real relay
// that restarts, or goes away for good, while the hook is waiting.
import * as http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { askRelay } from '../../adapters/lib/permission-ask';
import { connectDevice } from '../helpers/device';
import { askBody, startTestRelay, tempDir } from './helpers';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

describe('the hook waiting on the relay', () => {
  it('PERM-7: the relay restarts while the hook waits: the hook retries with the same key and gets the decision', async () => {
    const dataDir = tempDir('commandr-perm-ask-', cleanups);
    const first = await startTestRelay(dataDir);
    const phone1 = await connectDevice(first, 'phone');
    const env = { COMMANDR_HOME: dataDir, COMMANDR_URL: first.url };
    const answer = askRelay(askBody({ timeoutMs: 30_000 }), env);
    const { request } = await phone1.next('permission.request');
    await first.close();
    http.globalAgent.destroy(); // the helper's pairing POST must not reuse a socket of the old relay
    const second = await startTestRelay(dataDir, first.port);
    cleanups.push(() => second.close());
    const phone2 = await connectDevice(second, 'phone again');
    cleanups.push(() => phone2.close());
    // The retried long-poll finds the same request (it is not created twice).
    await phone2.request({ type: 'subscribe' });
    await phone2.request({ type: 'permission.decide', request: request.id, decision: 'allow', reason: 'go ahead' });
    expect(await answer).toMatchObject({ decision: 'allow', by: 'phone again' });
  });

  it('PERM-HOOK-3: the relay goes away for good after the ask: the hook denies at the timeout with the readable reason', async () => {
    const dataDir = tempDir('commandr-perm-ask-', cleanups);
    const relay = await startTestRelay(dataDir);
    const phone = await connectDevice(relay, 'phone');
    const started = Date.now();
    const answer = askRelay(askBody({ timeoutMs: 1000 }), { COMMANDR_HOME: dataDir, COMMANDR_URL: relay.url });
    await phone.next('permission.request');
    await relay.close();
    const result = await answer;
    expect(result).toMatchObject({ decision: 'deny', by: null });
    expect(result!.reason).toMatch(/^No one answered on the phone within 1 s/);
    expect(Date.now() - started).toBeLessThan(8000);
  });
});
