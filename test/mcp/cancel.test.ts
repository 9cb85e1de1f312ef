// A question or approval whose asker is gone (ASK-7, ASK-8): the agent cancelled the call,
// its MCP server ended or was killed, or a raw long-poll dropped and never came back. A real
// relay on port 0, a paired device, the real `commandr mcp` through the SDK client, and raw
// long-polls with the hook credential.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { QuestionAsk, QuestionView } from '../../protocol/wire/questions';
import { openSocket, postJson } from '../helpers/device';
import { createRelay } from '../../relay/server';
import { ASKER_GRACE_MS } from '../../relay/questions/service';
import { TASK } from './fixture';
import { eachWorldWithPhone } from './each-world';

const fx = eachWorldWithPhone();

const sessionEnv = { AGENTS_TASK_ID: TASK };
const hookToken = () => fs.readFileSync(path.join(fx.world.dataDir, 'hook-token'), 'utf8').trim();
const pendingRequest = async (): Promise<QuestionView> => (await fx.phone.next('question.request', (f) => f.request.status === 'pending', 30_000)).request;
const settledRequest = async (id: string, timeoutMs = 30_000): Promise<QuestionView> =>
  (await fx.phone.next('question.request', (f) => f.request.id === id && f.request.status !== 'pending', timeoutMs)).request;

function questionBody(extra: Partial<QuestionAsk> = {}): QuestionAsk {
  return { kind: 'question', key: `q-${crypto.randomBytes(10).toString('hex')}`, task: TASK, cwd: fx.world.worktree, timeoutMs: 60_000, question: 'Still there?', choices: ['yes', 'no'], ...extra } as QuestionAsk;
}

/** Opens `POST /api/questions` as the MCP server does; the caller drops it with `destroy()`. */
function openPoll(body: QuestionAsk): { request: http.ClientRequest; answer: Promise<string> } {
  const text = JSON.stringify(body);
  const request = http.request(`${fx.world.relay.url}/api/questions`, {
    method: 'POST', agent: false,
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), authorization: `Bearer ${hookToken()}` },
  });
  const answer = new Promise<string>((resolve, reject) => {
    request.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      res.on('error', reject);
    });
    request.on('error', reject);
  });
  answer.catch(() => {});
  request.end(text);
  return { request, answer };
}

