// `commandr mcp`: the bus as tools an agent can call, served over stdio (MCP-1). The one
// implementation (MCP-ONE-1): the relay serves this same server through bin/commandr-mcp.bash's
// pipe; this entry is that server in the agent's own process tree when there is no relay (or
// for a run, in its sandbox: MCP-ONE-5).
// stdout belongs to the protocol: anything this entry says goes to stderr.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { cancelsSent } from '../adapters/mcp/relay-ask';
import { createMcpServer } from '../adapters/mcp/server';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.some((a) => a === '--help' || a === '-h')) {
    process.stdout.write('usage: commandr mcp   serve the commandr tools (progress, ask, request_approval, emit_artifact, complete, notes) over stdio\n');
    return;
  }
  const server = createMcpServer({ cwd: process.cwd(), env: process.env });
  const transport = new StdioServerTransport(process.stdin, process.stdout);
  await server.connect(transport);
  // The agent closed our stdin: it is gone, so end cleanly (exit handlers, such as the code cache's, run).
  // Closing aborts the calls still waiting; their questions are withdrawn from the phone first (ASK-8).
  process.stdin.once('end', () => void server.close().then(cancelsSent).finally(() => process.exit(0)));
}

main().catch((error: unknown) => {
  process.stderr.write(`commandr mcp: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
