// The relay as its own OS user (SBXDEF-7, docs/relay-user.md): a real second user made with
// useradd runs a relay-like process that makes its signing key in a 0700 data dir it owns, and an
// agent process of the person's user cannot read it. The contrast (relay run as the person) shows
// the same read succeeding, so the test fails if the separation does not hold. Root only.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = process.getuid?.() === 0;
const canUseradd = root && spawnSync('sh', ['-c', 'command -v useradd && command -v userdel && command -v setpriv'], { encoding: 'utf8' }).status === 0;
const suffix = `${process.pid}${Math.floor(Math.random() * 1e4)}`.slice(-8);
const RELAY_USER = `cmdrrly${suffix}`;
const PERSON = `cmdrprs${suffix}`;

/** The relay: makes the data dir 0700 and the key 0600, says `ready`, holds until stdin closes. */
const RELAY_JS = `
const fs = require('fs'), path = require('path'), crypto = require('crypto');
const dir = process.argv[1];
fs.mkdirSync(path.join(dir, 'approval'), { recursive: true, mode: 0o700 });
fs.chmodSync(dir, 0o700);
const { privateKey } = crypto.generateKeyPairSync('ed25519');
fs.writeFileSync(path.join(dir, 'approval', 'private.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
process.stdout.write('ready ' + process.getuid() + '\\n');
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));`;

/** The agent: tries to read the key, prints what happened. */
const AGENT_JS = `
try { const t = require('fs').readFileSync(process.argv[1], 'utf8'); process.stdout.write(t.includes('PRIVATE KEY') ? 'READ' : 'EMPTY'); }
catch (e) { process.stdout.write(e.code); }`;

let base = '';
const uid: Record<string, number> = {};
const started: ChildProcess[] = [];

function asUser(user: string): string[] {
  return ['setpriv', `--reuid=${uid[user]}`, `--regid=${uid[user]}`, '--clear-groups', '--'];
}

/** Starts the relay-like process as `user`; resolves when it said ready (bounded by a deadline). */
function startRelay(user: string, dataDir: string): Promise<{ uid: number }> {
  const [cmd, ...args] = [...asUser(user), process.execPath, '-e', RELAY_JS, dataDir];
  const child = spawn(cmd!, args, { stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: process.env.PATH, HOME: '/nonexistent' } as unknown as NodeJS.ProcessEnv });
  started.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`relay as ${user} did not say ready: ${err}`)), 20_000);
    child.stderr!.on('data', (d) => { err += d; });
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /ready (\d+)\n/.exec(out);
      if (m) { clearTimeout(timer); resolve({ uid: Number(m[1]) }); }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`relay as ${user} exited ${code}: ${err}`)); });
  });
}

function agentReads(user: string, file: string): string {
  const [cmd, ...args] = [...asUser(user), process.execPath, '-e', AGENT_JS, file];
  const r = spawnSync(cmd!, args, { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: '/nonexistent' } as unknown as NodeJS.ProcessEnv, timeout: 20_000 });
  return r.stdout.trim() || `status ${r.status}: ${r.stderr}`;
}

describe.skipIf(!canUseradd)('relay as its own OS user', () => {
  beforeAll(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'commandr-relayuser-'));
    fs.chmodSync(base, 0o755); // both users may pass through; the data dirs decide
    for (const user of [RELAY_USER, PERSON]) {
      const made = spawnSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', '--user-group', user], { encoding: 'utf8' });
      expect(made.status, made.stderr).toBe(0);
      uid[user] = Number(spawnSync('id', ['-u', user], { encoding: 'utf8' }).stdout.trim());
    }
  });

  afterAll(() => {
    for (const child of started) child.stdin?.end();
    for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
    for (const user of [RELAY_USER, PERSON]) spawnSync('userdel', [user]);
    if (base) fs.rmSync(base, { recursive: true, force: true });
  });

  it('SBXDEF-7: the person\'s agent cannot read the key of a relay running as its own user; as the person\'s own relay it can', async () => {
    const own = path.join(base, 'relay-home');
    fs.mkdirSync(own, { mode: 0o700 });
    fs.chownSync(own, uid[RELAY_USER]!, uid[RELAY_USER]!);
    expect((await startRelay(RELAY_USER, own)).uid).toBe(uid[RELAY_USER]);
    const key = path.join(own, 'approval', 'private.pem');
    expect(fs.statSync(own).mode & 0o777).toBe(0o700);
    expect(fs.statSync(key).uid).toBe(uid[RELAY_USER]);
    expect(agentReads(RELAY_USER, key)).toBe('READ'); // the relay itself can
    expect(agentReads(PERSON, key)).toBe('EACCES');   // the person's agent cannot

    // The same relay run as the person: the agent reads the key (what SBXDEF-7 prevents).
    const shared = path.join(base, 'person-home');
    fs.mkdirSync(shared, { mode: 0o700 });
    fs.chownSync(shared, uid[PERSON]!, uid[PERSON]!);
    await startRelay(PERSON, shared);
    expect(agentReads(PERSON, path.join(shared, 'approval', 'private.pem'))).toBe('READ');
  });
});

if (!canUseradd) {
  describe('relay as its own OS user', () => {
    it.skip(`SBXDEF-7: skipped: needs root with useradd, userdel and setpriv (running as uid ${process.getuid?.()})`, () => {});
  });
}
