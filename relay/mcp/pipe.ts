// The one MCP implementation, hosted by the running relay (MCP-ONE-1..7). `commandr mcp`
// (bin/commandr-mcp.bash) opens two loopback connections to MCP_PIPE_PATH, each an HTTP/1.1
// upgrade to `commandr-mcp` with the relay-wide hook credential: `down` (relay → agent) carries
// the session's fields and gets a pairing id back, `up` (agent → relay) names that id and is
// taken with no answer (the relay never writes to it: MCP-ONE-3). From then on each is a plain
// byte stream, and the relay serves the SDK server (`createMcpServer`, the same one `node
// bin/commandr mcp` serves on its own) over them, scoped to the session's directory and task
// exactly as that server would be. Two connections, one per direction, so that the agent
// closing the server's stdin — or killing it — closes `up` by itself (no process has to survive
// to say so), and the relay then ends the session and `down` with it: nothing lingers on either
// side (MCP-ONE-4).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import type * as net from 'node:net';
import { Transform } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer } from '../../adapters/mcp/server';
import { cancelsSent } from '../../adapters/mcp/relay-ask';
import { MAX_FRAME_BYTES } from '../../protocol/wire/frames';

export const MCP_PIPE_PATH = '/api/mcp/pipe';
export const MCP_PIPE_PROTOCOL = 'commandr-mcp';
/** The session fields a pipe may carry (MCP-ONE-3): what the server reads of its environment, nothing else. */
export const PIPE_FIELDS = ['PWD', 'AGENTS_TASK_ID', 'COMMANDR_TASK', 'COMMANDR_AGENT_ID', 'GIT_DIR', 'GIT_WORK_TREE'] as const;
const MAX_FIELD_BYTES = 4096;
/** `up` must follow its `down` within this (MCP-ONE-3). */
export const PAIR_TIMEOUT_MS = 5_000;
const MAX_PENDING = 32;
const MAX_SESSIONS = 256;
/** A JSON-RPC message from the agent may be as long as a client frame (MCP-ONE-9): the SDK buffers a line until its end. */
export const MAX_MESSAGE_BYTES = MAX_FRAME_BYTES;
/** What the relay holds unsent for an agent that does not read its answers (MCP-ONE-9). */
export const MAX_UNREAD_BYTES = 4 * MAX_FRAME_BYTES;

export interface McpHostOptions {
  hookToken: string;
  dataDir: string;
  /** The relay's own URL, known once it listens: the tools ask the phone through it (ASK-1). */
  url: () => string;
  log: { warn(obj: unknown, msg?: string): void };
}

export interface McpHost {
  upgrade(req: http.IncomingMessage, socket: net.Socket, head: Buffer): void;
  /** Sessions served since start, and open now (tests, `doctor`). */
  stats(): { served: number; open: number };
  close(): Promise<void>;
}

interface Pending {
  down: net.Socket;
  fields: Record<string, string>;
  timer: NodeJS.Timeout;
}

export class PipeRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The session's fields from a `down` request's `Commandr-Env: KEY=value` headers; throws a PipeRefusal naming what is wrong. */
export function pipeFields(rawHeaders: string[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i].toLowerCase() !== 'commandr-env') continue;
    // Node reads header bytes as latin1; the shell sent UTF-8.
    const raw = Buffer.from(rawHeaders[i + 1], 'latin1');
    if (raw.length > MAX_FIELD_BYTES) throw new PipeRefusal(400, 'E_BAD_FRAME', `Commandr-Env: a field longer than ${MAX_FIELD_BYTES} bytes`);
    const text = raw.toString('utf8');
    const eq = text.indexOf('=');
    const key = eq < 0 ? text : text.slice(0, eq);
    if (!(PIPE_FIELDS as readonly string[]).includes(key)) throw new PipeRefusal(400, 'E_BAD_FRAME', `Commandr-Env: "${key.slice(0, 40)}" is not a field the pipe takes (${PIPE_FIELDS.join(', ')})`);
    if (key in fields) throw new PipeRefusal(400, 'E_BAD_FRAME', `Commandr-Env: ${key} given twice`);
    // eslint-disable-next-line no-control-regex
    if (text.includes('\uFFFD') || /[\u0000-\u001f\u007f]/.test(text)) throw new PipeRefusal(400, 'E_BAD_FRAME', `Commandr-Env: ${key} holds control characters or bytes that are not UTF-8`);
    fields[key] = text.slice(eq + 1);
  }
  const cwd = fields.PWD;
  if (cwd === undefined) throw new PipeRefusal(400, 'E_BAD_FRAME', 'Commandr-Env: PWD (the session\'s directory) is missing');
  if (!path.isAbsolute(cwd)) throw new PipeRefusal(400, 'E_BAD_FRAME', `Commandr-Env: PWD must be an absolute path, not "${cwd.slice(0, 80)}"`);
  let dir = false;
  try {
    dir = fs.statSync(cwd).isDirectory();
  } catch {
    /* below */
  }
  if (!dir) throw new PipeRefusal(400, 'E_BAD_FRAME', `Commandr-Env: PWD ${cwd.slice(0, 200)} is not a directory here`);
  return fields;
}

