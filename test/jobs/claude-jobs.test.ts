// Task jobs on the REAL Claude Code CLI (claude adapter `run`) against the Messages
// API stand-in: a work job edits its own worktree and ends done with nothing on the
// bus; a job whose model call fails ends failed with task_failed on the bus.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initRepo } from '../../bus/init';
import { readEvents } from '../../bus/event-log';
import { createRelay, type Relay } from '../../relay/server';
import { repoIdOf } from '../../relay/watch/repo-id';
import { planTurn } from '../adapters/claude-script';
import { connectDevice, type DeviceClient } from '../helpers/device';
import { startMessagesApi, type MessagesApi } from '../stand-ins/messages-api';

const ROOT = path.resolve(__dirname, '../..');
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

let api: MessagesApi;
let relay: Relay;
let phone: DeviceClient;
let tmp: string;
let repo: string;
let bus: string;
let repoId: string;

beforeAll(async () => {
  api = await startMessagesApi({ apiKey: 'sk-test' });
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'jobs-claude-')));
  repo = path.join(tmp, 'repo');
  fs.mkdirSync(repo);
  fs.mkdirSync(path.join(tmp, 'home'));
  git(repo, 'init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(repo, 'README.md'), 'hello\n');
  git(repo, 'add', 'README.md');
  git(repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'init');
  bus = initRepo(repo, { gateBin: '/bin/false', registryFile: path.join(tmp, 'registry') }).bus;
  for (const id of ['T-edit', 'T-broken']) {
    fs.writeFileSync(path.join(bus, 'inbox', `${id}.md`), `---\nid: ${id}\ntype: implementation\nscope: src/**\n---\n# ${id}\n`);
  }
  repoId = repoIdOf(repo);
  Object.assign(process.env, {
    HOME: path.join(tmp, 'home'), ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: 'sk-test', DISABLE_TELEMETRY: '1', DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', CLAUDE_CODE_MAX_RETRIES: '0',
    COMMANDR_CLAUDE_BIN: path.join(ROOT, 'node_modules', '.bin', 'claude'), COMMANDR_AGENT_ADAPTER: 'claude',
  });
  relay = await createRelay({
    port: 0, host: '127.0.0.1', dataDir: path.join(tmp, 'data'), repos: [repo], registryFile: path.join(tmp, 'no-registry'), demo: false,
    appDir: path.join(tmp, 'no-app'),
  });
  phone = await connectDevice(relay);
});

afterAll(async () => {
  await phone?.close();
  await relay?.close();
  await api?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const ended = (job: string) => phone.next('job.state', (f) => f.job === job && f.status !== 'running', 60_000);

describe('task jobs on the real Claude Code CLI', () => {
  it('JOB-1: a work job runs Claude in the agent/<task> worktree, its edit lands there, output is streamed and logged, the bus stays quiet', async () => {
    const worktree = path.join(relay.dataDir, 'worktrees', repoId, 'T-edit');
    planTurn(api, [{ name: 'Write', input: { file_path: path.join(worktree, 'done.txt'), content: 'T-edit done\n' } }], 'Edited done.txt');
    const { job } = (await phone.request({ type: 'task.run', repo: repoId, task: 'T-edit', mode: 'work' })).result as { job: string };
    expect(await ended(job)).toMatchObject({ status: 'done', exitCode: 0 });
    expect(fs.readFileSync(path.join(worktree, 'done.txt'), 'utf8')).toBe('T-edit done\n');
    expect(git(worktree, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('agent/T-edit');
    expect(fs.existsSync(path.join(repo, 'done.txt'))).toBe(false);
    const streamed = phone.received.filter((f) => f.type === 'job.output' && f.job === job).map((f) => f.chunk as string).join('');
    expect(streamed).toMatch(/^SESSION: [0-9a-f-]{36}\n/);
    expect(streamed).toContain('Edited done.txt');
    expect(fs.readFileSync(path.join(relay.dataDir, 'jobs', `${job}.log`), 'utf8')).toContain('Edited done.txt');
    expect(readEvents(bus).events.filter((e) => e.event === 'task_failed')).toEqual([]);
  });

  it('JOB-4: a job whose model calls fail ends failed and task_failed lands on the bus', async () => {
    api.setReply(() => ({ error: { status: 500, type: 'api_error', message: 'stand-in says no' } }));
    const { job } = (await phone.request({ type: 'task.run', repo: repoId, task: 'T-broken', mode: 'work' })).result as { job: string };
    const end = await ended(job);
    expect(end.status).toBe('failed');
    expect(end.exitCode).not.toBe(0);
    expect(readEvents(bus).events.filter((e) => e.event === 'task_failed')).toEqual([
      expect.objectContaining({ task: 'T-broken', agent: `claude-${job}` }),
    ]);
  });
});
