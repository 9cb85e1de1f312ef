// A headless OpenCode work job may not write outside its directory (issue 10 item 6):
// the REAL CLI through `adapters/opencode/run` against the OpenAI-compatible stand-in.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenAiChat } from '../stand-ins/openai-chat';
import { adapterBin, cleanup, OPENCODE_BIN, opencodeEnv, runProcess, tempDir, type Home } from '../adapters/harness';
import { planChat } from '../adapters/opencode-script';
import { openCodeWorld } from '../adapters/world';

let api: OpenAiChat;
let h: Home;
let repo: string;
let outside: string;

beforeAll(async () => {
  ({ api, h, repo } = await openCodeWorld({ relay: false, wired: false }));
  outside = tempDir('commandr-oc-outside-');
});

afterAll(cleanup);

describe('an OpenCode work job edits only inside its directory', () => {
  it('GUARD-8: OpenCode job: a write outside the worktree is refused; one inside succeeds', { timeout: 240_000 }, async () => {
    planChat(api, [
      { name: 'write', arguments: { filePath: path.join(outside, 'escaped.txt'), content: 'out' } },
      { name: 'write', arguments: { filePath: path.join(repo, 'inside.txt'), content: 'in' } },
    ], 'job done');
    const ran = await runProcess(adapterBin('opencode', 'run'), [], {
      cwd: repo, env: opencodeEnv(h, api.url, { COMMANDR_OPENCODE_BIN: OPENCODE_BIN, AGENT_CWD: repo, AGENT_MODE: 'work', AGENT_PROMPT: 'work' }), timeoutMs: 200_000,
    });
    expect(ran.code, ran.stderr).toBe(0);
    expect(fs.existsSync(path.join(outside, 'escaped.txt'))).toBe(false);
    expect(fs.readFileSync(path.join(repo, 'inside.txt'), 'utf8')).toBe('in');
  });
});
