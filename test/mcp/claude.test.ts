// The REAL Claude Code in a wired worktree, the model stand-in answering with a call
// of each commandr tool: the server starts from the project's .mcp.json in headless
// `claude -p`, and each tool's effect lands on the bus, the relay and the device.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMessagesApi, type MessagesApi } from '../stand-ins/messages-api';
import { planTurn, requestText } from '../adapters/claude-script';
import { adapterBin, CLAUDE_BIN, runProcess } from '../adapters/harness';
import type { DeviceClient } from '../helpers/device';
import { COMMANDR_BIN, McpWorld, PNG_1x1, TASK, worldWithPhone } from './fixture';

let world: McpWorld;
let api: MessagesApi;
let phone: DeviceClient;
beforeEach(async () => {
  ({ world, phone } = await worldWithPhone());
  api = await startMessagesApi({ apiKey: 'sk-test' });
  const wired = await runProcess(adapterBin('claude', 'wire'), [world.worktree], { cwd: world.worktree, env: { PATH: process.env.PATH } });
  if (wired.code !== 0) throw new Error(`wire failed: ${wired.stderr}`);
});
afterEach(async () => {
  await phone.close();
  await api.close();
  await world.close();
});

function claude(prompt: string, extra: Record<string, string | undefined> = {}) {
  return runProcess(CLAUDE_BIN, ['-p', prompt, '--output-format', 'stream-json', '--verbose'], {
    cwd: world.worktree,
    env: {
      // The wired .mcp.json names `commandr` through PATH (WIREPATH-2), as after `npm link`.
      ...world.env({ AGENTS_TASK_ID: TASK, PATH: `${path.dirname(COMMANDR_BIN)}${path.delimiter}${process.env.PATH}`, ...extra }),
      ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: 'sk-test',
      DISABLE_TELEMETRY: '1', DISABLE_AUTOUPDATER: '1', DISABLE_ERROR_REPORTING: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', CLAUDE_CODE_MAX_RETRIES: '0',
      // A hang bound, as for a job (MCP-ONE-8): headless Claude Code starts the turn without a server
      // still connecting after 5 s, which the Node server after a refusal missed beside Playwright.
      MCP_CONNECT_TIMEOUT_MS: '60000',
    },
    timeoutMs: 120_000,
  });
}

/** For a failure: each request's commandr tools (offered or deferred) and the last message's content, which holds the tool's result. */
function whatTheModelWasTold(api: MessagesApi, from: number): string {
  return api.messageRequests().slice(from).map((r, i) => {
    const body = r.body as { tools?: { name: string; defer_loading?: boolean }[]; messages?: { content: unknown }[] };
    const tools = (body.tools ?? []).filter((t) => t.name.includes('commandr') || t.defer_loading).map((t) => `${t.name}${t.defer_loading ? ' (deferred)' : ''}`);
    const last = body.messages?.at(-1)?.content;
    return `request ${i}: commandr tools [${tools.join(', ')}] of ${body.tools?.length ?? 0}; last message ${JSON.stringify(last).slice(0, 1200)}`;
  }).join('\n');
}

