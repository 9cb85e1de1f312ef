// `commandr mcp`: the bus as tools an agent can call, served over stdio (MCP-1).
// stdout belongs to the protocol: anything this entry says goes to stderr.
// Usually started by the shell responder (bin/commandr-mcp.bash) on the first message
// it does not answer itself, with `--replay-fd=N` (MCP-FAST-3): what it already took is
// replayed first, the answers to its requests suppressed, then stdin is read from where
// the responder stopped.
import * as fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { cancelsSent } from '../adapters/mcp/relay-ask';
import { createMcpServer } from '../adapters/mcp/server';

export interface Replay {
  /** Lines the responder answered or took (the `initialize`, `notifications/initialized`): handled again, answers dropped. */
  lines: string[];
  /** The bytes it had read and not handled: the rest of the line follows on stdin. */
  pending: Buffer;
}

/** fd content: `<n>\n`, n lines, then the pending bytes, then the here-string's own newline. */
export function parseReplay(data: Buffer): Replay {
  if (data.length === 0 || data[data.length - 1] !== 0x0a) throw new Error('replay: the handover is cut short');
  let at = data.indexOf(0x0a);
  const n = Number(data.subarray(0, at).toString('latin1'));
  if (!Number.isInteger(n) || n < 0) throw new Error('replay: no line count');
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const end = data.indexOf(0x0a, at + 1);
    if (end < 0) throw new Error('replay: fewer lines than announced');
    lines.push(data.subarray(at + 1, end).toString('utf8'));
    at = end;
  }
  return { lines, pending: data.subarray(at + 1, data.length - 1) };
}

function readReplay(fd: number): Replay {
  try {
    return parseReplay(fs.readFileSync(fd));
  } finally {
    fs.closeSync(fd);
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.some((a) => a === '--help' || a === '-h')) {
    process.stdout.write('usage: commandr mcp   serve the commandr tools (progress, ask, request_approval, emit_artifact, complete, notes) over stdio\n');
    return;
  }
  const fdArg = args.find((a) => a.startsWith('--replay-fd='));
  const replay = fdArg === undefined ? undefined : readReplay(Number(fdArg.slice('--replay-fd='.length)));
  const server = createMcpServer({ cwd: process.cwd(), env: process.env });
  let input: Readable = process.stdin;
  let transport: StdioServerTransport;
  if (replay) {
    // The replayed requests get an id no agent uses, so their answers (already given) are dropped.
    const hidden = new Set<string>();
    const replayed: string[] = [];
    for (const line of replay.lines) {
      const message = JSON.parse(line) as JSONRPCMessage;
      if ('id' in message && 'method' in message) {
        const id = `commandr-replayed-${randomUUID()}`;
        hidden.add(id);
        replayed.push(JSON.stringify({ ...message, id }));
      } else replayed.push(line);
    }
    const stream = new PassThrough();
    stream.write(replayed.map((l) => `${l}\n`).join(''));
    stream.write(replay.pending);
    process.stdin.pipe(stream);
    input = stream;
    transport = new StdioServerTransport(input, process.stdout);
    const send = transport.send.bind(transport);
    transport.send = async (message) => {
      if ('id' in message && typeof message.id === 'string' && hidden.delete(message.id)) return;
      return send(message);
    };
  } else {
    transport = new StdioServerTransport(input, process.stdout);
  }
  await server.connect(transport);
  // The agent closed our stdin: it is gone, so end cleanly (exit handlers, such as the code cache's, run).
  // Closing aborts the calls still waiting; their questions are withdrawn from the phone first (ASK-8).
  input.once('end', () => void server.close().then(cancelsSent).finally(() => process.exit(0)));
}

main().catch((error: unknown) => {
  process.stderr.write(`commandr mcp: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
