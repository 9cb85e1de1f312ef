// The relay keeps the latest result per check per task (CHECKS-5), fed by real live events
// posted over HTTP with the hook credential, one row per configured check.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { postLive } from '../../adapters/lib/live-post';
import type { LiveEvent } from '../../protocol/live-events';
import { cleanup, makeHome, startRelay } from './harness';

afterAll(cleanup);

describe('check results in the relay', () => {
  it('CHECKS-5: the relay keeps the latest result per configured check per task; running and other events do not count', async () => {
    const { commandrHome } = makeHome();
    const { relay } = await startRelay(commandrHome);
    const env = { COMMANDR_HOME: commandrHome };
    const check = (fields: Partial<LiveEvent>): LiveEvent => ({ v: 1, session: 's-1', kind: 'check', summary: 'tests: npm test', cmd: 'npm test', label: 'tests', task: 'T-9', ...fields });
    expect(await postLive(check({ ok: false }), env)).toBe('sent');
    expect(await postLive(check({ running: true }), env)).toBe('sent');
    expect(await postLive(check({ ok: true, task: 'T-other' }), env)).toBe('sent');
    expect(await postLive({ v: 1, session: 's-1', kind: 'command', summary: 'ls', task: 'T-9' }, env)).toBe('sent');
    let rows = relay.services.checks!.latest('any', 'T-9');
    expect(rows.map((r) => r.label)).toEqual(['tests', 'typecheck', 'lint']);
    expect(rows[0]).toMatchObject({ label: 'tests', ok: false, cmd: 'npm test' });
    expect(rows[1]).toMatchObject({ label: 'typecheck', ok: null, at: '' });
    expect(await postLive(check({ ok: true }), env)).toBe('sent');
    expect(relay.services.checks!.latest('any', 'T-9')[0]!.ok).toBe(true);
    // The configured list is read fresh: a local checks file replaces the default.
    fs.writeFileSync(path.join(commandrHome, 'checks'), 'unit: ^python3 -m unittest\n');
    rows = relay.services.checks!.latest('any', 'T-9');
    expect(rows.map((r) => r.label)).toEqual(['unit', 'tests']);
  });
});
