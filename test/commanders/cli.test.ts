// `commandr commanders …` against a relay running as a real child process
// (`bin/commandr serve`), through the local admin API and its credential file.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_ADAPTER_DIR } from './relay-fixture';

const ROOT = path.resolve(__dirname, '../..');
const BIN = path.join(ROOT, 'bin', 'commandr');

let tmp: string;
let dataDir: string;
let allowed: string;
let relay: ChildProcess;
let env: NodeJS.ProcessEnv;

function cli(...args: string[]) {
  const r = spawnSync(BIN, ['commanders', ...args, '--data', dataDir], { env, encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function until<T>(check: () => T | undefined, what: string, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'commanders.cjs'))) throw new Error('run `node scripts/build.mjs` first');
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cmdr-cli-')));
  dataDir = path.join(tmp, 'data');
  allowed = path.join(tmp, 'allowed');
  fs.mkdirSync(path.join(allowed, 'memos'), { recursive: true });
  fs.mkdirSync(path.join(dataDir, 'adapters'), { recursive: true });
  fs.symlinkSync(FAKE_ADAPTER_DIR, path.join(dataDir, 'adapters', 'fake'));
  env = { ...process.env, COMMANDR_AGENT_ADAPTER: 'fake', FAKE_ADAPTER_HOME: tmp, COMMANDR_HOME: dataDir, COMMANDR_URL: '' };
  relay = spawn(BIN, ['serve', '--port', '0', '--data', dataDir, '--allow-root', allowed, '--no-demo', '--app-dir', path.join(tmp, 'no-app')], {
    env: { ...env, AGENTS_INDEX_REPOS: path.join(tmp, 'registry') }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  relay.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  await until(() => (/listening: /.test(out) ? true : undefined), 'the relay to listen');
});

afterAll(async () => {
  if (relay.exitCode === null) {
    relay.kill('SIGTERM');
    await new Promise((r) => relay.once('exit', r));
  }
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('commandr commanders', () => {
  it('CMDR-CLI-1: start, list, say, log, replace and delete a commander from the command line', async () => {
    const started = cli('start', 'Voice memos', path.join(allowed, 'memos'));
    expect(started.stderr).toBe('');
    expect(started.code).toBe(0);
    const id = /started: (c-[a-z0-9]+)/.exec(started.stdout)![1]!;
    const dir = path.join(dataDir, 'commanders', id);
    const record = () => JSON.parse(fs.readFileSync(path.join(dir, 'commander.json'), 'utf8')) as { status: string; session: string | null };
    await until(() => (record().status === 'idle' ? true : undefined), 'the first turn');
    expect(cli('list').stdout).toMatch(new RegExp(`${id}\\s+idle\\s+Voice memos`));
    expect(cli('say', id, 'FAKE:not-ready', 'which', 'folder?').code).toBe(0);
    await until(() => (record().status === 'waiting' ? true : undefined), 'the waiting turn');
    expect(cli('list').stdout).toContain('waiting   Voice memos (which folder?)');
    expect(cli('log', id).stdout).toContain('echo: FAKE:not-ready which folder?');
    const session = record().session;
    expect(cli('replace', id).code).toBe(0);
    await until(() => (record().status === 'idle' && record().session !== session ? true : undefined), 'the replacement session');
    expect(cli('delete', id).stdout).toBe(`deleted: ${id}\n`);
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('CMDR-CLI-1: bad input and unknown ids get clear errors and non-zero exits', async () => {
    const outside = cli('start', 'x', '/etc');
    expect(outside.code).toBe(1);
    expect(outside.stderr).toMatch(/E_BAD_PATH: reference path "\/etc" resolves to \/etc, outside the allowed roots/);
    expect(cli('say', 'c-unknown123', 'hi').stderr).toMatch(/E_NOT_FOUND/);
    expect(cli('frobnicate').code).toBe(2);
    // The API itself: a body that is not the command's names the command and the field, and changes nothing.
    const url = (JSON.parse(fs.readFileSync(path.join(dataDir, 'relay.json'), 'utf8')) as { url: string }).url;
    const admin = fs.readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
    const post = (sub: string, body: string) => fetch(`${url}/api/local/commanders/${sub}`, {
      method: 'POST', headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }, body,
    }).then(async (r) => ({ status: r.status, body: ((await r.json()) as { error: { code: string; message: string } }).error }));
    const before = cli('list').stdout;
    const wrong = await post('say', JSON.stringify({ commander: 42, text: 'hi' }));
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'E_BAD_FRAME' });
    expect(wrong.body.message).toMatch(/^commanders say: commander: /);
    const torn = await post('start', '{"name": "x", ');
    expect(torn.status).toBe(400);
    expect(torn.body.message).toMatch(/JSON/i);
    expect(cli('list').stdout).toBe(before);
  });

  it('CMDR-CLI-2: a wrong credential is refused; with no relay running the CLI says so', async () => {
    const goodToken = fs.readFileSync(path.join(dataDir, 'hook-token'), 'utf8');
    const url = (JSON.parse(fs.readFileSync(path.join(dataDir, 'relay.json'), 'utf8')) as { url: string }).url;
    const res = await fetch(`${url}/api/local/commanders`, { headers: { authorization: 'Bearer nope' } });
    expect(res.status).toBe(401);
    expect(goodToken.length).toBeGreaterThan(30);
    relay.kill('SIGTERM');
    await new Promise((r) => relay.once('exit', r));
    const down = cli('list');
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/the relay is not running/);
    fs.writeFileSync(path.join(dataDir, 'relay.json'), JSON.stringify({ url }));
    expect(cli('list').stderr).toMatch(new RegExp(`the relay at ${url} is not running or not reachable \\(ECONNREFUSED\\)`));
  });
});
