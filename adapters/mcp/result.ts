// Tool results (MCP-2): a success carries `structuredContent` (the tool's output
// schema) and the same as text; a failure is an `isError` result whose text starts
// with a stable code, so the agent reads a sentence and can decide what to do.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { BusError } from '../../bus/errors';
import type { McpErrorCode } from '../../protocol/mcp/tools';

export class ToolError extends Error {
  constructor(readonly code: McpErrorCode, message: string) {
    super(message);
    this.name = 'ToolError';
  }
}

export function ok(structured: Record<string, unknown>, text: string): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

export function failure(error: unknown): CallToolResult {
  const { code, message } =
    error instanceof ToolError ? error
    : error instanceof BusError ? { code: error.code === 'E_BAD_PATH' || error.code === 'E_NOT_FOUND' ? 'E_BAD_PATH' : error.code === 'E_BAD_NOTE' || error.code === 'E_BAD_ARGS' ? 'E_BAD_INPUT' : 'E_BUS', message: error.message }
    : { code: 'E_BUS', message: error instanceof Error ? error.message : String(error) };
  return { isError: true, content: [{ type: 'text', text: `${code}: ${message}` }] };
}

/** Runs a tool body; any thrown error becomes an `isError` result (never a crash of the server). */
export async function guarded(body: () => CallToolResult | Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    return failure(error);
  }
}
