// FIRST-7: the socket's frame schema is built in steps, the event loop getting a turn between them.
import { afterEach, describe, expect, it, vi } from 'vitest';
// Evaluated up front, so the steps below time the loader's own turns, not module loading.
import '../../protocol/wire/frames';

afterEach(() => vi.restoreAllMocks());

describe('loadServerFrame', () => {
  it('FIRST-7: builds the frame schema in steps, each after a turn of the event loop, and then parses frames', async () => {
    // A fresh copy of the module, whatever another test in this process loaded before.
    vi.resetModules();
    const { loadServerFrame, serverFrameSchema } = await import('./wire-schema');
    const turns = vi.spyOn(globalThis, 'setTimeout');
    expect(serverFrameSchema()).toBeNull();
    const loading = loadServerFrame();
    expect(loadServerFrame()).toBe(loading);
    const schema = await loading;
    expect(turns.mock.calls.filter(([, ms]) => !ms).length).toBeGreaterThanOrEqual(5);
    expect(serverFrameSchema()).toBe(schema);
    expect(schema.safeParse({ type: 'auth.challenge', nonce: 'n'.repeat(32), relay: { version: '1' } }).success).toBe(true);
    expect(schema.safeParse({ type: 'no.such.frame' }).success).toBe(false);
  });
});