describe('the real Claude Code calling commandr mcp', () => {
  it('MCP-8 ASK-3: headless claude -p loads the wired server; progress lands on the bus and the device\'s answer to ask is in the next model request', async () => {
    planTurn(api, [
      { name: 'mcp__commandr__progress', input: { note: 'schema drafted, asking about the port' } },
      { name: 'mcp__commandr__ask', input: { question: 'Which port should the dev server use?', choices: ['8080', '9090'], timeout_s: 60 } },
    ]);
    const run = claude('set up the dev server');
    const { request } = await phone.next('question.request', (f) => f.request.status === 'pending', 90_000);
    expect(request).toMatchObject({ task: TASK, title: 'Which port should the dev server use?', choices: ['8080', '9090'] });
    const before = api.messageRequests().length;
    await phone.request({ type: 'question.answer', request: request.id, via: 'text', text: 'use 7077, 8080 is taken' });
    const ran = await run;
    expect(ran.code, ran.stderr).toBe(0);
    expect(world.events().filter((e) => e.event === 'task_progress')).toContainEqual(expect.objectContaining({ note: 'schema drafted, asking about the port' }));
    // Claude Code hands the tool's structured result to the model as the tool_result.
    const next = requestText(api, before);
    expect(next).toContain('\\"answer\\":\\"use 7077, 8080 is taken\\"');
    expect(next).toContain('\\"via\\":\\"text\\",');
    // The relay served the session (MCP-ONE-1): `commandr mcp` was only the pipe.
    expect(world.relay.mcp.stats().served).toBeGreaterThan(0);
  });

  it('ACTAPPROVE-2 ARTIFACT-1 MCP-5: request_approval denied comes back denied, an emitted PNG is registered, complete moves the packet', async () => {
    fs.writeFileSync(path.join(world.worktree, 'shot.png'), PNG_1x1);
    planTurn(api, [
      { name: 'mcp__commandr__request_approval', input: { action: 'deploy to staging', reason: 'want to check it live', timeout_s: 60 } },
      { name: 'mcp__commandr__emit_artifact', input: { path: 'shot.png', title: 'Home' } },
      { name: 'mcp__commandr__emit_artifact', input: { path: '../repo/README.md' } },
      { name: 'mcp__commandr__complete', input: { result: 'pass' } },
    ]);
    const run = claude('ship it');
    const { request } = await phone.next('question.request', (f) => f.request.status === 'pending', 90_000);
    const before = api.messageRequests().length;
    await phone.request({ type: 'question.decide', request: request.id, decision: 'deny', reason: 'not today' });
    const ran = await run;
    expect(ran.code, ran.stderr).toBe(0);
    const text = requestText(api, before);
    expect(text).toContain('Denied by pixel on the phone: not today');
    expect(text).toMatch(/E_BAD_PATH: \.\.\/repo\/README\.md is outside the task's worktree/);
    const events = world.events();
    expect(events).toContainEqual(expect.objectContaining({ event: 'artifact_emitted', task: TASK, path: 'shot.png', kind: 'image' }));
    expect(events.filter((e) => e.event === 'artifact_emitted')).toHaveLength(1);
    expect(events).toContainEqual(expect.objectContaining({ event: 'task_complete', task: TASK, result: 'pass' }));
    expect(fs.existsSync(path.join(world.bus, 'done', `host_1_${TASK}.md`))).toBe(true);
  });

  it('MCP-ONE-6: with the relay stopped, the wired server still starts and progress and notes work (the Node server here)', async () => {
    const url = world.relay.url;
    await phone.close();
    await world.relay.close();
    planTurn(api, [
      { name: 'mcp__commandr__progress', input: { note: 'working without a relay' } },
      { name: 'mcp__commandr__notes', input: {} },
    ]);
    const before = api.messageRequests().length;
    const ran = await claude('carry on', { COMMANDR_URL: url });
    expect(ran.code, ran.stderr).toBe(0);
    expect(world.events()).toContainEqual(expect.objectContaining({ event: 'task_progress', task: TASK, note: 'working without a relay' }));
    const text = requestText(api, before);
    expect(text).toContain('\\"note\\":\\"working without a relay\\"');
    expect(text).toContain('\\"notes\\":[]');
  });

  it('MCP-ONE-3 MCP-ONE-6: a hook credential the relay refuses serves nothing through it; the session gets the Node server here', async () => {
    const other = path.join(world.dir, 'other-home');
    fs.mkdirSync(other, { mode: 0o700 });
    fs.writeFileSync(path.join(other, 'hook-token'), `${'b'.repeat(43)}\n`, { mode: 0o600 });
    planTurn(api, [{ name: 'mcp__commandr__progress', input: { note: 'refused by the relay, served here' } }]);
    const before = api.messageRequests().length;
    const ran = await claude('carry on', { COMMANDR_HOME: other, COMMANDR_URL: world.relay.url });
    expect(ran.code, ran.stderr).toBe(0);
    // On failure, what the CLI told the model (the tool's result, or that it had no such tool) and its stderr.
    expect(world.events(), `${whatTheModelWasTold(api, before)}\n${ran.stderr}`).toContainEqual(expect.objectContaining({ event: 'task_progress', note: 'refused by the relay, served here' }));
    expect(world.relay.mcp.stats().served).toBe(0);
  });
});
