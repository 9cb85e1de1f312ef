// OCJOB-1: a headless OpenCode job reports its tool use whatever the checkout holds. The REAL
// `opencode run` runs through the opencode adapter's `run` against the OpenAI-compatible stand-in,
// in a repo where nothing is wired or committed: the plugin travels with the job's inline config,
// so the relay gets the live events and the bus the checkpoint and session_end.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenAiChat } from '../stand-ins/openai-chat';
import {
  adapterBin, busEvents, cleanup, eventually, git, makeRepo, OPENCODE_BIN, opencodeEnv, runProcess, tempDir, type Home, type TestRelay,
} from '../adapters/harness';
import { planChat } from '../adapters/opencode-script';
import { openCodeWorld, wire } from '../adapters/world';

let api: OpenAiChat;
let relay: TestRelay;
let h: Home;

beforeAll(async () => {
  // No repo here: each test makes its own.
  ({ api, h, relay } = await openCodeWorld({ repo: false }));
  tmp = tempDir('commandr-ocjob-tmp-');
});

afterAll(cleanup);

// The jobs' temp root is this file's own: other files run OpenCode jobs at the same time, and their
// private dirs in the shared temp dir would look like one of ours left behind.
let tmp: string;
const jobDirs = () => fs.readdirSync(tmp).filter((n) => n.startsWith('commandr-opencode-')).sort();

async function job(repo: string, task: string, agent: string, file: string): Promise<string> {
  planChat(api, [{ name: 'bash', arguments: { command: `touch ${file}`, description: 'make the file' } }], 'job finished');
  const ran = await runProcess(adapterBin('opencode', 'run'), [], {
    cwd: repo,
    env: opencodeEnv(h, api.url, {
      COMMANDR_OPENCODE_BIN: OPENCODE_BIN, AGENT_CWD: repo, AGENT_PROMPT: 'make the file', AGENT_MODE: 'work', AGENT_COMMANDS: 'touch',
      COMMANDR_TASK: task, COMMANDR_AGENT_ID: agent, TMPDIR: tmp,
    }),
    timeoutMs: 200_000,
  });
  expect(ran.code, ran.stderr).toBe(0);
  expect(fs.existsSync(path.join(repo, file))).toBe(true);
  return /^SESSION: (\S+)$/m.exec(ran.stdout)![1]!;
}

async function reported(bus: string, session: string, task: string, agent: string): Promise<string[]> {
  await eventually(() => busEvents(bus).some((e) => e.event === 'session_end' && (e as { session?: string }).session === session) || undefined, 30_000, 'session_end on the bus');
  await eventually(() => relay.live().some((e) => e.session === session && e.kind === 'end') || undefined, 30_000, 'the end live event');
  expect(busEvents(bus).some((e) => e.event === 'task_progress' && e.task === task && e.agent === agent)).toBe(true);
  expect(busEvents(bus).filter((e) => e.event === 'session_end' && (e as { session?: string }).session === session)).toHaveLength(1);
  const mine = relay.live().filter((e) => e.session === session);
  expect(mine.every((e) => e.task === task && e.agent === agent)).toBe(true);
  return mine.map((e) => `${e.kind}${e.running ? ':running' : ''}`);
}

describe('opencode job hooks', () => {
  it('OCJOB-1: an OpenCode job in a repo with nothing wired or committed posts its tool events, idle and end, checkpoints and ends on the bus', { timeout: 300_000 }, async () => {
    const { repo, bus } = makeRepo();
    git(repo, 'checkout', '-q', '-b', 'agent/T-ocjob');
    expect(git(repo, 'ls-files', '.opencode', 'opencode.json')).toBe('');
    expect(fs.existsSync(path.join(repo, '.opencode'))).toBe(false);
    const before = jobDirs();
    const session = await job(repo, 'T-ocjob', 'opencode-job-1', 'oc-job-made.txt');
    expect(await reported(bus, session, 'T-ocjob', 'opencode-job-1')).toEqual(['command:running', 'command', 'idle', 'end']);
    // Nothing was written into the checkout to get there, and the job's private plugin dir is gone.
    expect(fs.existsSync(path.join(repo, '.opencode', 'plugin'))).toBe(false);
    expect(jobDirs().filter((d) => !before.includes(d))).toEqual([]);
  });

  it('OCJOB-1: a job in a repo that is also wired reports each event once', { timeout: 300_000 }, async () => {
    const { repo, bus } = makeRepo();
    const wired = await wire('opencode', repo);
    expect(wired.code, wired.stderr).toBe(0);
    expect(fs.existsSync(path.join(repo, '.opencode', 'plugin', 'commandr.js'))).toBe(true);
    git(repo, 'checkout', '-q', '-b', 'agent/T-ocjob-wired');
    const session = await job(repo, 'T-ocjob-wired', 'opencode-job-2', 'oc-job-wired.txt');
    expect(await reported(bus, session, 'T-ocjob-wired', 'opencode-job-2')).toEqual(['command:running', 'command', 'idle', 'end']);
  });
});
