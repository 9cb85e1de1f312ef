// Scripted model turns for the Messages API stand-in: each tool-carrying request gets
// the next planned tool call, then a final text. Title and side requests get plain text.
import type { MessagesApi, RecordedRequest } from '../stand-ins/messages-api';

export interface PlannedTool {
  name: string;
  input: Record<string, unknown>;
}

export function planTurn(api: MessagesApi, tools: PlannedTool[], finalText = 'all done', { chunk }: { chunk?: number } = {}): void {
  let next = 0;
  api.setReply((request: RecordedRequest) => {
    if (!Array.isArray(request.body?.tools) || request.body.tools.length === 0) return { text: 'side answer' };
    if (next < tools.length) {
      const tool = tools[next++]!;
      return { content: [{ type: 'tool_use', name: tool.name, input: tool.input }], chunk };
    }
    return { text: finalText };
  });
}

/** Every string inside the recorded model requests (prompts, context, tool results). */
export const requestText = (api: MessagesApi, from = 0): string =>
  api.messageRequests().slice(from).map((r) => JSON.stringify(r.body)).join('\n');
