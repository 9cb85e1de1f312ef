// `commandr mcp`: the bus as tools an agent can call, served over stdio (MCP-1).
// stdout belongs to the protocol: anything this entry says goes to stderr.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer } from '../adapters/mcp/server';

async function main(): Promise<void> {
  if (process.argv.slice(2).some((a) => a === '--help' || a === '-h')) {
    process.stdout.write('usage: commandr mcp   serve the commandr tools (progress, ask, request_approval, emit_artifact, complete, notes) over stdio\n');
    return;
  }
  const server = createMcpServer({ cwd: process.cwd(), env: process.env });
  await server.connect(new StdioServerTransport());
  // The agent closed our stdin: it is gone, so end cleanly (exit handlers, such as the code cache's, run).
  process.stdin.once('end', () => void server.close().finally(() => process.exit(0)));
}

main().catch((error: unknown) => {
  process.stderr.write(`commandr mcp: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