describe('a question whose asker is gone', () => {
  it('ASK-7: a long-poll that drops and never comes back: after the grace period the question is withdrawn on the phone and a late answer is refused', async () => {
    const poll = openPoll(questionBody());
    const request = await pendingRequest();
    poll.request.destroy();
    const after = await settledRequest(request.id);
    expect(after).toMatchObject({ status: 'expired', withdrawn: 'gone', answer: null, by: null });
    const late = await fx.phone.request({ type: 'question.answer', request: request.id, via: 'choice', choice: 0 }).catch((error: unknown) => error);
    expect(late).toMatchObject({ code: 'E_EXPIRED' });
    expect((late as Error).message).toMatch(/withdrawn: the agent that asked it is gone/);
    // The phone sees the withdrawn one as settled after a fresh subscribe too.
    fx.phone.clear();
    await fx.phone.request({ type: 'subscribe' });
    const { requests } = await fx.phone.next('question.list');
    expect(requests.find((r) => r.id === request.id)).toMatchObject({ status: 'expired', withdrawn: 'gone' });
  }, 60_000);

  it('ASK-7: a long-poll that drops and asks again with the same key keeps the question, and receives the answer', async () => {
    const body = questionBody({ question: 'Keep me?' });
    const first = openPoll(body);
    const request = await pendingRequest();
    first.request.destroy();
    const again = openPoll(body);
    await fx.phone.request({ type: 'question.answer', request: request.id, via: 'text', text: 'kept' });
    expect(JSON.parse(await again.answer)).toMatchObject({ request: { id: request.id, status: 'answered', answer: 'kept', by: 'pixel' } });
    expect(fx.phone.received.some((f) => f.type === 'question.request' && (f as { request: QuestionView }).request.id === request.id
      && (f as { request: QuestionView }).request.status === 'expired')).toBe(false);
  }, 60_000);

  it('ASK-7: a question pending across a relay restart is withdrawn when no asker comes back within the grace period', async () => {
    const poll = openPoll(questionBody({ question: 'Across a restart?' }));
    const request = await pendingRequest();
    await fx.phone.close();
    await fx.world.relay.close();
    poll.request.destroy();
    await fx.world.startRelay();
    fx.phone = await openSocket(fx.world.relay, fx.phone.device!);
    fx.phone.clear();
    await fx.phone.request({ type: 'subscribe' });
    expect((await fx.phone.next('question.list')).requests.find((r) => r.id === request.id)).toMatchObject({ status: 'pending' });
    expect(await settledRequest(request.id)).toMatchObject({ status: 'expired', withdrawn: 'gone' });
  }, 60_000);

  it('ASK-7: across a relay restart the MCP server asks again with the key, so its question stays open and gets the answer', async () => {
    const client = await fx.world.connect({ env: sessionEnv });
    const call = client.callTool({ name: 'ask', arguments: { question: 'Survive a restart?', timeout_s: 120 } });
    const request = await pendingRequest();
    const port = fx.world.relay.port;
    await fx.phone.close();
    await fx.world.relay.close();
    fx.world.relay = await createRelay({
      port, host: '127.0.0.1', demo: false, repos: [fx.world.repo], dataDir: fx.world.dataDir,
      registryFile: path.join(fx.world.dataDir, 'no-registry'), appDir: path.join(fx.world.dataDir, 'no-app'),
    });
    fx.phone = await openSocket(fx.world.relay, fx.phone.device!);
    // Past the grace period (not a synchronisation: the time itself is what is tested): had the
    // server not asked again, the question would be withdrawn by now.
    await new Promise((r) => setTimeout(r, ASKER_GRACE_MS + 1000));
    await fx.phone.request({ type: 'subscribe' });
    expect((await fx.phone.next('question.list')).requests.find((r) => r.id === request.id)).toMatchObject({ status: 'pending' });
    await fx.phone.request({ type: 'question.answer', request: request.id, via: 'text', text: 'yes' });
    expect((await call).structuredContent).toMatchObject({ answered: true, answer: 'yes' });
  }, 60_000);

  it('ASK-7: POST /api/questions/cancel withdraws a pending approval at once (the waiting poll gets it); a decision after it is refused; a bad body or credential is refused', async () => {
    const body = { ...questionBody(), kind: 'approval', action: 'deploy to staging', reason: 'tests pass' } as QuestionAsk;
    delete (body as { question?: string }).question;
    delete (body as { choices?: string[] }).choices;
    const poll = openPoll(body);
    const request = await pendingRequest();
    const auth = { authorization: `Bearer ${hookToken()}` };
    const cancelled = await postJson(fx.world.relay, '/api/questions/cancel', { key: request.id }, auth);
    expect(cancelled.status).toBe(200);
    expect(JSON.parse(cancelled.body)).toMatchObject({ request: { id: request.id, status: 'expired', withdrawn: 'cancelled' } });
    expect(await settledRequest(request.id)).toMatchObject({ status: 'expired', withdrawn: 'cancelled' });
    expect(JSON.parse(await poll.answer)).toMatchObject({ request: { id: request.id, status: 'expired', withdrawn: 'cancelled' } });
    const late = await fx.phone.request({ type: 'question.decide', request: request.id, decision: 'approve' }).catch((error: unknown) => error);
    expect(late).toMatchObject({ code: 'E_EXPIRED' });
    expect((late as Error).message).toMatch(/withdrawn: the agent cancelled it; no one waits for a decision/);
    expect((await postJson(fx.world.relay, '/api/questions/cancel', { key: 'nope' }, auth)).body).toMatch(/E_BAD_FRAME.*key/);
    expect((await postJson(fx.world.relay, '/api/questions/cancel', { key: `q-${'0'.repeat(20)}` }, auth)).status).toBe(404);
    expect((await postJson(fx.world.relay, '/api/questions/cancel', { key: request.id }, { authorization: 'Bearer wrong' })).status).toBe(401);
  }, 60_000);
});

