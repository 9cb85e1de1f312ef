// The shape of one `commandr mcp` tool: its schemas (from protocol/mcp/tools.ts),
// a description the model reads, and the body.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type * as z from 'zod/mini';
import type { McpToolName } from '../../../protocol/mcp/tools';
import type { ToolEnv } from '../task';

export interface Tool<I extends z.ZodMiniObject = z.ZodMiniObject> {
  name: McpToolName;
  title: string;
  description: string;
  input: I;
  output: z.ZodMiniObject;
  run(args: z.infer<I>, where: ToolEnv, signal?: AbortSignal): Promise<CallToolResult>;
}

export const defineTool = <I extends z.ZodMiniObject>(tool: Tool<I>): Tool<I> => tool;
