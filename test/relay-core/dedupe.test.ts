import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DedupeStore } from '../../relay/clients/dedupe';
import { resolveOptions } from '../../relay/options';
import { cleanup, tempDir } from './setup';

afterEach(cleanup);

const ok = (result: unknown) => async () => ({ ok: true as const, result });

describe('dedupe store', () => {
  it('DEDUPE-4: answers persist in <dataDir>/dedupe/<device>.jsonl (0600) and are read back by a new store', async () => {
    const dir = path.join(tempDir(), 'dedupe');
    const first = new DedupeStore(dir);
    await first.run('d-0123456789abcdef', 'action-1', ok({ n: 1 }));
    const file = path.join(dir, 'd-0123456789abcdef.jsonl');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    let applied = 0;
    const second = new DedupeStore(dir);
    const answer = await second.run('d-0123456789abcdef', 'action-1', async () => {
      applied += 1;
      return { ok: true, result: { n: 2 } };
    });
    expect(answer).toEqual({ ok: true, result: { n: 1 } });
    expect(applied).toBe(0);
  });

  it('DEDUPE-4: an action started but never finished (relay died) is not applied again on retry', async () => {
    const dir = path.join(tempDir(), 'dedupe');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'd-0123456789abcdef.jsonl'), `${JSON.stringify({ id: 'half', at: Date.now() })}\n{"id":"cut`);
    let applied = 0;
    const store = new DedupeStore(dir);
    const answer = await store.run('d-0123456789abcdef', 'half', async () => {
      applied += 1;
      return { ok: true, result: null };
    });
    expect(applied).toBe(0);
    expect(answer).toMatchObject({ ok: false, error: { code: 'E_INTERNAL' } });
  });

  it('DEDUPE-4: the record is bounded: the newest ids per device are kept, expired ones dropped', async () => {
    const dir = path.join(tempDir(), 'dedupe');
    const store = new DedupeStore(dir, 5, 60_000);
    for (let i = 0; i < 20; i++) await store.run('d-0123456789abcdef', `a-${i}`, ok(i));
    const lines = fs.readFileSync(path.join(dir, 'd-0123456789abcdef.jsonl'), 'utf8').trim().split('\n');
    expect(lines.length).toBeLessThanOrEqual(10 + 2);
    const reread = new DedupeStore(dir, 5, 60_000);
    let applied = 0;
    await reread.run('d-0123456789abcdef', 'a-0', async () => {
      applied += 1;
      return { ok: true, result: 'again' };
    });
    expect(applied).toBe(1); // a-0 aged out of the bounded record
    expect(await reread.run('d-0123456789abcdef', 'a-19', ok('x'))).toEqual({ ok: true, result: 19 });
    const old = new DedupeStore(path.join(tempDir(), 'dedupe'), 5, -1);
    await old.run('d-0123456789abcdef', 'gone', ok(1));
    expect(await new DedupeStore(old.dir, 5, -1).run('d-0123456789abcdef', 'gone', ok(2))).toEqual({ ok: true, result: 2 });
  });
});

describe('options', () => {
  it('SERVE-3: defaults are 127.0.0.1:8787, $COMMANDR_HOME or ~/.commandr, <package>/out; bad values are TypeErrors', () => {
    const o = resolveOptions({});
    expect([o.host, o.port]).toEqual(['127.0.0.1', 8787]);
    expect(o.appDir).toBe(path.resolve(__dirname, '..', '..', 'out'));
    expect(o.demo).toBe(true);
    expect(resolveOptions({ repos: ['/tmp'] }).demo).toBe(false);
    expect(() => resolveOptions({ port: 70000 })).toThrow(TypeError);
    expect(() => resolveOptions({ publicOrigin: 'ftp://x' })).toThrow(/http/);
    expect(resolveOptions({ publicOrigin: 'https://relay.example:8443/some/path' }).publicOrigin).toBe('https://relay.example:8443');
  });
});
