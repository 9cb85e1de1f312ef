// Relay down, and the policy says a person must decide (issue 10 item 7): neither
// real CLI runs the tool, even when the agent's own rules would allow it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMessagesApi, type MessagesApi } from '../stand-ins/messages-api';
import { startOpenAiChat, type OpenAiChat } from '../stand-ins/openai-chat';
import { planTurn } from '../adapters/claude-script';
import { adapterBin, CLAUDE_BIN, claudeEnv, cleanup, makeHome, makeRepo, OPENCODE_BIN, opencodeEnv, runProcess, type Home } from '../adapters/harness';

let claudeApi: MessagesApi;
let openai: OpenAiChat;
let h: Home;
let repo: string;
/** Nothing listens on the discard port: the relay is down. */
const DOWN = { COMMANDR_URL: 'http://127.0.0.1:9' };

beforeAll(async () => {
  claudeApi = await startMessagesApi({ apiKey: 'sk-test' });
  openai = await startOpenAiChat();
  h = makeHome();
  fs.mkdirSync(h.commandrHome, { recursive: true });
  fs.writeFileSync(path.join(h.commandrHome, 'hook-token'), `${'x'.repeat(43)}\n`, { mode: 0o600 });
  ({ repo } = makeRepo());
  for (const adapter of ['claude', 'opencode']) {
    const wired = await runProcess(adapterBin(adapter, 'wire'), [repo], { cwd: repo, env: { PATH: process.env.PATH } });
    expect(wired.code, wired.stderr).toBe(0);
  }
}, 60_000);

afterAll(async () => {
  await claudeApi.close();
  await openai.close();
  await cleanup();
});

const lines = (stdout: string) => stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>);

describe('fail closed when the relay cannot be asked', () => {
  it('GUARD-6: Claude Code with its own rule allowing `touch` still does not run it', async () => {
    planTurn(claudeApi, [{ name: 'Bash', input: { command: 'touch cc-unasked.txt', description: 'make a file' } }]);
    const ran = await runProcess(CLAUDE_BIN, ['-p', 'make the file', '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Bash(touch:*)'], {
      cwd: repo, env: claudeEnv(h, claudeApi.url, DOWN),
    });
    expect(ran.code, ran.stderr).toBe(0);
    expect(fs.existsSync(path.join(repo, 'cc-unasked.txt'))).toBe(false);
    expect(lines(ran.stdout).find((o) => o.type === 'result')!.permission_denials.length).toBe(1);
  }, 90_000);

  it('GUARD-6: the Claude hook still allows what the policy allows with the relay down', async () => {
    planTurn(claudeApi, [{ name: 'Bash', input: { command: 'ls', description: 'list' } }]);
    const ran = await runProcess(CLAUDE_BIN, ['-p', 'list', '--output-format', 'stream-json', '--verbose'], { cwd: repo, env: claudeEnv(h, claudeApi.url, DOWN) });
    expect(ran.code, ran.stderr).toBe(0);
    expect(lines(ran.stdout).find((o) => o.type === 'result')!.permission_denials).toEqual([]);
  }, 90_000);

  it('GUARD-7: OpenCode (its own default is allow) does not run a tool that needs a person; the model is told why', async () => {
    let next = 0;
    openai.setReply((r) => {
      if (!Array.isArray(r.body?.tools) || r.body.tools.length === 0) return { text: 'side answer' };
      return next++ === 0 ? { toolCalls: [{ name: 'bash', arguments: { command: 'touch oc-unasked.txt', description: 'make a file' } }] } : { text: 'all done' };
    });
    const from = openai.chatRequests().length;
    const ran = await runProcess(OPENCODE_BIN, ['run', 'make the file', '--format', 'json'], { cwd: repo, env: opencodeEnv(h, openai.url, DOWN), timeoutMs: 120_000 });
    expect(ran.code, ran.stderr).toBe(0);
    expect(fs.existsSync(path.join(repo, 'oc-unasked.txt'))).toBe(false);
    const saw = openai.chatRequests().slice(from).map((r) => JSON.stringify(r.body)).join('\n');
    expect(saw).toMatch(/relay/);
  }, 150_000);
  it('GUARD-6 PERM-HOOK-1: a call too large for the hook to read (over 4 MiB) is not left to Claude Code\'s own rules', async () => {
    // The hook reads at most MAX_PAYLOAD_BYTES; past that it used to print nothing, so the agent's own allow rule ran the call unchecked.
    // In 64 KiB deltas: 5 MiB in the stand-in's default 8-character ones (655,360 events) took 16 s, not 1.6,
    // and this file 13 CPU-s more; the size of the call is what is under test, not how finely it is streamed.
    planTurn(claudeApi, [{ name: 'Bash', input: { command: 'touch cc-huge.txt', description: 'x'.repeat(5 * 1024 * 1024) } }], 'all done', { chunk: 64 * 1024 });
    const ran = await runProcess(CLAUDE_BIN, ['-p', 'make the file', '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Bash(touch:*)'], {
      cwd: repo, env: claudeEnv(h, claudeApi.url, DOWN),
    });
    expect(ran.code, ran.stderr).toBe(0);
    expect(fs.existsSync(path.join(repo, 'cc-huge.txt'))).toBe(false);
    expect(lines(ran.stdout).find((o) => o.type === 'result')!.permission_denials.length).toBe(1);
  }, 90_000);

  it('GUARD-7 PERM-HOOK-7: OpenCode does not run a call whose arguments are too large for a command line (over 128 KiB)', async () => {
    // The plugin handed the call to the permission step as one argv string: past Linux's 128 KiB per argument
    // the spawn failed (E2BIG), no verdict came back and OpenCode's own default (allow) ran it.
    let next = 0;
    openai.setReply((r) => {
      if (!Array.isArray(r.body?.tools) || r.body.tools.length === 0) return { text: 'side answer' };
      // In 8 KiB deltas: 200 KiB of arguments in the stand-in's default 16-character ones (12,800 deltas) took
      // OpenCode ~16 s more to take in on a quiet machine and past the run's deadline on a busy one.
      return next++ === 0 ? { chunk: 8192, toolCalls: [{ name: 'write', arguments: { filePath: path.join(repo, 'oc-huge.txt'), content: 'y'.repeat(200 * 1024) } }] } : { text: 'all done' };
    });
    const ran = await runProcess(OPENCODE_BIN, ['run', 'write the file', '--format', 'json'], { cwd: repo, env: opencodeEnv(h, openai.url, DOWN), timeoutMs: 120_000 });
    expect(ran.code, ran.stderr).toBe(0);
    expect(fs.existsSync(path.join(repo, 'oc-huge.txt'))).toBe(false);
  }, 150_000);
});
