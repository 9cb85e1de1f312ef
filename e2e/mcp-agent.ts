// The agent side of the MCP specs: the real `commandr mcp` server (bin/commandr →
// dist/mcp) started in a task's worktree and spoken to over stdio with the official
// SDK client, exactly as Claude Code or OpenCode would after `commandr wire`.
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { RelayFixture } from './fixtures';

const COMMANDR_BIN = path.join(__dirname, '..', 'bin', 'commandr');

export interface Agent {
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** Starts `commandr mcp` in `worktree` against this relay (its URL and its data dir's hook credential). */
export async function startAgent(env: RelayFixture, worktree: string): Promise<Agent> {
  const transport = new StdioClientTransport({
    command: process.execPath, args: [COMMANDR_BIN, 'mcp'], cwd: worktree, stderr: 'pipe',
    env: {
      PATH: process.env.PATH ?? '', HOME: path.dirname(env.repo), GIT_CONFIG_NOSYSTEM: '1',
      COMMANDR_HOME: env.relay.dataDir, COMMANDR_URL: env.url, COMMANDR_AGENT_ID: 'e2e-agent',
    },
  });
  const client = new Client({ name: 'e2e-agent', version: '0.0.0' });
  await client.connect(transport);
  return {
    call: async (name, args) => (await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as CallToolResult,
    close: () => client.close().catch(() => undefined),
  };
}

export function textOf(result: CallToolResult): string {
  return (result.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}
