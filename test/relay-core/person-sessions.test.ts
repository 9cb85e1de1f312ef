// JOBTOKEN-5: the sessions the person's own credential named outlive a relay restart, so a run
// started after one cannot take a session of the person's before it reports again.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hookTokenFile } from '../../relay/live/hook-token';
import { PERSON_SESSIONS_FILE, scopedTokensOf } from '../../relay/live/scoped-tokens';
import type { Logger } from '../../relay/options';
import { cleanup, startRelay, tempDir, type TestRelay } from './setup';

afterEach(cleanup);

function post(relay: TestRelay, token: string, body: unknown): Promise<Response> {
  return fetch(`${relay.url}/api/events`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
}
const event = (session: string) => ({ v: 1, session, kind: 'other', summary: 'hello' });

function aRun(relay: TestRelay): string {
  return scopedTokensOf(relay.services).issue({ owner: 'j-000000000001', task: 'T-1', agent: 'probe', roots: [tempDir()] });
}

describe('the person\'s sessions across a restart', () => {
  it('JOBTOKEN-5: a session the relay-wide credential named is still the person\'s after a restart: a run started then may not name it, and may name its own', async () => {
    const first = await startRelay();
    const person = fs.readFileSync(hookTokenFile(first.dataDir), 'utf8').trim();
    expect((await post(first, person, event('person-0001'))).status).toBe(202);
    expect((await post(first, person, event('person-0002'))).status).toBe(202);

    const second = await first.restart();
    const run = aRun(second);
    for (const session of ['person-0001', 'person-0002']) {
      const res = await post(second, run, event(session));
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(new RegExp(`may not speak for session "${session}"`));
    }
    expect(second.services.live.recent('person-0001')).toEqual([]);
    expect((await post(second, run, event('run-0001'))).status).toBe(202);
    // The person's credential still speaks for them, and a run's session is not kept as theirs.
    expect((await post(second, person, event('person-0001'))).status).toBe(202);
    const third = await second.restart();
    expect((await post(third, aRun(third), event('run-0001'))).status).toBe(202);
  });

  it('JOBTOKEN-5: a kept list that cannot be read is said once at start, and the relay starts as with none', async () => {
    const dataDir = tempDir();
    fs.chmodSync(dataDir, 0o700);
    fs.writeFileSync(path.join(dataDir, PERSON_SESSIONS_FILE), '{"v":1,"sessions":["torn');
    const warnings: string[] = [];
    const logger: Logger = { info: () => undefined, warn: (m) => warnings.push(m), error: () => undefined };
    const relay = await startRelay({ dataDir, logger });
    expect(warnings).toEqual([expect.stringMatching(new RegExp(`${PERSON_SESSIONS_FILE} is not a list of sessions`))]);
    expect((await post(relay, aRun(relay), event('person-0001'))).status).toBe(202);
    expect(warnings).toHaveLength(1);
  });
});
