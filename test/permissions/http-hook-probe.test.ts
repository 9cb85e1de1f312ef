// Why the permission fast path is a command hook and not one of Claude Code's own
// `"type": "http"` hooks (FAST-3): the real CLI, offline, with an http PreToolUse hook and its
// own allow rule for `touch`. Reached, the hook's deny holds; unreachable or answering an error,
// the call runs on Claude Code's own rules (GUARD-6 would be broken); with `onFailure: "block"`
// every call is refused while the URL is down. A canary: if a new Claude Code changes this, the
// design choice can be revisited.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAUDE_BIN, claudeEnv, cleanup, makeHome, runProcess, tempDir, type Home } from '../adapters/harness';
import { startMessagesApi, type MessagesApi } from '../stand-ins/messages-api';

let api: MessagesApi;
let h: Home;
let hookServer: http.Server;
let hookPort = 0;
let answerStatus = 200;
const seen: Array<{ authorization?: string; body: Record<string, unknown> }> = [];

beforeAll(async () => {
  h = makeHome();
  api = await startMessagesApi({ apiKey: 'sk-test' });
  api.setReply((r) => {
    if (!Array.isArray(r.body?.tools) || r.body.tools.length === 0) return { text: 'side' };
    const done = r.body.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content : [])).filter((b: any) => b.type === 'tool_result').length;
    return done >= 1 ? { text: 'done' } : { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'touch made.txt' } }] };
  });
  hookServer = http.createServer((req, res) => {
    let text = '';
    req.on('data', (d) => (text += d));
    req.on('end', () => {
      seen.push({ authorization: req.headers.authorization, body: JSON.parse(text) });
      res.writeHead(answerStatus, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no from the http hook' } }));
    });
  });
  await new Promise<void>((r) => hookServer.listen(0, '127.0.0.1', r));
  hookPort = (hookServer.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((r) => hookServer.close(r));
  await api.close();
  await cleanup();
});

/** One headless turn whose only tool call is `touch made.txt`, allowed by Claude Code's own rule. */
async function turn(hook: Record<string, unknown>): Promise<{ made: boolean; denials: unknown[] }> {
  const dir = tempDir('commandr-http-hook-');
  execFileSync('git', ['init', '-q', dir]);
  const settings = path.join(dir, 'hook-settings.json');
  fs.writeFileSync(settings, JSON.stringify({ hooks: { PreToolUse: [{ matcher: '*', hooks: [hook] }] } }));
  const ran = await runProcess(CLAUDE_BIN, ['-p', 'go', '--output-format', 'stream-json', '--verbose', '--settings', settings, '--allowedTools', 'Bash(touch:*)'], {
    cwd: dir, env: claudeEnv(h, api.url, { PROBE_TOKEN: 'probe-token-value' }),
  });
  const result = ran.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; permission_denials?: unknown[] }).find((l) => l.type === 'result');
  expect(result, ran.stderr).toBeDefined();
  return { made: fs.existsSync(path.join(dir, 'made.txt')), denials: result!.permission_denials ?? [] };
}

describe("Claude Code's http hooks (a probe of the real CLI)", () => {
  it('FAST-3: reached, an http hook decides (header variables interpolated); unreachable or failing, Claude Code\'s own rules run the call; onFailure "block" refuses it', async () => {
    const reached = await turn({ type: 'http', url: `http://127.0.0.1:${hookPort}/hook`, headers: { Authorization: 'Bearer $PROBE_TOKEN' }, allowedEnvVars: ['PROBE_TOKEN'], timeout: 10 });
    expect(reached).toMatchObject({ made: false });
    expect(reached.denials).toHaveLength(1);
    expect(seen[0]).toMatchObject({ authorization: 'Bearer probe-token-value', body: { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'touch made.txt' } } });

    expect(await turn({ type: 'http', url: 'http://127.0.0.1:1/hook', timeout: 10 })).toEqual({ made: true, denials: [] });
    answerStatus = 500;
    expect(await turn({ type: 'http', url: `http://127.0.0.1:${hookPort}/hook`, timeout: 10 })).toEqual({ made: true, denials: [] });
    const blocked = await turn({ type: 'http', url: 'http://127.0.0.1:1/hook', timeout: 10, onFailure: 'block' });
    expect(blocked.made).toBe(false);
    expect(blocked.denials).toHaveLength(1);
  }, 240_000);
});
