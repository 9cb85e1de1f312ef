// The REAL OpenCode in a wired worktree (opencode.json `mcp`), the OpenAI-compatible
// stand-in answering with a call of each commandr tool in one turn (OpenCode turns
// take seconds): the bus, the device and the tool results the model is sent.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startOpenAiChat, type OpenAiChat } from '../stand-ins/openai-chat';
import { OPENCODE_BIN, opencodeModelEnv, runProcess } from '../adapters/harness';
import { chatText, planChat } from '../adapters/opencode-script';
import { wire } from '../adapters/world';
import type { DeviceClient } from '../helpers/device';
import { McpWorld, PNG_1x1, TASK, worldWithPhone } from './fixture';

let world: McpWorld;
let api: OpenAiChat;
let phone: DeviceClient;
beforeEach(async () => {
  ({ world, phone } = await worldWithPhone());
  api = await startOpenAiChat();
  const wired = await wire('opencode', world.worktree);
  if (wired.code !== 0) throw new Error(`wire failed: ${wired.stderr}`);
});
afterEach(async () => {
  await phone.close();
  await api.close();
  await world.close();
});

describe('the real OpenCode calling commandr mcp', () => {
  it('MCP-8 ASK-3 ACTAPPROVE-2 ARTIFACT-1 MCP-5: every tool from a wired OpenCode session: bus, device answers, results sent to the model', async () => {
    fs.writeFileSync(path.join(world.worktree, 'shot.png'), PNG_1x1);
    planChat(api, [
      { name: 'commandr_progress', arguments: { note: 'drafted the plan' } },
      { name: 'commandr_ask', arguments: { question: 'Tabs or spaces?', choices: ['tabs', 'spaces'], timeout_s: 90 } },
      { name: 'commandr_request_approval', arguments: { action: 'drop the old table', reason: 'unused since v2', timeout_s: 90 } },
      { name: 'commandr_emit_artifact', arguments: { path: 'shot.png' } },
      { name: 'commandr_complete', arguments: { result: 'pass' } },
    ]);
    const run = runProcess(OPENCODE_BIN, ['run', 'carry on', '--format', 'json'], {
      cwd: world.worktree, env: { ...world.env({ AGENTS_TASK_ID: TASK }), ...opencodeModelEnv(api.url) }, timeoutMs: 180_000,
    });
    const question = (await phone.next('question.request', (f) => f.request.status === 'pending' && f.request.kind === 'question', 120_000)).request;
    await phone.request({ type: 'question.answer', request: question.id, via: 'choice', choice: 1 });
    const approval = (await phone.next('question.request', (f) => f.request.status === 'pending' && f.request.kind === 'approval', 60_000)).request;
    await phone.request({ type: 'question.decide', request: approval.id, decision: 'deny', reason: 'keep it one more release' });
    const ran = await run;
    expect(ran.code, ran.stderr).toBe(0);
    const sent = chatText(api);
    // OpenCode hands the model the tool's text; Claude Code hands it the structured result.
    expect(sent).toContain('pixel answered (chose): spaces');
    expect(sent).toContain('Denied by pixel on the phone: keep it one more release');
    const events = world.events();
    expect(events).toContainEqual(expect.objectContaining({ event: 'task_progress', note: 'drafted the plan' }));
    expect(events).toContainEqual(expect.objectContaining({ event: 'artifact_emitted', path: 'shot.png', kind: 'image' }));
    expect(events).toContainEqual(expect.objectContaining({ event: 'task_complete', task: TASK, result: 'pass' }));
    // The relay served the session (MCP-ONE-1): `commandr mcp --node=…` was only the pipe.
    expect(world.relay.mcp.stats().served).toBeGreaterThan(0);
  }, 240_000);

  it('MCP-ONE-6 MCP-ONE-3: with the relay stopped, or refusing the credential, progress and notes still work (the Node server here)', async () => {
    const url = world.relay.url;
    const other = path.join(world.dir, 'other-home');
    fs.mkdirSync(other, { mode: 0o700 });
    fs.writeFileSync(path.join(other, 'hook-token'), `${'b'.repeat(43)}\n`, { mode: 0o600 });
    planChat(api, [{ name: 'commandr_progress', arguments: { note: 'refused by the relay, served here' } }]);
    const refused = await runProcess(OPENCODE_BIN, ['run', 'carry on', '--format', 'json'], {
      cwd: world.worktree, env: { ...world.env({ AGENTS_TASK_ID: TASK, COMMANDR_HOME: other, COMMANDR_URL: url }), ...opencodeModelEnv(api.url) }, timeoutMs: 180_000,
    });
    expect(refused.code, refused.stderr).toBe(0);
    expect(world.relay.mcp.stats().served).toBe(0);
    await phone.close();
    await world.relay.close();
    planChat(api, [
      { name: 'commandr_progress', arguments: { note: 'working without a relay' } },
      { name: 'commandr_notes', arguments: {} },
    ]);
    const ran = await runProcess(OPENCODE_BIN, ['run', 'carry on', '--format', 'json'], {
      cwd: world.worktree, env: { ...world.env({ AGENTS_TASK_ID: TASK, COMMANDR_URL: url }), ...opencodeModelEnv(api.url) }, timeoutMs: 180_000,
    });
    expect(ran.code, ran.stderr).toBe(0);
    // (The plugin's own checkpoint notes come between: CKPT-n.)
    const notes = world.events().filter((e) => e.event === 'task_progress' && !String(e.note).startsWith('checkpoint:')).map((e) => e.note);
    expect(notes).toEqual(['refused by the relay, served here', 'working without a relay']);
    expect(chatText(api)).toContain('No new notes on task T-1.');
  }, 240_000);
});
