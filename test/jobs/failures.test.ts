// Failures a person can act on (protocol/spec/failures.md) through the real relay and the real
// claude adapter: readiness is checked before anything starts; a run that fails the way the real
// Claude Code fails when not logged in (its recorded output, printed by a fake `claude`) says why in
// one sentence, is kept across a relay restart, and a Retry that succeeds forgets it.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readEvents } from '../../bus/event-log';
import { explainFailure } from '../../relay/jobs/failure';
import { agentReadiness, councilReadiness, notLoggedInSentence } from '../../adapters/lib/readiness';
import { doctor } from '../../cli/doctor';
import { connectDevice } from '../helpers/device';
import { jobsWorld, packet } from './fixture';
import { loggedOutClaude } from '../stand-ins/logged-out-claude';

const RECORDED = path.join(__dirname, 'recorded');
const SAVED = ['HOME', 'COMMANDR_CLAUDE_BIN', 'ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN', 'COUNCIL_EVALUATOR_CMD'] as const;
const saved = Object.fromEntries(SAVED.map((k) => [k, process.env[k]]));

const world = jobsWorld('failures-repo-', { 'T-1': packet('T-1') });
let home = '';


beforeEach(() => {
  home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'failures-home-')));
  for (const k of SAVED) delete process.env[k];
  process.env.HOME = home;
  process.env.COMMANDR_CLAUDE_BIN = loggedOutClaude(home);
});
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  fs.rmSync(home, { recursive: true, force: true });
});

/** A saved login Claude Code no longer accepts: readiness passes, the CLI says "Not logged in". */
const staleLogin = () => {
  fs.mkdirSync(path.join(home, '.claude'), { recursive: true });
  fs.writeFileSync(path.join(home, '.claude', '.credentials.json'), '{"claudeAiOauth":{"accessToken":"expired"}}\n');
};
const ended = (job: string) => world.phone.next('job.state', (f) => f.job === job && f.status !== 'running', 30_000);
const run = async () => ((await world.phone.request({ type: 'task.run', repo: world.repoId, task: 'T-1', mode: 'work', agent: 'claude' })).result as { job: string }).job;
const filesUnder = (dir: string): string[] => (fs.readdirSync(dir, { recursive: true }) as string[]).sort();
const jobFiles = () => (fs.existsSync(path.join(world.fx.dataDir, 'jobs')) ? fs.readdirSync(path.join(world.fx.dataDir, 'jobs')) : []);

describe('readiness before a run', () => {
  it('RUNREADY-1, RUNREADY-2: Claude Code not logged in: task.run is refused with E_NOT_READY and one sentence; nothing starts', async () => {
    await expect(world.phone.request({ type: 'task.run', repo: world.repoId, task: 'T-1', mode: 'work', agent: 'claude' }))
      .rejects.toMatchObject({ code: 'E_NOT_READY', frame: { error: { message: notLoggedInSentence(os.hostname()) } } });
    expect(notLoggedInSentence('vm')).toBe('Claude Code is not logged in on vm. Run `claude` then /login there, or set ANTHROPIC_API_KEY for the relay.');
    expect(jobFiles().filter((f) => f.endsWith('.log'))).toEqual([]);
    expect(fs.existsSync(path.join(world.fx.dataDir, 'worktrees', world.repoId, 'T-1'))).toBe(false);
    expect(world.phone.received.some((f) => f.type === 'job.state')).toBe(false);
  });

  it('RUNREADY-1: a missing CLI is refused naming it; a key in the environment makes it ready; a local adapter is not checked', async () => {
    process.env.COMMANDR_CLAUDE_BIN = path.join(home, 'no-such-claude');
    await expect(world.phone.request({ type: 'task.run', repo: world.repoId, task: 'T-1', mode: 'work', agent: 'claude' }))
      .rejects.toMatchObject({ code: 'E_NOT_READY', frame: { error: { message: expect.stringMatching(/^Claude Code is not installed on .+\. Install it there \(`npm install -g @anthropic-ai\/claude-code`\)/) } } });
    process.env.COMMANDR_CLAUDE_BIN = loggedOutClaude(home);
    expect(agentReadiness('claude', { ...process.env })).toMatchObject({ ok: false, reason: 'not-logged-in' });
    expect(agentReadiness('claude', { ...process.env, ANTHROPIC_API_KEY: 'sk-x' })).toEqual({ ok: true });
    // The fixture's own adapter ("fake", under <dataDir>/adapters) runs without the check.
    const { job } = (await world.phone.request({ type: 'task.run', repo: world.repoId, task: 'T-1', mode: 'review' })).result as { job: string };
    expect(await ended(job)).toMatchObject({ status: 'done' });
  });

  it('RUNREADY-1: doctor and the relay read one module: doctor fails "Claude Code logged in" exactly when a job is refused', async () => {
    const env = { ...process.env, COMMANDR_AGENT_ADAPTER: 'claude' };
    const loggedIn = (await doctor(env)).find((c) => c.name === 'Claude Code logged in');
    expect(loggedIn).toMatchObject({ ok: false, needed: true });
    staleLogin();
    expect((await doctor(env)).find((c) => c.name === 'Claude Code logged in')).toMatchObject({ ok: true });
    expect(agentReadiness('claude', env)).toEqual({ ok: true });
  });

  it('RUNREADY-4: task.council without an Anthropic key or evaluator is refused with E_NOT_READY; nothing is written', async () => {
    expect(councilReadiness({})).toMatchObject({ ok: false, reason: 'no-council-key' });
    expect(councilReadiness({ COUNCIL_EVALUATOR_CMD: 'x' })).toEqual({ ok: true });
    const before = filesUnder(world.bus);
    await expect(world.phone.request({ type: 'task.council', repo: world.repoId, task: 'T-1' }))
      .rejects.toMatchObject({ code: 'E_NOT_READY', frame: { error: { message: expect.stringMatching(/^The council needs an Anthropic API key on .+\. Set ANTHROPIC_API_KEY/) } } });
    expect(filesUnder(world.bus)).toEqual(before);
  });

  it('RUNREADY-3: commander.create on Claude Code not logged in is refused before the commander exists', async () => {
    await expect(world.phone.request({ type: 'commander.create', name: 'Planner', referencePath: world.fx.root, agent: 'claude' }))
      .rejects.toMatchObject({ code: 'E_NOT_READY', frame: { error: { message: notLoggedInSentence(os.hostname()) } } });
    expect(fs.existsSync(path.join(world.fx.dataDir, 'commanders')) ? fs.readdirSync(path.join(world.fx.dataDir, 'commanders')) : []).toEqual([]);
  });
});