describe('commandr mcp stops waiting when the call is cancelled', () => {
  for (const [how, asAgent] of [['the Node server', false], ['the relay through the pipe (MCP-ONE-4)', true]] as const) {
    it(`ASK-8: notifications/cancelled from the client: the server stops waiting and withdraws the question at once; the bus closes it — ${how}`, async () => {
      const client = await fx.world.connect({ env: sessionEnv, asAgent });
      const controller = new AbortController();
      const call = client.callTool({ name: 'ask', arguments: { question: 'Which port?', choices: ['80', '443'], timeout_s: 600 } }, undefined, { signal: controller.signal });
      call.catch(() => {});
      const request = await pendingRequest();
      controller.abort('the person pressed Esc');
      await expect(call).rejects.toThrow();
      // Withdrawn by the server's explicit cancel, well before the relay's grace period would do it.
      expect(await settledRequest(request.id)).toMatchObject({ status: 'expired', withdrawn: 'cancelled' });
      await expect(fx.phone.request({ type: 'question.answer', request: request.id, via: 'choice', choice: 1 })).rejects.toMatchObject({ code: 'E_EXPIRED' });
      expect(fx.world.events().filter((e) => String(e.event).startsWith('question_'))).toEqual([
        expect.objectContaining({ event: 'question_asked', question: request.id }),
        expect.objectContaining({ event: 'question_answered', question: request.id, via: 'timeout' }),
      ]);
      // The server is still there for the next call.
      expect((await client.callTool({ name: 'progress', arguments: { note: 'went on without an answer' } })).structuredContent).toMatchObject({ note: 'went on without an answer' });
    }, 60_000);

    it(`ASK-8: the agent closes the server (its stdin) while request_approval waits: the request is withdrawn before the server exits — ${how}`, async () => {
      const client = await fx.world.connect({ env: sessionEnv, asAgent });
      const call = client.callTool({ name: 'request_approval', arguments: { action: 'drop the table', reason: 'unused', timeout_s: 600 } });
      call.catch(() => {});
      const request = await pendingRequest();
      await client.close();
      expect(await settledRequest(request.id)).toMatchObject({ status: 'expired', withdrawn: 'cancelled' });
    }, 60_000);
  }

  it('ASK-8 MCP-ONE-4: the pipe is killed while ask waits: the relay ends the session and withdraws the question at once (cancelled, not after the grace period)', async () => {
    const client = await fx.world.connect({ env: sessionEnv, asAgent: true });
    const call = client.callTool({ name: 'ask', arguments: { question: 'Still piped?', timeout_s: 600 } });
    call.catch(() => {});
    const request = await pendingRequest();
    process.kill((client.transport as { pid?: number | null } | undefined)!.pid!, 'SIGKILL');
    expect(await settledRequest(request.id)).toMatchObject({ status: 'expired', withdrawn: 'cancelled' });
  }, 60_000);

  it('ASK-7: the server is killed while ask waits: its long-poll is gone, so the relay withdraws the question after the grace period', async () => {
    const client = await fx.world.connect({ env: sessionEnv });
    const call = client.callTool({ name: 'ask', arguments: { question: 'Are you there?', timeout_s: 600 } });
    call.catch(() => {});
    const request = await pendingRequest();
    const pid = (client.transport as { pid?: number | null } | undefined)?.pid;
    expect(pid).toBeGreaterThan(0);
    process.kill(pid!, 'SIGKILL');
    expect(await settledRequest(request.id)).toMatchObject({ status: 'expired', withdrawn: 'gone' });
  }, 60_000);
});