function credentialOk(req: http.IncomingMessage, hookToken: string): boolean {
  const header = req.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer ([A-Za-z0-9_.-]{1,200})$/.exec(header) : null;
  if (!match) return false;
  const given = Buffer.from(match[1]);
  const want = Buffer.from(hookToken);
  return given.length === want.length && timingSafeEqual(given, want);
}

function refuse(socket: net.Socket, status: number, code: string, message: string): void {
  const body = JSON.stringify({ type: 'error', error: { code, message } });
  socket.end(`HTTP/1.1 ${status} Refused\r\nConnection: close\r\nCommandr-Error: ${code}: ${message.replace(/[^\x20-\x7e]/g, '?')}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}

function switched(socket: net.Socket, extra = ''): void {
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: ${MCP_PIPE_PROTOCOL}\r\nConnection: Upgrade\r\n${extra}\r\n`);
}

/**
 * MCP-ONE-9: `up` as the server reads it, bounded. The SDK's stdio transport keeps every byte of
 * a line until its newline, and writes each answer whether or not the agent reads it, so one
 * session could grow the relay's memory without end: one whose message passes MAX_MESSAGE_BYTES,
 * or that leaves more than MAX_UNREAD_BYTES of answers unread, is ended instead.
 */
function bounded(up: net.Socket, down: net.Socket, overflow: (why: string) => void): Transform {
  let line = 0; // bytes since the last newline
  let over = false;
  const stop = (why: string, done: () => void): void => {
    over = true;
    done();
    overflow(why);
  };
  const out = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (over) return done();
      let start = 0;
      for (let at = chunk.indexOf(0x0a); at >= 0; at = chunk.indexOf(0x0a, start)) {
        if (line + at - start > MAX_MESSAGE_BYTES) return stop(`a message over ${MAX_MESSAGE_BYTES} bytes`, done);
        line = 0;
        start = at + 1;
      }
      line += chunk.length - start;
      if (line > MAX_MESSAGE_BYTES) return stop(`a message over ${MAX_MESSAGE_BYTES} bytes`, done);
      if (down.writableLength > MAX_UNREAD_BYTES) return stop(`over ${MAX_UNREAD_BYTES} bytes of answers left unread`, done);
      done(null, chunk);
    },
  });
  up.pipe(out);
  return out;
}

