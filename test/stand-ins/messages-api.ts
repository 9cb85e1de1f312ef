// A local stand-in of the Anthropic Messages API on loopback (port 0) for tests:
// the council's built-in evaluator and the real Claude Code CLI talk to it as if
// to api.anthropic.com. Replies are scripted per request; every request is recorded.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listenOnLoopback, readBody } from './loopback-server';

export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. `/v1/messages`. */
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  /** Parsed JSON body, or `undefined` when there was none or it was not JSON. */
  body: any;
  /** Arrival order among all requests, from 0. */
  index: number;
  /** When its whole body had arrived (`performance.now()`, ms). */
  at: number;
}

export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id?: string; name: string; input: unknown }
  | { type: 'thinking'; thinking: string; signature?: string };

export interface ScriptedReply {
  /** Shorthand for one text block. */
  text?: string;
  content?: ContentBlock[];
  stop_reason?: 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence';
  model?: string;
  usage?: { input_tokens: number; output_tokens: number };
  /** Answer with this API error instead (e.g. `{status: 529, type: 'overloaded_error'}`). */
  error?: { status: number; type: string; message?: string };
  /** Wait this long before answering (timeout tests); cut short if the client goes away. */
  delayMs?: number;
  /** Characters per streamed text/json delta (default 8). */
  chunk?: number;
}

export type ReplyScript = (request: RecordedRequest) => ScriptedReply | Promise<ScriptedReply>;

export interface MessagesApiOptions {
  /** Accepted in `x-api-key` or `authorization: Bearer`; default `test-key`. */
  apiKey?: string;
  reply?: ReplyScript;
}

export interface MessagesApi {
  /** Base URL to give as ANTHROPIC_BASE_URL / `baseURL`, e.g. `http://127.0.0.1:41234`. */
  url: string;
  apiKey: string;
  requests: RecordedRequest[];
  /** Only the `POST /v1/messages` requests. */
  messageRequests(): RecordedRequest[];
  setReply(script: ReplyScript): void;
  close(): Promise<void>;
}

const DEFAULT_REPLY: ReplyScript = () => ({ text: 'VOTE: PASS\nREASON: stand-in default' });

export async function startMessagesApi(options: MessagesApiOptions = {}): Promise<MessagesApi> {
  const apiKey = options.apiKey ?? 'test-key';
  let script = options.reply ?? DEFAULT_REPLY;
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, 'api_error', String(error));
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const raw = await readBody(req);
    let body: any;
    try { body = raw.length > 0 ? JSON.parse(raw.toString('utf8')) : undefined; } catch { body = undefined; }
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET', path: url.pathname, query: Object.fromEntries(url.searchParams),
      headers: req.headers, body, index: requests.length, at: performance.now(),
    };
    requests.push(recorded);
    if (url.pathname === '/api/hello') { res.writeHead(200, { 'content-type': 'application/json' }); res.end(req.method === 'HEAD' ? undefined : '{}'); return; }
    if (req.method !== 'POST' || (url.pathname !== '/v1/messages' && url.pathname !== '/v1/messages/count_tokens')) {
      sendError(res, 404, 'not_found_error', `${req.method} ${url.pathname} not found`);
      return;
    }
    const authProblem = checkHeaders(req, apiKey);
    if (authProblem) { sendError(res, authProblem.status, authProblem.type, authProblem.message); return; }
    const invalid = validateBody(body);
    if (invalid) { sendError(res, 400, 'invalid_request_error', invalid); return; }
    if (url.pathname === '/v1/messages/count_tokens') { sendJson(res, 200, { input_tokens: estimateTokens(body) }); return; }
    const reply = await script(recorded);
    if (reply.delayMs) {
      const stillThere = await waitUnlessGone(req, res, reply.delayMs);
      if (!stillThere) return;
    }
    if (reply.error) { sendError(res, reply.error.status, reply.error.type, reply.error.message ?? reply.error.type); return; }
    const message = buildMessage(reply, body);
    if (body.stream === true) streamMessage(res, message, reply.chunk ?? 8);
    else sendJson(res, 200, message);
  }

  const { port, close } = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    requests,
    messageRequests: () => requests.filter((r) => r.method === 'POST' && r.path === '/v1/messages'),
    setReply: (next) => { script = next; },
    close,
  };
}

