// The `commandr mcp` server (MCP-1): one McpServer named `commandr` with the six
// bus tools, each declared in its own file with its schemas from protocol/mcp.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { version } from '../../package.json';
import { MCP_SERVER_NAME } from '../../protocol/mcp/tools';
import type { ToolEnv } from './task';
import { ask } from './tools/ask';
import { complete } from './tools/complete';
import { emitArtifact } from './tools/emit-artifact';
import { notes } from './tools/notes';
import { progress } from './tools/progress';
import { requestApproval } from './tools/request-approval';
import type { Tool } from './tools/tool';

export const TOOLS: Tool[] = [progress, ask, requestApproval, emitArtifact, complete, notes] as Tool[];

export function createMcpServer(where: ToolEnv): McpServer {
  const server = new McpServer({ name: MCP_SERVER_NAME, version }, { capabilities: { tools: {} } });
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.input, outputSchema: tool.output },
      // The SDK has validated `args` against `tool.input` before this runs.
      (args: unknown, extra: { signal?: AbortSignal }) => tool.run(args as never, where, extra.signal),
    );
  }
  return server;
}
