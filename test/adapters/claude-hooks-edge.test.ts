// Hooks fail open (HOOK-n): junk payloads change nothing and exit 0; a relay that is down
// or hung does not slow a real Claude Code turn by more than about a second.
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeAnnotation } from '../../bus/annotations';
import { planTurn } from './claude-script';
import { busEvents, CLAUDE_BIN, claudeEnv, eventually, hookLine, ROOT, runProcess } from './harness';
import { useClaudeWorld } from './world';

const w = useClaudeWorld();

beforeAll(() => {
  // These tests are about the reporting hooks; the permission hook (PERM-HOOK-n) waits for a
  // person by design and has its own relay-down rules and tests, so it is left out here.
  const file = path.join(w.repo, '.claude', 'settings.local.json');
  const settings = JSON.parse(fs.readFileSync(file, 'utf8'));
  settings.hooks.PreToolUse = settings.hooks.PreToolUse.filter((e: any) => !e.hooks.some((x: any) => hookLine(x).includes('/hooks/permission')));
  fs.writeFileSync(file, JSON.stringify(settings, null, 2));
});

const SHIMS = ['user-prompt-submit', 'pre-tool-use', 'post-tool-use', 'stop', 'session-end'];

describe('claude hooks fail open', () => {
  it('HOOK-4: a payload that is not a JSON object makes every hook exit 0 and write nothing', async () => {
    const eventsFile = path.join(w.bus, 'events.jsonl');
    const before = fs.existsSync(eventsFile) ? fs.readFileSync(eventsFile, 'utf8') : '';
    for (const shim of SHIMS) {
      for (const input of ['not json at all {', '[1,2,3]', '', '{"session_id": 5}', '"just a string"']) {
        const ran = await runProcess(path.join(ROOT, 'adapters', 'claude', 'hooks', shim), [], {
          cwd: w.repo, input, env: { PATH: process.env.PATH, HOME: w.h.home, COMMANDR_HOME: w.h.commandrHome, AGENTS_TASK_ID: 'T-junk' },
        });
        expect(ran.code, `${shim} <- ${input}`).toBe(0);
        expect(ran.stdout).toBe('');
      }
    }
    const detach = path.join(ROOT, 'adapters', 'claude', 'hooks', 'detach');
    const started = Date.now();
    const bg = await runProcess(detach, [path.join(ROOT, 'adapters', 'claude', 'hooks', 'stop')], {
      cwd: w.repo, input: '{"session_id": "s-bg", "cwd": 7}', env: { PATH: process.env.PATH, HOME: w.h.home, COMMANDR_HOME: w.h.commandrHome },
    });
    expect(bg.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(fs.existsSync(eventsFile) ? fs.readFileSync(eventsFile, 'utf8') : '').toBe(before);
    expect(w.relay.live()).toHaveLength(0);
    // Through the spool (ORDER-1): junk records are dropped by the poster; a good record after them still posts.
    const spool = path.join(ROOT, 'adapters', 'claude', 'hooks', 'spool');
    const env = { PATH: process.env.PATH, HOME: w.h.home, COMMANDR_HOME: w.h.commandrHome };
    for (const input of ['not json at all {', '[1,2,3]', '', '{"session_id": 5}']) {
      const ran = await runProcess(spool, ['Stop', path.join(ROOT, 'adapters', 'claude', 'hooks', 'stop')], { cwd: w.repo, input, env });
      expect(ran.code).toBe(0);
      expect(ran.stdout).toBe('');
    }
    expect((await runProcess(spool, ['SessionEnd'], { cwd: w.repo, input: JSON.stringify({ session_id: 's-good', cwd: w.repo }), env })).code).toBe(0);
    await eventually(() => w.relay.live().some((e) => e.session === 's-good' && e.kind === 'end') || undefined, 15_000, 'the good record');
    expect(w.relay.live().map((e) => e.session)).toEqual(['s-good']);
    expect(fs.existsSync(eventsFile) ? fs.readFileSync(eventsFile, 'utf8') : '').toBe(before);
  });

  it('HOOK-4: a bad AGENTS_TASK_ID or an unknown tool never breaks a hook', async () => {
    const payload = JSON.stringify({ session_id: 's-1', cwd: w.repo, hook_event_name: 'PreToolUse', tool_name: 'Mystery', tool_input: { x: 1 } });
    for (const shim of SHIMS) {
      const ran = await runProcess(path.join(ROOT, 'adapters', 'claude', 'hooks', shim), [], {
        cwd: w.repo, input: payload, env: { PATH: process.env.PATH, HOME: w.h.home, COMMANDR_HOME: w.h.commandrHome, AGENTS_TASK_ID: '../../etc' },
      });
      expect(ran.code, shim).toBe(0);
    }
  });
});

describe('prompt gate', () => {
  it('HOOK-7: the prompt hook starts node only when the task has an unconsumed annotation', async () => {
    const gate = path.join(ROOT, 'adapters', 'claude', 'hooks', 'prompt-gate');
    const missing = path.join(w.repo, 'no-such-hook'); // exec'ing it fails: proof the gate let it through
    const env = (task: string, extra: Record<string, string> = {}) => ({ PATH: process.env.PATH, CLAUDE_PROJECT_DIR: w.repo, AGENTS_TASK_ID: task, ...extra });
    expect((await runProcess(gate, [missing], { cwd: w.repo, env: env('T-gate'), input: '{}' })).code).toBe(0);
    const { path: note } = writeAnnotation(w.bus, { task: 'T-gate', turn: 1, body: 'hello' });
    expect((await runProcess(gate, [missing], { cwd: w.repo, env: env('T-gate'), input: '{}' })).code).not.toBe(0);
    fs.writeFileSync(note, fs.readFileSync(note, 'utf8').replace('"consumed": false', '"consumed": true'));
    expect((await runProcess(gate, [missing], { cwd: w.repo, env: env('T-gate'), input: '{}' })).code).toBe(0);
    // Cases it cannot decide go to the hook: no project dir, a linked worktree, GIT_DIR, odd ids.
    expect((await runProcess(gate, [missing], { cwd: w.repo, env: { PATH: process.env.PATH, AGENTS_TASK_ID: 'T-gate' }, input: '{}' })).code).not.toBe(0);
    expect((await runProcess(gate, [missing], { cwd: w.repo, env: env('T-gate', { GIT_DIR: path.join(w.repo, '.git') }), input: '{}' })).code).not.toBe(0);
    expect((await runProcess(gate, [missing], { cwd: w.repo, env: env('../x'), input: '{}' })).code).not.toBe(0);
    // No task identity at all: nothing to inject, node not started.
    expect((await runProcess(gate, [missing], { cwd: w.repo, env: env(''), input: '{}' })).code).toBe(0);
  });
});

/** A relay that accepts connections and never answers. */
async function hungServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = http.createServer(() => { /* never answers */ });
  server.on('connection', (s) => { sockets.add(s); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise((r) => { for (const s of sockets) s.destroy(); server.close(() => r()); }) };
}

async function closedPortUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await new Promise<void>((r) => server.close(() => r()));
  return url;
}