function checkHeaders(req: IncomingMessage, apiKey: string): { status: number; type: string; message: string } | null {
  const key = req.headers['x-api-key'];
  const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  if (key !== apiKey && bearer !== apiKey) return { status: 401, type: 'authentication_error', message: 'invalid x-api-key' };
  if (!req.headers['anthropic-version']) return { status: 400, type: 'invalid_request_error', message: 'anthropic-version: header is required' };
  return null;
}

function validateBody(body: any): string | null {
  if (typeof body !== 'object' || body === null) return 'body: expected a JSON object';
  if (typeof body.model !== 'string' || body.model === '') return 'model: Field required';
  if (!Array.isArray(body.messages) || body.messages.length === 0) return 'messages: at least one message is required';
  for (const [i, m] of body.messages.entries()) {
    if (!['user', 'assistant', 'system'].includes(m?.role)) return `messages.${i}.role: Input should be 'user' or 'assistant'`;
    if (typeof m.content !== 'string' && !Array.isArray(m.content)) return `messages.${i}.content: Field required`;
  }
  return null;
}

function waitUnlessGone(req: IncomingMessage, res: ServerResponse, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => { res.off('close', gone); resolve(true); }, ms);
    const gone = () => { clearTimeout(timer); resolve(false); };
    res.on('close', gone);
    void req;
  });
}

function id(prefix: string): string {
  return prefix + randomBytes(12).toString('hex');
}

function estimateTokens(body: any): number {
  return Math.max(1, Math.ceil(JSON.stringify(body.messages ?? '').length / 4));
}

function buildMessage(reply: ScriptedReply, body: any) {
  const blocks: ContentBlock[] = reply.content ?? [{ type: 'text', text: reply.text ?? '' }];
  const content = blocks.map((b) => (b.type === 'tool_use' ? { ...b, id: b.id ?? id('toolu_') } : b));
  const outputTokens = Math.max(1, Math.ceil(JSON.stringify(content).length / 4));
  return {
    id: id('msg_'),
    type: 'message',
    role: 'assistant',
    model: reply.model ?? body.model,
    content,
    stop_reason: reply.stop_reason ?? (content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn'),
    stop_sequence: null,
    usage: reply.usage ?? { input_tokens: estimateTokens(body), output_tokens: outputTokens },
  };
}

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length > 0 ? out : [''];
}

function streamMessage(res: ServerResponse, message: ReturnType<typeof buildMessage>, chunk: number): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': id('req_') });
  const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  send('message_start', {
    type: 'message_start',
    message: { ...message, content: [], stop_reason: null, usage: { input_tokens: message.usage.input_tokens, output_tokens: 1 } },
  });
  send('ping', { type: 'ping' });
  message.content.forEach((block: any, index: number) => {
    if (block.type === 'text') {
      send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      for (const text of pieces(block.text, chunk)) send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
    } else if (block.type === 'tool_use') {
      send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      for (const partial_json of pieces(JSON.stringify(block.input), chunk)) {
        send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } });
      }
    } else {
      send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      for (const thinking of pieces(block.thinking, chunk)) send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking } });
      send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature ?? id('sig_') } });
    }
    send('content_block_stop', { type: 'content_block_stop', index });
  });
  send('message_delta', { type: 'message_delta', delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage: { output_tokens: message.usage.output_tokens } });
  send('message_stop', { type: 'message_stop' });
  res.end();
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req_') });
  res.end(JSON.stringify(value));
}

function sendError(res: ServerResponse, status: number, type: string, message: string): void {
  sendJson(res, status, { type: 'error', error: { type, message } });
}
