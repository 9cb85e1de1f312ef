// `commandr mcp` through the official SDK client over stdio, against a real bus,
// a real relay and a paired test device: every tool, its bus events and its relay side.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeAnnotation } from '../../bus/annotations';
import { openSocket } from '../helpers/device';
import { PNG_1x1, TASK, textOf } from './fixture';
import { eachWorldWithPhone } from './each-world';
import { ArtifactOpenResult } from '../../protocol/wire/questions';

const fx = eachWorldWithPhone();

const sessionEnv = { AGENTS_TASK_ID: TASK };

function get(url: string): Promise<{ status: number; type: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get(url, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

describe('commandr mcp over stdio', () => {
  it('MCP-1: a server named commandr lists the six tools with their input and output schemas', async () => {
    const client = await fx.world.connect({ env: sessionEnv });
    expect(client.getServerVersion()?.name).toBe('commandr');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['ask', 'complete', 'emit_artifact', 'notes', 'progress', 'request_approval']);
    const ask = tools.find((t) => t.name === 'ask')!;
    expect(ask.inputSchema.properties).toHaveProperty('question');
    expect(ask.inputSchema.properties).toHaveProperty('choices');
    expect(ask.inputSchema.required).toEqual(['question']);
    expect(ask.outputSchema?.properties).toHaveProperty('answer');
  });

  it('MCP-2 MCP-4: progress lands on the bus as task_progress; a note with a line break is refused and nothing is written', async () => {
    const client = await fx.world.connect({ env: sessionEnv });
    const good = await client.callTool({ name: 'progress', arguments: { note: 'parser done, wiring the CLI next' } });
    expect(good.isError).toBeFalsy();
    expect(good.structuredContent).toEqual({ task: TASK, note: 'parser done, wiring the CLI next' });
    expect(fx.world.events().filter((e) => e.event === 'task_progress')).toEqual([expect.objectContaining({ task: TASK, note: 'parser done, wiring the CLI next' })]);
    const bad = await client.callTool({ name: 'progress', arguments: { note: 'two\nlines' } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/^E_BAD_INPUT: .*line break/);
    // The SDK validates the input against the declared schema: a missing field is a tool error naming it.
    const missing = await client.callTool({ name: 'ask', arguments: {} });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/question/);
    expect(fx.world.events().filter((e) => e.event === 'task_progress')).toHaveLength(1);
  });

  it('MCP-3: the task defaults to the session\'s own (the agent/<id> branch); naming another task or having none is a clear tool error', async () => {
    const onBranch = await fx.world.connect(); // no AGENTS_TASK_ID: the worktree's branch agent/T-1 says the task
    expect((await onBranch.callTool({ name: 'progress', arguments: { note: 'from the branch' } })).structuredContent).toMatchObject({ task: TASK });
    const other = await onBranch.callTool({ name: 'progress', arguments: { task: 'T-2', note: 'sneaky' } });
    expect(other.isError).toBe(true);
    expect(textOf(other)).toMatch(/^E_OTHER_TASK: this session works on task T-1; it cannot act on task T-2/);
    const none = await fx.world.connect({ cwd: fx.world.repo }); // main checkout, branch main, no variable
    const result = await none.callTool({ name: 'ask', arguments: { question: 'anyone?' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^E_NO_TASK: no task to act on/);
    expect(fx.world.events().map((e) => e.event)).toEqual(['task_progress']);
  });

  it('ASK-1 ASK-2 ASK-3: ask reaches the paired device with its choices; the chosen choice is the tool result; the bus carries ids and counts, never the text', async () => {
    const client = await fx.world.connect({ env: sessionEnv });
    const call = client.callTool({ name: 'ask', arguments: { question: 'Which database for the cache?', choices: ['sqlite', 'redis'], timeout_s: 60 } });
    const { request } = await fx.phone.next('question.request', (f) => f.request.status === 'pending');
    expect(request).toMatchObject({ kind: 'question', task: TASK, title: 'Which database for the cache?', choices: ['sqlite', 'redis'], repo: expect.any(String) });
    await fx.phone.request({ type: 'question.answer', request: request.id, via: 'choice', choice: 1 });
    const result = await call;
    expect(result.structuredContent).toEqual({ task: TASK, question: request.id, answered: true, via: 'choice', answer: 'redis', by: 'pixel' });
    expect(textOf(result)).toBe('pixel answered (chose): redis');
    const events = fx.world.events().filter((e) => String(e.event).startsWith('question_'));
    expect(events).toEqual([
      expect.objectContaining({ event: 'question_asked', task: TASK, question: request.id, choices: 2 }),
      expect.objectContaining({ event: 'question_answered', task: TASK, question: request.id, via: 'choice', by: 'pixel' }),
    ]);
    expect(fs.readFileSync(path.join(fx.world.bus, 'events.jsonl'), 'utf8')).not.toMatch(/database|redis/);
    // The first answer wins; a second is refused.
    await expect(fx.phone.request({ type: 'question.answer', request: request.id, via: 'text', text: 'late' })).rejects.toMatchObject({ code: 'E_CONFLICT' });
  });

  it('ASK-3: a typed answer and a dictated note come back as the tool result, marked by how they were given', async () => {
    const client = await fx.world.connect({ env: sessionEnv });
    const typed = client.callTool({ name: 'ask', arguments: { question: 'Name for the flag?', timeout_s: 60 } });
    const first = (await fx.phone.next('question.request', (f) => f.request.status === 'pending')).request;
    await fx.phone.request({ type: 'question.answer', request: first.id, via: 'text', text: '  --dry-run  ' });
    expect((await typed).structuredContent).toMatchObject({ answered: true, via: 'text', answer: '--dry-run' });
    const spoken = client.callTool({ name: 'ask', arguments: { question: 'Anything else?', timeout_s: 60 } });
    const second = (await fx.phone.next('question.request', (f) => f.request.status === 'pending' && f.request.id !== first.id)).request;
    await expect(fx.phone.request({ type: 'question.answer', request: second.id, via: 'choice', choice: 0 })).rejects.toMatchObject({ code: 'E_BAD_FRAME' });
    await fx.phone.request({ type: 'question.answer', request: second.id, via: 'voice', text: 'keep the old behaviour behind the flag' });
    const result = await spoken;
    expect(result.structuredContent).toMatchObject({ answered: true, via: 'voice', answer: 'keep the old behaviour behind the flag' });
    expect(textOf(result)).toBe('pixel answered (dictated): keep the old behaviour behind the flag');
  });

  it('ASK-5: no answer by the timeout is a plain "no answer" result the agent can act on', async () => {
    const client = await fx.world.connect({ env: sessionEnv });
    const result = await client.callTool({ name: 'ask', arguments: { question: 'Still there?', timeout_s: 5 } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ answered: false, via: 'timeout', answer: null, by: null });
    expect(textOf(result)).toBe('No answer: no one answered within 5 s. Decide for yourself, or ask again later.');
    expect(fx.world.events().at(-1)).toMatchObject({ event: 'question_answered', via: 'timeout' });
  });

  it('ASK-5: with no relay to reach, ask is a tool error saying so at once', async () => {
    const client = await fx.world.connect({ env: { ...sessionEnv, COMMANDR_URL: 'http://127.0.0.1:9' } });
    const result = await client.callTool({ name: 'ask', arguments: { question: 'hello?' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^E_NO_RELAY: the question could not reach the person: the relay at http:\/\/127\.0\.0\.1:9 cannot be reached/);
  });

  it('ACTAPPROVE-1 ACTAPPROVE-2: request_approval shows the action on the device; a signed deny comes back denied with the person\'s reason', async () => {
    const client = await fx.world.connect({ env: sessionEnv });
    const call = client.callTool({ name: 'request_approval', arguments: { action: 'deploy to staging', reason: 'tests pass; want to check it live', timeout_s: 60 } });
    const { request } = await fx.phone.next('question.request', (f) => f.request.status === 'pending');
    expect(request).toMatchObject({ kind: 'approval', title: 'deploy to staging', reason: 'tests pass; want to check it live' });
    await fx.phone.request({ type: 'question.decide', request: request.id, decision: 'deny', reason: 'staging is frozen today' });
    const result = await call;
    expect(result.structuredContent).toEqual({
      task: TASK, request: request.id, approved: false, decision: 'denied', by: 'pixel', reason: 'Denied by pixel on the phone: staging is frozen today',
    });
    expect(fx.world.events().filter((e) => String(e.event).startsWith('action_approval'))).toEqual([
      expect.objectContaining({ event: 'action_approval_requested', request: request.id, action: 'deploy to staging' }),
      expect.objectContaining({ event: 'action_approval_decided', request: request.id, decision: 'denied', by: 'pixel' }),
    ]);
  });

  it('ACTAPPROVE-3: no decision by the timeout is a denial', async () => {
    const client = await fx.world.connect({ env: sessionEnv });
    const result = await client.callTool({ name: 'request_approval', arguments: { action: 'drop the old table', reason: 'it is unused', timeout_s: 5 } });
    expect(result.structuredContent).toMatchObject({ approved: false, decision: 'expired', by: null });
    expect(textOf(result)).toMatch(/^No decision within 5 s, so it is denied/);
  });

  it('ACTAPPROVE-2: an approval is approved only by a signed device action; an unsigned one is refused', async () => {
    const client = await fx.world.connect({ env: sessionEnv });
    const call = client.callTool({ name: 'request_approval', arguments: { action: 'rotate the key', reason: 'it leaked in a log', timeout_s: 60 } });
    const { request } = await fx.phone.next('question.request', (f) => f.request.status === 'pending');
    const forger = await openSocket(fx.world.relay, fx.phone.device);
    await expect(forger.request({ type: 'question.decide', request: request.id, decision: 'approve', ts: Date.now(), sig: 'A'.repeat(86) })).rejects.toThrow();
    await forger.close();
    expect(fx.world.relay.services.questions && (fx.world.relay.services.questions as { get(id: string): { status: string } }).get(request.id).status).toBe('pending');
    await fx.phone.request({ type: 'question.decide', request: request.id, decision: 'approve' });
    expect((await call).structuredContent).toMatchObject({ approved: true, decision: 'approved', by: 'pixel' });
  });

  it('ARTIFACT-1 ARTIFACT-3 ARTIFACT-4: an emitted PNG is served to the paired device through a short-lived URL, and to no one without it', async () => {
    fs.mkdirSync(path.join(fx.world.worktree, 'shots'));
    fs.writeFileSync(path.join(fx.world.worktree, 'shots', 'home.png'), PNG_1x1);
    const client = await fx.world.connect({ env: sessionEnv });
    const result = await client.callTool({ name: 'emit_artifact', arguments: { path: 'shots/home.png', title: 'Home screen' } });
    expect(result.structuredContent).toMatchObject({ task: TASK, path: 'shots/home.png', kind: 'image', bytes: PNG_1x1.length });
    const artifact = (result.structuredContent as { artifact: string }).artifact;
    expect(fx.world.events().at(-1)).toMatchObject({ event: 'artifact_emitted', task: TASK, artifact, path: 'shots/home.png', worktree: fx.world.worktree, kind: 'image', title: 'Home screen' });
    const repo = fx.world.relay.services.hub && (await fx.phone.next('repo.snapshot')).repo.id;
    const ack = await fx.phone.request({ type: 'artifact.open', repo, task: TASK, artifact });
    const opened = ack.result as { url: string; mime: string };
    expect(opened).toMatchObject({ artifact, kind: 'image', mime: 'image/png', bytes: PNG_1x1.length });
    // The app validates the answer with the wire schema before it fetches anything.
    expect(ArtifactOpenResult.safeParse(opened).success).toBe(true);
    const served = await get(`${fx.world.relay.url}${opened.url}`);
    expect(served.status).toBe(200);
    expect(served.type).toBe('image/png');
    expect(served.body.equals(PNG_1x1)).toBe(true);
    // A guessed or missing token gets nothing.
    expect((await get(`${fx.world.relay.url}/api/artifacts?t=${'A'.repeat(43)}`)).status).toBe(401);
    expect((await get(`${fx.world.relay.url}/api/artifacts`)).status).toBe(401);
    // An unpaired client cannot even ask.
    const stranger = await openSocket(fx.world.relay, undefined);
    await stranger.next('auth.challenge');
    stranger.send({ type: 'artifact.open', id: 'stranger-1', repo, task: TASK, artifact });
    const refused = await stranger.waitFor((f) => f.type === 'error', 'error');
    expect(refused).toMatchObject({ type: 'error', error: { code: 'E_UNAUTHORIZED' } });
    await stranger.close();
    // The file changed after it was emitted: not served as that artifact.
    fs.writeFileSync(path.join(fx.world.worktree, 'shots', 'home.png'), Buffer.concat([PNG_1x1, Buffer.from('x')]));
    expect((await get(`${fx.world.relay.url}${opened.url}`)).status).toBe(409);
  });

  it('ARTIFACT-2: a path outside the worktree, through .. or a symlink, is refused and nothing is registered', async () => {
    fs.symlinkSync(path.join(fx.world.repo, 'README.md'), path.join(fx.world.worktree, 'escape.md'));
    const client = await fx.world.connect({ env: sessionEnv });
    for (const p of ['../repo/README.md', path.join(fx.world.repo, 'README.md'), 'escape.md', '/etc/hostname']) {
      const result = await client.callTool({ name: 'emit_artifact', arguments: { path: p } });
      expect(result.isError, p).toBe(true);
      expect(textOf(result), p).toMatch(/^E_BAD_PATH: .*outside the task's worktree/);
    }
    const missing = await client.callTool({ name: 'emit_artifact', arguments: { path: 'nope.png' } });
    expect(textOf(missing)).toMatch(/^E_BAD_PATH: nope.png does not exist/);
    expect(fx.world.events().filter((e) => e.event === 'artifact_emitted')).toEqual([]);
  });

  it('EVENTS-1 MCP-2: an events.jsonl that is a symlink (a cloned repo can track one) is refused; the file it points to is never written', async () => {
    // A repo that tracks `.agents/events.jsonl -> ~/.bashrc` would have every note appended there (and `$(…)` in a note run).
    const outside = path.join(fx.world.dir, 'outside.rc');
    fs.writeFileSync(outside, 'echo original\n');
    fs.symlinkSync(outside, path.join(fx.world.bus, 'events.jsonl'));
    const client = await fx.world.connect({ env: sessionEnv });
    const result = await client.callTool({ name: 'progress', arguments: { note: 'tests pass $(touch pwned)' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^E_BUS: cannot append to .*events\.jsonl: it is a symlink/);
    expect(fs.readFileSync(outside, 'utf8')).toBe('echo original\n');
    // The server is still serving.
    expect((await client.callTool({ name: 'notes', arguments: {} })).structuredContent).toEqual({ task: TASK, notes: [] });
  });

  it('ARTIFACT-2: a file over the size cap is refused', async () => {
    fs.writeFileSync(path.join(fx.world.worktree, 'big.log'), Buffer.alloc(10 * 1024 * 1024 + 1, 0x61));
    const client = await fx.world.connect({ env: sessionEnv });
    const result = await client.callTool({ name: 'emit_artifact', arguments: { path: 'big.log' } });
    expect(textOf(result)).toMatch(/^E_BAD_INPUT: big.log is 10485761 bytes; an artifact may be at most 10485760 bytes/);
  });

  it('MCP-5: complete moves the claimed packet to done with task_complete; a second complete says there is nothing claimed', async () => {
    const client = await fx.world.connect({ env: sessionEnv });
    const result = await client.callTool({ name: 'complete', arguments: { result: 'pass', summary: 'all criteria met' } });
    expect(result.structuredContent).toMatchObject({ task: TASK, result: 'pass', path: path.join(fx.world.bus, 'done', `host_1_${TASK}.md`) });
    expect(fs.readdirSync(path.join(fx.world.bus, 'claimed')).filter((n) => n.endsWith('.md'))).toEqual([]);
    expect(fx.world.events().slice(-2)).toEqual([
      expect.objectContaining({ event: 'task_progress', note: 'all criteria met' }),
      expect.objectContaining({ event: 'task_complete', task: TASK, result: 'pass' }),
    ]);
    const again = await client.callTool({ name: 'complete', arguments: { result: 'pass' } });
    expect(textOf(again)).toMatch(/^E_NOT_CLAIMED: task T-1 has no claimed packet/);
  });

  it('MCP-6: notes returns the unconsumed notes oldest first and marks them consumed', async () => {
    writeAnnotation(fx.world.bus, { task: TASK, turn: 1, body: 'use the v2 API' });
    writeAnnotation(fx.world.bus, { task: TASK, turn: 2, anchor: 'card:src/a.ts', body: 'and keep a.ts small' });
    const client = await fx.world.connect({ env: sessionEnv });
    const first = await client.callTool({ name: 'notes', arguments: {} });
    expect((first.structuredContent as { notes: { body: string }[] }).notes.map((n) => n.body)).toEqual(['use the v2 API', 'and keep a.ts small']);
    expect(textOf(first)).toContain('about card:src/a.ts: and keep a.ts small');
    const second = await client.callTool({ name: 'notes', arguments: {} });
    expect(second.structuredContent).toEqual({ task: TASK, notes: [] });
  });
});
