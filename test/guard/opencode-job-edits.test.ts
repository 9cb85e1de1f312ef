// A headless OpenCode work job may not write outside its directory (issue 10 item 6):
// the REAL CLI through `adapters/opencode/run` against the OpenAI-compatible stand-in.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiChat, type OpenAiChat } from '../stand-ins/openai-chat';
import { adapterBin, cleanup, makeHome, makeRepo, OPENCODE_BIN, opencodeEnv, runProcess, tempDir, type Home } from '../adapters/harness';

let api: OpenAiChat;
let h: Home;
let repo: string;
let outside: string;

beforeAll(async () => {
  api = await startOpenAiChat();
  h = makeHome();
  ({ repo } = makeRepo());
  outside = tempDir('commandr-oc-outside-');
});

afterAll(async () => {
  await api.close();
  await cleanup();
});

describe('an OpenCode work job edits only inside its directory', () => {
  it('GUARD-8: OpenCode job: a write outside the worktree is refused; one inside succeeds', { timeout: 240_000 }, async () => {
    const calls = [
      { name: 'write', arguments: { filePath: path.join(outside, 'escaped.txt'), content: 'out' } },
      { name: 'write', arguments: { filePath: path.join(repo, 'inside.txt'), content: 'in' } },
    ];
    let next = 0;
    api.setReply((r) => {
      if (!Array.isArray(r.body?.tools) || r.body.tools.length === 0) return { text: 'side answer' };
      return next < calls.length ? { toolCalls: [calls[next++]!] } : { text: 'job done' };
    });
    const ran = await runProcess(adapterBin('opencode', 'run'), [], {
      cwd: repo, env: opencodeEnv(h, api.url, { COMMANDR_OPENCODE_BIN: OPENCODE_BIN, AGENT_CWD: repo, AGENT_MODE: 'work', AGENT_PROMPT: 'work' }), timeoutMs: 200_000,
    });
    expect(ran.code, ran.stderr).toBe(0);
    expect(fs.existsSync(path.join(outside, 'escaped.txt'))).toBe(false);
    expect(fs.readFileSync(path.join(repo, 'inside.txt'), 'utf8')).toBe('in');
  });
});
