// OpenCode's readiness (RUNREADY-6, protocol/spec/failures.md): installed is not enough, it needs a
// model provider it can use. One module answers for `commandr doctor` and the relay, read against
// real files in a temp HOME and the real `opencode` binary of this install; the relay refuses
// `task.run` with OpenCode before anything is made when there is none.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentReadiness, noProviderSentence, opencodeHasProvider } from '../../adapters/lib/readiness';
import { doctor } from '../../cli/doctor';
import { jobsWorld, packet } from './fixture';

const OPENCODE = path.resolve(__dirname, '../../node_modules/.bin/opencode');
const SAVED = ['HOME', 'COMMANDR_OPENCODE_BIN', 'OPENCODE_CONFIG_CONTENT', 'OPENCODE_CONFIG', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'OPENROUTER_API_KEY', 'GEMINI_API_KEY'] as const;
const saved = Object.fromEntries(SAVED.map((k) => [k, process.env[k]]));
const world = jobsWorld('opencode-ready-repo-', { 'O-1': packet('O-1') });
let home = '';
const witnesses: ChildProcess[] = [];

beforeEach(() => {
  home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'opencode-ready-home-')));
  for (const k of SAVED) delete process.env[k];
  process.env.HOME = home;
  process.env.COMMANDR_OPENCODE_BIN = OPENCODE;
});
afterEach(() => {
  for (const child of witnesses.splice(0)) child.kill('SIGKILL');
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  fs.rmSync(home, { recursive: true, force: true });
});

const bare = (): Record<string, string | undefined> => ({ HOME: home, COMMANDR_OPENCODE_BIN: OPENCODE, PATH: process.env.PATH });
const write = (file: string, text: string): void => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
};
const STUB = JSON.stringify({ provider: { stub: { npm: '@ai-sdk/openai-compatible', options: { baseURL: 'http://127.0.0.1:9/v1' }, models: { m: {} } } }, model: 'stub/m' });

