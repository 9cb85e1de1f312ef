// A local stand-in of an OpenAI-compatible chat-completions API on loopback (port 0)
// for tests: the real OpenCode CLI talks to it through its openai-compatible provider.
// Replies are scripted per request (text and tool calls, streamed as SSE); every request is recorded.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listenOnLoopback, readBody } from './loopback-server';

export interface RecordedChatRequest {
  method: string;
  /** Path without the query string, e.g. `/v1/chat/completions`. */
  path: string;
  headers: IncomingMessage['headers'];
  /** Parsed JSON body, or `undefined` when there was none or it was not JSON. */
  body: any;
  /** Arrival order among all requests, from 0. */
  index: number;
}

export interface ScriptedToolCall {
  id?: string;
  name: string;
  /** Serialized as the call's JSON `arguments`. */
  arguments: unknown;
}

export interface ScriptedChatReply {
  text?: string;
  toolCalls?: ScriptedToolCall[];
  /** Answer with this HTTP error instead. */
  error?: { status: number; message?: string };
  /** Characters per streamed delta (default 16). */
  chunk?: number;
}

export type ChatScript = (request: RecordedChatRequest) => ScriptedChatReply | Promise<ScriptedChatReply>;

export interface OpenAiChatOptions {
  /** Accepted as `authorization: Bearer <key>`; default `sk-test`. */
  apiKey?: string;
  /** Model ids listed by `GET /v1/models`; default `['stub-model']`. */
  models?: string[];
  reply?: ChatScript;
}

export interface OpenAiChat {
  /** Base URL including `/v1`, as a provider's `baseURL`. */
  url: string;
  apiKey: string;
  requests: RecordedChatRequest[];
  /** Only the `POST /v1/chat/completions` requests. */
  chatRequests(): RecordedChatRequest[];
  setReply(script: ChatScript): void;
  close(): Promise<void>;
}

const DEFAULT_REPLY: ChatScript = () => ({ text: 'stand-in reply' });

export async function startOpenAiChat(options: OpenAiChatOptions = {}): Promise<OpenAiChat> {
  const apiKey = options.apiKey ?? 'sk-test';
  const models = options.models ?? ['stub-model'];
  let script = options.reply ?? DEFAULT_REPLY;
  const requests: RecordedChatRequest[] = [];

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const raw = await readBody(req);
    let body: any;
    try { body = raw.length > 0 ? JSON.parse(raw.toString('utf8')) : undefined; } catch { body = undefined; }
    const recorded: RecordedChatRequest = { method: req.method ?? 'GET', path: url.pathname, headers: req.headers, body, index: requests.length };
    requests.push(recorded);
    if (req.headers.authorization !== `Bearer ${apiKey}`) return sendError(res, 401, 'invalid api key');
    if (req.method === 'GET' && url.pathname === '/v1/models') {
      return sendJson(res, 200, { object: 'list', data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'stand-in' })) });
    }
    if (req.method !== 'POST' || url.pathname !== '/v1/chat/completions') return sendError(res, 404, `${req.method} ${url.pathname} not found`);
    const invalid = validateBody(body);
    if (invalid) return sendError(res, 400, invalid);
    const reply = await script(recorded);
    if (reply.error) return sendError(res, reply.error.status, reply.error.message ?? 'scripted error');
    if (body.stream === true) streamReply(res, body.model, reply);
    else sendJson(res, 200, wholeReply(body.model, reply));
  }

  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, String(error));
      else res.destroy();
    });
  });
  const { port, close } = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}/v1`,
    apiKey,
    requests,
    chatRequests: () => requests.filter((r) => r.method === 'POST' && r.path === '/v1/chat/completions'),
    setReply: (next) => { script = next; },
    close,
  };
}

function validateBody(body: any): string | null {
  if (typeof body !== 'object' || body === null) return 'body: expected a JSON object';
  if (typeof body.model !== 'string' || body.model === '') return 'model: required';
  if (!Array.isArray(body.messages) || body.messages.length === 0) return 'messages: at least one message is required';
  return null;
}

const newId = (prefix: string): string => prefix + randomBytes(12).toString('hex');

function toolCallsOf(reply: ScriptedChatReply) {
  return (reply.toolCalls ?? []).map((call) => ({
    id: call.id ?? newId('call_'),
    type: 'function' as const,
    function: { name: call.name, arguments: JSON.stringify(call.arguments ?? {}) },
  }));
}

const usageOf = (reply: ScriptedChatReply) => ({ prompt_tokens: 10, completion_tokens: Math.max(1, (reply.text ?? '').length), total_tokens: 11 });

function wholeReply(model: string, reply: ScriptedChatReply) {
  const calls = toolCallsOf(reply);
  return {
    id: newId('chatcmpl-'), object: 'chat.completion', created: Math.floor(Date.now() / 1000), model,
    choices: [{
      index: 0,
      message: { role: 'assistant', content: reply.text ?? null, ...(calls.length > 0 ? { tool_calls: calls } : {}) },
      finish_reason: calls.length > 0 ? 'tool_calls' : 'stop',
    }],
    usage: usageOf(reply),
  };
}

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function streamReply(res: ServerResponse, model: string, reply: ScriptedChatReply): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const id = newId('chatcmpl-');
  const created = Math.floor(Date.now() / 1000);
  const send = (delta: unknown, finish: string | null = null, extra: object = {}) =>
    res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`);
  const size = reply.chunk ?? 16;
  send({ role: 'assistant', content: '' });
  for (const text of pieces(reply.text ?? '', size)) send({ content: text });
  const calls = toolCallsOf(reply);
  calls.forEach((call, index) => {
    send({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] });
    for (const args of pieces(call.function.arguments, size)) send({ tool_calls: [{ index, function: { arguments: args } }] });
  });
  send({}, calls.length > 0 ? 'tool_calls' : 'stop');
  res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: usageOf(reply) })}\n\n`);
  res.write('data: [DONE]\n\n');
  res.end();
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

function sendError(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, { error: { message, type: status === 401 ? 'invalid_request_error' : 'api_error', code: null } });
}
