// What the real `commandr mcp` server answers before any tool runs (MCP-FAST-1):
// `initialize` (for each protocol version the SDK supports, and for one it does not),
// `ping` and `tools/list`, as the exact lines its stdio transport writes. Built into
// dist/mcp-listing.sh by scripts/build.mjs, so the shell responder (bin/commandr-mcp.bash)
// answers from the server's own replies and cannot drift from them; test/mcp/fast.test.ts
// holds both to the running server.
import { serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer } from './server';

/** Sends each message to a fresh real server, in order, and returns every line the server wrote (as its stdio transport would). */
export async function serverLines(messages: JSONRPCMessage[]): Promise<string[]> {
  const server = createMcpServer({ cwd: process.cwd(), env: {} });
  const lines: string[] = [];
  let wrote: (() => void) | undefined;
  const transport: Transport = {
    start: async () => {},
    close: async () => {},
    send: async (message) => {
      lines.push(serializeMessage(message));
      wrote?.();
    },
  };
  await server.connect(transport);
  for (const message of messages) {
    const written = 'id' in message ? new Promise<void>((resolve) => { wrote = resolve; }) : Promise.resolve();
    transport.onmessage?.(message);
    await written;
  }
  await server.close();
  return lines;
}

/** A placeholder id: each template is the server's line split around it. */
const ID = 'commandr-fast-id-7f3a';
const CLIENT = { name: 'commandr-build', version: '0' };

export interface Template { head: string; tail: string }
export interface Listing {
  /** The SDK's supported versions, in its order; `initialize[i]` answers a request for `versions[i]`. */
  versions: string[];
  /** Index in `versions` of the SDK's latest version: the answer to a version it does not support. */
  latest: number;
  initialize: Template[];
  ping: Template;
  toolsList: Template;
  /** The answer to a request for a method the server has no handler for (Claude Code's `server/discover` probe, say). */
  notFound: Template;
  /** Methods the server handles: a request for one of these is never answered as not found. */
  handled: string[];
}

function split(line: string): Template {
  const token = JSON.stringify(ID);
  const at = line.indexOf(token);
  if (at < 0 || line.indexOf(token, at + 1) >= 0 || !line.endsWith('\n')) throw new Error(`cannot template ${line}`);
  return { head: line.slice(0, at), tail: line.slice(at + token.length, -1) };
}

async function reply(method: string, params?: Record<string, unknown>, error = false): Promise<string> {
  const lines = await serverLines([{ jsonrpc: '2.0', id: ID, method, ...(params ? { params } : {}) }]);
  if (lines.length !== 1 || ('error' in JSON.parse(lines[0]!)) !== error) throw new Error(`${method}: the server answered ${lines.join('')}`);
  return lines[0]!;
}

/** The methods the server has request handlers for (the SDK keeps them in a private map). */
function handledMethods(): string[] {
  const server = createMcpServer({ cwd: process.cwd(), env: {} }).server as unknown as { _requestHandlers?: Map<string, unknown> };
  if (!(server._requestHandlers instanceof Map)) throw new Error('the SDK no longer keeps its request handlers in _requestHandlers');
  return [...server._requestHandlers.keys()].sort();
}

export async function buildListing(): Promise<Listing> {
  const versions = [...SUPPORTED_PROTOCOL_VERSIONS];
  const initialize: Template[] = [];
  for (const protocolVersion of versions) initialize.push(split(await reply('initialize', { protocolVersion, capabilities: {}, clientInfo: CLIENT })));
  const latest = versions.indexOf(LATEST_PROTOCOL_VERSION);
  const unsupported = split(await reply('initialize', { protocolVersion: '1999-01-01', capabilities: {}, clientInfo: CLIENT }));
  // The rule the responder applies (MCP-FAST-2): an unsupported version gets the latest's answer.
  if (latest < 0 || JSON.stringify(unsupported) !== JSON.stringify(initialize[latest])) throw new Error('the SDK no longer answers an unsupported version with its latest');
  const handled = handledMethods();
  for (const m of ['initialize', 'ping', 'tools/list', 'tools/call']) if (!handled.includes(m)) throw new Error(`the server does not handle ${m}`);
  const notFound = split(await reply('commandr/no-such-method', undefined, true));
  if (JSON.parse(`${notFound.head}0${notFound.tail}`).error?.code !== -32601) throw new Error('an unknown method is not answered "Method not found"');
  return { versions, latest, initialize, ping: split(await reply('ping')), toolsList: split(await reply('tools/list')), notFound, handled };
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The listing as bash assignments (bash 3.2: indexed arrays only), sourced by bin/commandr-mcp.bash. */
export function listingScript(listing: Listing): string {
  for (const v of [...listing.versions, ...listing.handled]) if (!/^[!#-[\]-~]+$/.test(v)) throw new Error(`unexpected protocol version or method ${v}`);
  return [
    '# Generated by scripts/build.mjs from adapters/mcp/listing.ts (the real server\'s replies): do not edit.',
    `mcp_versions=(${listing.versions.map(quote).join(' ')})`,
    `mcp_latest=${listing.latest}`,
    `mcp_init_head=(${listing.initialize.map((t) => quote(t.head)).join(' ')})`,
    `mcp_init_tail=(${listing.initialize.map((t) => quote(t.tail)).join(' ')})`,
    `mcp_ping_head=${quote(listing.ping.head)}`,
    `mcp_ping_tail=${quote(listing.ping.tail)}`,
    `mcp_list_head=${quote(listing.toolsList.head)}`,
    `mcp_list_tail=${quote(listing.toolsList.tail)}`,
    `mcp_notfound_head=${quote(listing.notFound.head)}`,
    `mcp_notfound_tail=${quote(listing.notFound.tail)}`,
    `mcp_handled=(${listing.handled.map(quote).join(' ')})`,
    'mcp_listing_ok=1',
    '',
  ].join('\n');
}
