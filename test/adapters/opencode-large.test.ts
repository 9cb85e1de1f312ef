// Large OpenCode events (HOOK-9): the plugin hands an event to its hook on stdin, so a tool call
// whose arguments are over Linux's 128 KiB per argument (E2BIG) still reaches the relay; a hook
// started the old way (the plugin wired before, JSON as an argument) still works; a payload over
// the hook's bound is dropped without crashing OpenCode. The real OpenCode CLI with the
// OpenAI-compatible stand-in, the real generated plugin, the real hook and a real relay.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenAiChat } from '../stand-ins/openai-chat';
import { adapterBin, cleanup, eventually, OPENCODE_BIN, opencodeEnv, runProcess, tempDir, type Home, type TestRelay } from './harness';
import { openCodeSession, planChat } from './opencode-script';
import { openCodeWorld } from './world';

const TASK = 'T-oc-big';
const BIG = 200 * 1024; // over the 128 KiB a single argument may hold
let api: OpenAiChat;
let relay: TestRelay;
let h: Home;
let repo: string;

beforeAll(async () => {
  ({ api, h, relay, repo } = await openCodeWorld());
}, 60_000);

afterAll(cleanup);

const liveOf = (session: string) => relay.live().filter((e) => e.session === session);
const hookEnv = () => ({ PATH: process.env.PATH, HOME: h.home, COMMANDR_HOME: h.commandrHome, COMMANDR_URL: relay.relay.url, AGENTS_TASK_ID: TASK });

/** Loads the plugin `wire` wrote (as OpenCode does: an ES module) in a node process and runs `script` with `hooks` in scope. */
async function withPlugin(script: string): Promise<{ code: number | null; stderr: string }> {
  const dir = tempDir('commandr-oc-plugin-');
  const plugin = path.join(dir, 'commandr.mjs');
  fs.copyFileSync(path.join(repo, '.opencode', 'plugin', 'commandr.js'), plugin);
  const driver = `const { Commandr } = await import(${JSON.stringify(pathToFileURL(plugin).href)});\nconst hooks = await Commandr({ directory: ${JSON.stringify(repo)} });\n${script}\n`;
  return runProcess(process.execPath, ['--input-type=module', '-e', driver], { cwd: repo, env: hookEnv(), timeoutMs: 60_000 });
}

describe('large OpenCode events', () => {
  it('HOOK-9 HOOK-6: in a real OpenCode turn, a write of 200 KiB (an event over 128 KiB) reaches the relay as its live events', { timeout: 180_000 }, async () => {
    const file = path.join(repo, 'oc-big.txt');
    // In 8 KiB deltas, as GUARD-7's large call: 200 KiB in the stand-in's default 16-character ones (12,800
    // deltas) cost this file 8 CPU-s more (18.3 against 10.1, 2 cores); the event's size is what is under test.
    planChat(api, [{ name: 'write', arguments: { filePath: file, content: 'y'.repeat(BIG) } }], 'all done', { chunk: 8192 });
    const ran = await runProcess(OPENCODE_BIN, ['run', 'write the file', '--format', 'json'], {
      cwd: repo, env: opencodeEnv(h, api.url, { AGENTS_TASK_ID: TASK, COMMANDR_URL: relay.relay.url }), timeoutMs: 120_000,
    });
    expect(ran.code, ran.stderr).toBe(0);
    const session = openCodeSession(ran.stdout);
    const running = await eventually(() => liveOf(session).find((e) => e.running === true && e.file?.endsWith('oc-big.txt')), 30_000, 'the running live event of the write');
    expect(running).toMatchObject({ kind: 'edit', task: TASK });
    // The call is closed too (by its own end, or as unfinished at turn end: LIVE-EMIT-5).
    await eventually(() => liveOf(session).find((e) => e.running === undefined && e.file?.endsWith('oc-big.txt')), 30_000, 'the completed live event of the write');
  });

  it('HOOK-9: the plugin\'s events of 200 KiB reach the relay; one over the hook\'s 4 MiB bound is dropped and OpenCode is not hurt (no EPIPE crash)', { timeout: 90_000 }, async () => {
    const ran = await withPlugin(`
      const after = (call, content) => hooks['tool.execute.after']({ sessionID: 's-plugin-big', callID: call, tool: 'write', args: { filePath: ${JSON.stringify(repo)} + '/' + call + '.txt', content } }, { output: 'wrote it', metadata: {} });
      await after('huge', 'z'.repeat(5 * 1024 * 1024));
      await after('big', 'y'.repeat(${BIG}));
      await after('small', 'ok');
    `);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).not.toMatch(/EPIPE|Error/);
    await eventually(() => liveOf('s-plugin-big').find((e) => e.file?.endsWith('small.txt')), 30_000, 'the small event');
    await eventually(() => liveOf('s-plugin-big').find((e) => e.file?.endsWith('big.txt') && !e.file.endsWith('small.txt')), 30_000, 'the 200 KiB event');
    // Each hook posts before it exits; the huge one read no further than the bound and posted nothing.
    expect(liveOf('s-plugin-big').some((e) => e.file?.endsWith('huge.txt'))).toBe(false);
  });

  it('HOOK-9: a plugin wired before this change (the event as an argument) still reports through the new hook', { timeout: 60_000 }, async () => {
    const hook = path.join(path.dirname(adapterBin('opencode', 'wire')), 'hooks', 'hook');
    const data = { session: 's-old-plugin', cwd: repo, call: 'c-old', tool: 'bash', args: { command: 'touch old-form.txt' }, at: 1 };
    const child = spawn(process.execPath, [hook, 'tool-start', JSON.stringify(data)], { cwd: repo, env: hookEnv() as unknown as NodeJS.ProcessEnv, stdio: 'ignore' });
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(0);
    expect(liveOf('s-old-plugin').find((e) => e.cmd === 'touch old-form.txt')).toMatchObject({ running: true, kind: 'command' });
  });
});