describe('a failed run', () => {
  it('RUNFAIL-1, RUNFAIL-2, RUNFAIL-4: not logged in (as the real CLI says it) fails in one sentence with Details, is kept across a restart, and a Retry that succeeds forgets it', async () => {
    staleLogin();
    const job = await run();
    const end = await ended(job);
    const reason = notLoggedInSentence(os.hostname());
    expect(end).toMatchObject({ status: 'failed', exitCode: 1, reason });
    expect(end.details).toContain('Not logged in · Please run /login');
    const failed = readEvents(world.bus).events.filter((e) => e.event === 'task_failed');
    expect(failed).toMatchObject([{ task: 'T-1', reason }]);

    // A fresh device after a restart of the relay is told about the failure.
    await world.phone.close();
    await world.fx.restart();
    world.phone = await connectDevice(world.fx.relay);
    await world.phone.request({ type: 'subscribe' });
    expect(world.phone.received.filter((f) => f.type === 'job.state')).toMatchObject([{ job, status: 'failed', reason }]);

    // Retry (the same task.run) once logged in: it succeeds, and the failure is no longer sent.
    fs.writeFileSync(path.join(home, 'logged-in'), '');
    const again = await run();
    expect(await ended(again)).toMatchObject({ status: 'done', exitCode: 0 });
    const fresh = await connectDevice(world.fx.relay);
    try {
      await fresh.request({ type: 'subscribe' });
      expect(fresh.received.filter((f) => f.type === 'job.state')).toEqual([]);
    } finally {
      await fresh.close();
    }
  });

  it('RUNFAIL-3: OpenCode\'s JSON error (recorded from the real CLI) becomes one sentence; a crash keeps its last line', () => {
    const result = { code: 1, signal: null, stderrTail: '', spawnError: null, stopped: false };
    const stderr = fs.readFileSync(path.join(RECORDED, 'opencode-401.stderr'), 'utf8');
    const said = explainFailure('opencode', result, `SESSION: ses_1\n${stderr}`, 'vm');
    expect(said.reason).toBe('OpenCode could not sign in to its model provider: Incorrect API key provided: sk-test. Run `opencode auth login` there, or set the provider’s API key.');
    expect(said.details).toContain('"statusCode":401');
    const other = stderr.replace('"statusCode":401', '"statusCode":400');
    expect(explainFailure('opencode', result, other, 'vm').reason).toBe('OpenCode’s model provider answered with an error: Incorrect API key provided: sk-test.');
    expect(explainFailure('claude', result, 'SESSION: x\nsomething broke\n', 'vm').reason).toBe('Claude Code exited with status 1: something broke.');
    expect(explainFailure('claude', { ...result, code: 127 }, 'run: cannot start /x/claude: spawn /x/claude ENOENT\n', 'vm').reason).toMatch(/^Claude Code is not installed on vm\./);
    expect(explainFailure('claude', result, 'x'.repeat(10_000), 'vm').details).toHaveLength(4000);
  });
});
