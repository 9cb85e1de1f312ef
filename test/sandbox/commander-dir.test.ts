// A commander's directory is the agent's to write (SANDBOX-8), so what the relay itself reads or
// writes there by name — CLAUDE.md, spawned — must never lead it outside (CMDR-DIR-3): a hostile
// commander turn, run in the real sandbox, plants links and a FIFO; the relay, outside it, then
// neither reads the approval key into the directory, nor appends to a file outside, nor blocks.
import { spawn, type ChildProcess } from 'node:child_process';
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
let home: string;
let commanders: Commanders;
const children: ChildProcess[] = [];

/** A commander adapter (a real executable, run in the sandbox) that does `hostile` before it answers. */
function probe(hostile: string): string {
  const file = path.join(tmp, 'probe-run');
  fs.writeFileSync(file, `#!/usr/bin/env bash
if [ -f CLAUDE.md ] && grep -q 'PRIVATE KEY' CLAUDE.md; then echo "doc=holds-the-key"; else echo "doc=clean"; fi
if [ -z "\${AGENT_RESUME:-}" ] && [ ! -e planted ]; then : > planted; ${hostile}; fi
exec ${JSON.stringify(FAKE_ADAPTER_RUN)}
`, { mode: 0o755 });
  return file;
}

function start(hostile: string): void {
  const run = probe(hostile);
  commanders = new Commanders({
    dataDir,
    allowedRoots: () => [path.join(tmp, 'allowed')],
    adapter: () => ({ name: 'probe', run }),
    broadcast: () => undefined,
    env: { HOME: home, FAKE_ADAPTER_HOME: home },
    tokens: new ScopedTokens(),
  });
}

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-cmdr-dir-')));
  dataDir = path.join(tmp, 'data');
  home = path.join(tmp, 'home');
  fs.mkdirSync(path.join(tmp, 'allowed', 'memos'), { recursive: true });
  fs.mkdirSync(home);
  fs.writeFileSync(path.join(home, '.bashrc'), '# the person\'s\n');
  loadOrCreateSigningKey(dataDir);
});
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await commanders.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('the relay and a commander directory the agent wrote (CMDR-DIR-3)', () => {
  it('CMDR-DIR-3: a CLAUDE.md linked to the approval key and a spawned linked to a file outside: replacing the session copies no key in and appends nothing outside', async () => {
    const key = path.join(dataDir, 'approval', 'private.pem');
    const bashrc = path.join(home, '.bashrc');
    start(`ln -sf ${JSON.stringify(key)} CLAUDE.md; rm -f spawned; ln -s ${JSON.stringify(bashrc)} spawned`);
    const v = commanders.create('memos', path.join(tmp, 'allowed', 'memos'));
    expect((await untilState(commanders, v.id, settled)).status).toBe('idle');
    const dir = path.join(dataDir, 'commanders', v.id);
    expect(fs.lstatSync(path.join(dir, 'CLAUDE.md')).isSymbolicLink()).toBe(true); // the attack was made, inside the sandbox

    await commanders.replace(v.id);
    await untilState(commanders, v.id, (c) => settled(c) && c.session !== null);
    expect(fs.readFileSync(bashrc, 'utf8')).toBe('# the person\'s\n');
    expect(fs.readFileSync(path.join(dir, 'CLAUDE.md'), 'utf8')).not.toContain('PRIVATE KEY');
    expect(fs.readFileSync(key, 'utf8')).toContain('PRIVATE KEY'); // nothing written through the link either

    // The replacement session's next turn reads its CLAUDE.md: it must not find the key there.
    commanders.message(v.id, 'go on');
    await untilState(commanders, v.id, (c) => settled(c) && c.status !== 'running');
    await untilState(commanders, v.id, () => outputText(commanders, v.id).split('doc=').length >= 4);
    expect(outputText(commanders, v.id)).not.toContain('doc=holds-the-key');
    // The relay rewrote its own document in place of the link, and still records the session.
    expect(fs.lstatSync(path.join(dir, 'CLAUDE.md')).isFile()).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'CLAUDE.md'), 'utf8')).toContain('REPLACEMENT session');
    expect(fs.readFileSync(path.join(dir, 'spawned'), 'utf8').trim().split('\n').length).toBeGreaterThanOrEqual(1);
  });

  it('CMDR-DIR-3: a CLAUDE.md made a FIFO: the relay never opens it (opening one with no writer would block its event loop for good)', async () => {
    start('rm -f CLAUDE.md; mkfifo CLAUDE.md');
    const v = commanders.create('memos', path.join(tmp, 'allowed', 'memos'));
    const fifo = path.join(dataDir, 'commanders', v.id, 'CLAUDE.md');
    // A witness, outside the relay, opening the FIFO for writing once the agent made it: each open
    // returns only when someone opens the FIFO to read, and unblocks a relay that did (so that,
    // without the fix, this test fails instead of hanging with the relay).
    const f = JSON.stringify(fifo);
    const witness = spawn('bash', ['-c', `until [ -p ${f} ]; do sleep 0.01; done; while [ -p ${f} ]; do exec 3>>${f}; echo opened; exec 3>&-; done`], { stdio: ['ignore', 'pipe', 'ignore'] });
    children.push(witness);
    let opened = '';
    witness.stdout!.on('data', (d: Buffer) => (opened += d.toString()));
    // After-turn work (CMDR-REF-3), a reference added from the phone and the next turn all touch CLAUDE.md.
    expect((await untilState(commanders, v.id, settled)).status).toBe('idle');
    expect(fs.lstatSync(fifo).isFIFO()).toBe(true);
    fs.mkdirSync(path.join(tmp, 'allowed', 'more'));
    commanders.addReference(v.id, path.join(tmp, 'allowed', 'more'));
    commanders.message(v.id, 'again');
    await untilState(commanders, v.id, (c) => settled(c) && outputText(commanders, v.id).split('doc=').length >= 3);
    // Everything the witness printed is read once its output has ended.
    await new Promise((resolve) => {
      witness.once('close', resolve);
      witness.kill('SIGKILL');
    });
    expect(opened).toBe('');
    expect(commanders.get(v.id).referencePaths).toContain(path.join(tmp, 'allowed', 'more'));
  });
});
