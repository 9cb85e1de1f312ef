// Commander turns run in the same sandbox as jobs (SANDBOX-8), through the real commanders
// service: a probe adapter (a real executable) reports what it can reach, then runs the fake one.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadOrCreateSigningKey } from '../../bus/approval/keys';
import { Commanders } from '../../relay/commanders/service';
import { ScopedTokens } from '../../relay/live/scoped-tokens';
import { FAKE_ADAPTER_RUN, outputText, settled, untilState } from '../commanders/helpers';

let tmp: string;
let dataDir: string;
let commanders: Commanders;
const tokens = new ScopedTokens();

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-cmdr-')));
  dataDir = path.join(tmp, 'data');
  fs.mkdirSync(path.join(tmp, 'allowed', 'memos'), { recursive: true });
  fs.mkdirSync(path.join(tmp, 'home'));
  loadOrCreateSigningKey(dataDir);
  const probe = path.join(tmp, 'probe-run');
  fs.writeFileSync(probe, `#!/usr/bin/env bash
echo "sandbox=\${COMMANDR_SANDBOX:-none}"
if cat ${JSON.stringify(path.join(dataDir, 'approval', 'private.pem'))} >/dev/null 2>&1; then echo key=readable; else echo key=hidden; fi
if echo tampered >> commander.json 2>/dev/null; then echo record=writable; else echo record=read-only; fi
if echo mine > mine.txt; then echo dir=writable; fi
echo "scoped=\${COMMANDR_HOOK_TOKEN:0:3}"
exec ${JSON.stringify(FAKE_ADAPTER_RUN)}
`, { mode: 0o755 });
  commanders = new Commanders({
    dataDir,
    allowedRoots: () => [path.join(tmp, 'allowed')],
    adapter: () => ({ name: 'probe', run: probe }),
    broadcast: () => undefined,
    env: { HOME: path.join(tmp, 'home'), FAKE_ADAPTER_HOME: path.join(tmp, 'home') },
    tokens,
  });
});
afterEach(async () => {
  await commanders.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('sandboxed commander turns', () => {
  it('SANDBOX-8: a commander turn runs sandboxed: key hidden, its record read-only, its own directory writable, its own credential revoked after the turn', async () => {
    const v = commanders.create('memos', path.join(tmp, 'allowed', 'memos'));
    expect((await untilState(commanders, v.id, settled)).status).toBe('idle');
    const out = outputText(commanders, v.id);
    expect(out).toContain('sandbox=bwrap');
    expect(out).toContain('key=hidden');
    expect(out).toContain('record=read-only');
    expect(out).toContain('dir=writable');
    expect(out).toContain('scoped=cj_');
    expect(fs.readFileSync(path.join(dataDir, 'commanders', v.id, 'commander.json'), 'utf8')).not.toContain('tampered');
    expect(fs.readFileSync(path.join(dataDir, 'commanders', v.id, 'mine.txt'), 'utf8')).toBe('mine\n');
    expect(tokens.size).toBe(0);
  });
});