describe('OpenCode readiness', () => {
  it('RUNREADY-6: installed with no provider anywhere is not ready, with one sentence saying what to do', () => {
    expect(fs.existsSync(OPENCODE)).toBe(true);
    expect(agentReadiness('opencode', bare(), 'vm')).toEqual({ ok: false, reason: 'no-provider', sentence: noProviderSentence('vm') });
    expect(noProviderSentence('vm')).toBe('OpenCode has no model provider on vm. Run `opencode auth login` there, or set a provider\'s API key (e.g. ANTHROPIC_API_KEY) for the relay.');
    // Not a provider: an empty provider list, a config that is not JSON, an empty saved login, an empty key.
    write(path.join(home, '.config', 'opencode', 'opencode.json'), '{"provider":{}}');
    write(path.join(home, '.local', 'share', 'opencode', 'auth.json'), '{}');
    expect(opencodeHasProvider({ ...bare(), OPENCODE_CONFIG_CONTENT: 'not json', OPENAI_API_KEY: ' ' })).toBe(false);
  });

  it('RUNREADY-6: each place OpenCode reads a provider from makes it ready: a key, a saved login, the config in the environment, the global config, the project\'s', () => {
    expect(agentReadiness('opencode', { ...bare(), ANTHROPIC_API_KEY: 'sk-x' })).toEqual({ ok: true });
    expect(agentReadiness('opencode', { ...bare(), OPENROUTER_API_KEY: 'sk-or' })).toEqual({ ok: true });
    expect(agentReadiness('opencode', { ...bare(), OPENCODE_CONFIG_CONTENT: STUB })).toEqual({ ok: true });
    write(path.join(home, 'elsewhere.json'), STUB);
    expect(agentReadiness('opencode', { ...bare(), OPENCODE_CONFIG: path.join(home, 'elsewhere.json') })).toEqual({ ok: true });

    const project = path.join(home, 'code', 'app', 'src');
    fs.mkdirSync(project, { recursive: true });
    expect(opencodeHasProvider(bare(), project)).toBe(false);
    write(path.join(home, 'code', 'app', 'opencode.json'), STUB); // a folder above counts, as OpenCode looks upward
    expect(agentReadiness('opencode', bare(), 'vm', project)).toEqual({ ok: true });
    expect(opencodeHasProvider(bare())).toBe(false); // without the project, that file is not seen

    write(path.join(home, '.local', 'share', 'opencode', 'auth.json'), '{"anthropic":{"type":"api","key":"sk-x"}}');
    expect(agentReadiness('opencode', bare())).toEqual({ ok: true });
    fs.rmSync(path.join(home, '.local'), { recursive: true });
    write(path.join(home, '.config', 'opencode', 'opencode.jsonc'), `// mine\n${STUB}`);
    expect(agentReadiness('opencode', bare())).toEqual({ ok: true });
  });

  it('SANDBOX-18: a FIFO a sandboxed agent left as the project\'s opencode.json or in its OpenCode state dir (auth.json) is never opened: the check answers, not ready', async () => {
    const project = path.join(home, 'project');
    const fifos = [path.join(project, 'opencode.json'), path.join(home, '.local', 'share', 'opencode', 'auth.json')];
    for (const f of fifos) {
      fs.mkdirSync(path.dirname(f), { recursive: true });
      expect(spawnSync('mkfifo', [f]).status).toBe(0);
    }
    // A witness per FIFO, opening it for writing over and over: each open returns only once someone
    // opens the FIFO to read, so it counts the reads and unblocks one (the test fails, not hangs).
    let opened = '';
    for (const f of fifos) {
      const child = spawn('bash', ['-c', `while [ -p ${JSON.stringify(f)} ]; do exec 3>>${JSON.stringify(f)}; echo "opened ${f}"; exec 3>&-; done`], { stdio: ['ignore', 'pipe', 'ignore'] });
      child.stdout!.on('data', (d: Buffer) => (opened += d.toString()));
      witnesses.push(child);
    }
    expect(opencodeHasProvider(bare(), project)).toBe(false);
    expect(agentReadiness('opencode', bare(), 'here', project).ok).toBe(false);
    // Everything a witness printed is read once its output has ended.
    await Promise.all(witnesses.map((child) => new Promise((resolve) => {
      child.once('close', resolve);
      child.kill('SIGKILL');
    })));
    expect(opened).toBe('');
  });

  it('RUNREADY-6: doctor names the missing provider with its fix exactly when the relay would refuse', async () => {
    // doctor asks the binary its version; a stand-in answers at once (the real one can take seconds on a busy machine).
    const stand = path.join(home, 'bin', 'opencode');
    write(stand, '#!/bin/sh\necho 1.18.33\n');
    fs.chmodSync(stand, 0o755);
    const env = { ...bare(), COMMANDR_OPENCODE_BIN: stand, COMMANDR_AGENT_ADAPTER: 'opencode' };
    expect(agentReadiness('opencode', env)).toMatchObject({ ok: false, reason: 'no-provider' });
    const check = (await doctor(env)).find((c) => c.name === 'OpenCode model provider');
    expect(check).toMatchObject({ ok: false, needed: true, fix: expect.stringContaining('opencode auth login') });
    const ready = (await doctor({ ...env, ANTHROPIC_API_KEY: 'sk-x' })).find((c) => c.name === 'OpenCode model provider');
    expect(ready).toMatchObject({ ok: true });
  });

  it('RUNREADY-6: task.run with OpenCode and no provider is refused with E_NOT_READY and the sentence; nothing starts', async () => {
    await expect(world.phone.request({ type: 'task.run', repo: world.repoId, task: 'O-1', mode: 'work', agent: 'opencode' }))
      .rejects.toMatchObject({ code: 'E_NOT_READY', frame: { error: { message: noProviderSentence(os.hostname()) } } });
    expect(fs.existsSync(path.join(world.fx.dataDir, 'worktrees', world.repoId, 'O-1'))).toBe(false);
    expect(world.phone.received.some((f) => f.type === 'job.state')).toBe(false);
  });
});