const progressOf = (task: string) => busEvents(w.bus).filter((e) => e.event === 'task_progress' && e.task === task);

async function timedTurn(task: string, extra: Record<string, string>): Promise<number> {
  planTurn(w.api, [{ name: 'Bash', input: { command: `touch ${task}-${Date.now()}.txt` } }]);
  const args = ['-p', 'go', '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Bash(touch:*)'];
  const ran = await runProcess(CLAUDE_BIN, args, { cwd: w.repo, env: claudeEnv(w.h, w.api.url, { AGENTS_TASK_ID: task, ...extra }) });
  expect(ran.code, ran.stderr).toBe(0);
  return ran.ms;
}

describe('relay down', () => {
  it('HOOK-5: with the relay down or hung a turn still completes within about 1 s of its normal time, and the bus still gets the checkpoint', { timeout: 240_000 }, async () => {
    // Each turn against a down or hung relay is timed right after a normal turn, so the two see the
    // same load, and the smaller of two such differences is compared: on a busy machine (the suite
    // runs beside Playwright) load changes by more than a second between moments of one test.
    const mark = path.join(w.h.commandrHome, 'hook-state', 'relay-down');
    const overNormal = async (task: string, url: string, fresh: boolean) => {
      const normal = await timedTurn('T-up', {});
      if (fresh) fs.rmSync(mark, { force: true }); // no relay-down mark: this turn's hooks try the relay
      const turn = await timedTurn(task, { COMMANDR_URL: url });
      return { normal, turn, over: turn - normal };
    };
    const refused = await closedPortUrl();
    const down = [await overNormal('T-down', refused, true)];
    await eventually(() => progressOf('T-down').length === 1 || undefined, 10_000, 'the first checkpoint');
    down.push(await overNormal('T-down', refused, false)); // the mark set: the hooks skip the relay
    await eventually(() => progressOf('T-down').length === 2 || undefined, 10_000, 'the second checkpoint');
    const hung = await hungServer();
    const slow: { normal: number; turn: number; over: number }[] = [];
    try {
      for (let i = 0; i < 2; i++) slow.push(await overNormal('T-hung', hung.url, true)); // each waits out a post
    } finally {
      await hung.close();
    }
    expect(Math.min(...slow.map((t) => t.over)), `hung relay, ms: ${JSON.stringify(slow)}`).toBeLessThan(1000);
    expect(Math.min(...down.map((t) => t.over)), `relay down, ms: ${JSON.stringify(down)}`).toBeLessThan(1000);
    await eventually(() => progressOf('T-hung').length === 2 || undefined, 10_000, 'the checkpoints with a hung relay');
  });
});