export function startMcpHost(options: McpHostOptions): McpHost {
  const pending = new Map<string, Pending>();
  const open = new Set<() => void>();
  let served = 0;
  let closed = false;

  /** The server's environment: the relay's own (PATH, HOME for git) without any session field, then the session's, then how to reach this relay. */
  function toolEnv(fields: Record<string, string>): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const key of PIPE_FIELDS) delete env[key];
    for (const key of ['COMMANDR_URL', 'COMMANDR_HOOK_TOKEN', 'CLAUDE_PROJECT_DIR']) delete env[key];
    for (const [key, value] of Object.entries(fields)) if (key !== 'PWD') env[key] = value;
    env.COMMANDR_HOME = options.dataDir;
    env.COMMANDR_URL = options.url();
    env.COMMANDR_HOOK_TOKEN = options.hookToken;
    return env;
  }

  function serve(p: Pending, up: net.Socket, head: Buffer): void {
    const { down, fields } = p;
    const server = createMcpServer({ cwd: fields.PWD, env: toolEnv(fields) });
    if (head.length > 0) up.unshift(head);
    const transport = new StdioServerTransport(bounded(up, down, (why) => {
      options.log.warn(new Error(`mcp pipe: session in ${fields.PWD} ended: ${why}`));
      end();
    }), down);
    served++;
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      open.delete(end);
      // Closing aborts the calls still waiting; their questions are withdrawn from the phone first (ASK-8).
      void server
        .close()
        .then(cancelsSent)
        .catch(() => {})
        .finally(() => {
          up.destroy();
          down.destroy();
        });
    };
    open.add(end);
    // The agent closed the server's stdin, or the server is gone: `up` ends or breaks (MCP-ONE-4).
    up.once('end', end);
    up.once('close', end);
    down.once('close', end);
    down.on('error', () => {}); // a write to a gone agent; `close` follows
    server.connect(transport).catch((error: unknown) => {
      options.log.warn(error, 'mcp pipe: the server did not start');
      end();
    });
  }

  function upgrade(req: http.IncomingMessage, socket: net.Socket, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    if (closed) return refuse(socket, 503, 'E_UNAVAILABLE', 'the relay is stopping');
    if (req.headers.origin !== undefined) return refuse(socket, 403, 'E_FORBIDDEN_ORIGIN', 'the MCP pipe is not for browsers');
    if (String(req.headers.upgrade ?? '').toLowerCase() !== MCP_PIPE_PROTOCOL) return refuse(socket, 400, 'E_BAD_FRAME', `the MCP pipe upgrades to ${MCP_PIPE_PROTOCOL}`);
    // Only the relay-wide hook credential: a run's scoped one (JOBTOKEN-1) keeps its server in its sandbox (MCP-ONE-5).
    if (!credentialOk(req, options.hookToken)) return refuse(socket, 401, 'E_UNAUTHORIZED', "the MCP pipe takes the relay's hook credential ($COMMANDR_HOME/hook-token) only");
    const role = req.headers['commandr-mcp-role'];
    try {
      if (role === 'down') {
        if (head.length > 0) throw new PipeRefusal(400, 'E_BAD_FRAME', 'nothing may follow the down request before its answer');
        if (pending.size >= MAX_PENDING || open.size >= MAX_SESSIONS) throw new PipeRefusal(503, 'E_UNAVAILABLE', 'too many MCP sessions at once');
        const fields = pipeFields(req.rawHeaders);
        const id = randomBytes(16).toString('hex');
        const timer = setTimeout(() => {
          pending.delete(id);
          socket.destroy();
        }, PAIR_TIMEOUT_MS);
        timer.unref();
        pending.set(id, { down: socket, fields, timer });
        socket.once('close', () => {
          if (pending.get(id)?.down === socket) {
            clearTimeout(timer);
            pending.delete(id);
          }
        });
        switched(socket, `Commandr-Mcp-Session: ${id}\r\n`);
        return;
      }
      if (role === 'up') {
        const id = String(req.headers['commandr-mcp-session'] ?? '');
        const p = pending.get(id);
        if (!p) throw new PipeRefusal(404, 'E_NOT_FOUND', 'no MCP session is waiting under that id (pair the up connection within 5 s of its down)');
        pending.delete(id);
        clearTimeout(p.timer);
        // Taken without an answer (MCP-ONE-3): a socket the relay has written to delays its ACKs
        // (Linux's delayed-ACK "ping-pong" mode), and the agent's second quick message — the
        // `initialized` notification, then `tools/list` — would wait ~40 ms for one under Nagle.
        // Refusals are still answered; `down`, already switched, is what the agent reads.
        serve(p, socket, head);
        return;
      }
      throw new PipeRefusal(400, 'E_BAD_FRAME', 'Commandr-Mcp-Role must be down or up');
    } catch (error) {
      if (error instanceof PipeRefusal) return refuse(socket, error.status, error.code, error.message);
      throw error;
    }
  }

  return {
    upgrade,
    stats: () => ({ served, open: open.size }),
    async close() {
      closed = true;
      for (const p of pending.values()) {
        clearTimeout(p.timer);
        p.down.destroy();
      }
      pending.clear();
      for (const end of [...open]) end();
    },
  };
}
