// The Messages API stand-in itself must look like the real API to its clients:
// the official SDK (create and stream) and raw HTTP as Claude Code sends it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMessagesApi, type MessagesApi } from './messages-api';

let api: MessagesApi;
beforeEach(async () => { api = await startMessagesApi({ apiKey: 'sk-test' }); });
afterEach(async () => { await api.close(); });

function client() {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sdk = require('@anthropic-ai/sdk') as typeof import('@anthropic-ai/sdk');
  return new sdk.Anthropic({ apiKey: 'sk-test', baseURL: api.url, maxRetries: 0, logLevel: 'off' });
}

const post = (path: string, body: unknown, headers: Record<string, string> = { 'x-api-key': 'sk-test', 'anthropic-version': '2023-06-01' }) =>
  fetch(api.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

async function sseEvents(res: Response): Promise<any[]> {
  const text = await res.text();
  return text.split('\n\n').filter(Boolean).map((block) => {
    const [eventLine, dataLine] = block.split('\n');
    const data = JSON.parse(dataLine!.slice('data: '.length));
    expect(eventLine).toBe(`event: ${data.type}`);
    return data;
  });
}

describe('Messages API stand-in', () => {
  it('STANDIN-1: the SDK round-trips messages.create and messages.stream; every request is recorded', async () => {
    api.setReply((r) => ({ text: `echo:${r.body.messages.at(-1).content}` }));
    const made = await client().messages.create({ model: 'm', max_tokens: 50, messages: [{ role: 'user', content: 'hello' }] });
    expect(made.content).toEqual([{ type: 'text', text: 'echo:hello' }]);
    expect(made.stop_reason).toBe('end_turn');
    const streamed = await client().messages.stream({ model: 'm', max_tokens: 50, messages: [{ role: 'user', content: 'a longer message to split' }] }).finalMessage();
    expect(streamed.content).toEqual([{ type: 'text', text: 'echo:a longer message to split' }]);
    expect(api.messageRequests().map((r) => r.body.stream ?? false)).toEqual([false, true]);
  });

  it('STANDIN-2: streams message_start, content_block_start/delta/stop, message_delta, message_stop and scripts tool_use with input_json_delta', async () => {
    api.setReply(() => ({ content: [{ type: 'text', text: 'Let me look.' }, { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/x/y.ts', limit: 20 } }], chunk: 5 }));
    const res = await post('/v1/messages?beta=true', { model: 'm', max_tokens: 10, stream: true, messages: [{ role: 'system', content: 'sys' }, { role: 'user', content: 'go' }] });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = await sseEvents(res);
    const types = events.map((e) => e.type).filter((t) => t !== 'ping');
    expect(types[0]).toBe('message_start');
    expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
    const json = events.filter((e) => e.delta?.type === 'input_json_delta').map((e) => e.delta.partial_json).join('');
    expect(JSON.parse(json)).toEqual({ file_path: '/x/y.ts', limit: 20 });
    expect(events.find((e) => e.type === 'content_block_start' && e.index === 1).content_block).toEqual({ type: 'tool_use', id: 'toolu_1', name: 'Read', input: {} });
    expect(events.find((e) => e.type === 'message_delta').delta.stop_reason).toBe('tool_use');
    expect(api.requests[0]!.query).toEqual({ beta: 'true' });
    const final = await client().messages.stream({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'go' }] }).finalMessage();
    expect(final.content[1]).toEqual({ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/x/y.ts', limit: 20 } });
  });

  it('STANDIN-3: checks the key and anthropic-version headers and the body, answering with API error bodies', async () => {
    const body = { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] };
    const wrongKey = await post('/v1/messages', body, { 'x-api-key': 'nope', 'anthropic-version': '2023-06-01' });
    expect(wrongKey.status).toBe(401);
    expect(await wrongKey.json()).toEqual({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } });
    expect((await post('/v1/messages', body, { 'x-api-key': 'sk-test' })).status).toBe(400);
    expect((await post('/v1/messages', { ...body, model: undefined })).status).toBe(400);
    expect((await post('/v1/messages', body, { authorization: 'Bearer sk-test', 'anthropic-version': '2023-06-01' })).status).toBe(200);
    api.setReply(() => ({ error: { status: 529, type: 'overloaded_error', message: 'Overloaded' } }));
    const overloaded = await post('/v1/messages', body);
    expect(overloaded.status).toBe(529);
    expect(await overloaded.json()).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
  });

  it('STANDIN-4: answers HEAD /api/hello with 200 and unknown paths with a 404 error body', async () => {
    expect((await fetch(api.url + '/api/hello', { method: 'HEAD' })).status).toBe(200);
    const missing = await fetch(api.url + '/v1/other');
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.type).toBe('not_found_error');
  });

  it('STANDIN-5: a delayed reply is dropped when the client gives up, and close() ends open connections', async () => {
    api.setReply(() => ({ text: 'late', delayMs: 60_000 }));
    const aborted = post('/v1/messages', { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] });
    const deadline = Date.now() + 5000;
    while (api.requests.length === 0 && Date.now() < deadline) await new Promise((r) => setImmediate(r));
    expect(api.requests).toHaveLength(1);
    await api.close();
    await expect(aborted).rejects.toThrow();
    api = await startMessagesApi();
  });
});
