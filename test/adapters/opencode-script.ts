// Scripted model turns for the OpenAI-compatible stand-in, as claude-script.ts does for the
// Messages API: each tool-carrying request gets the next planned call, then a final text.
import type { OpenAiChat, ScriptedToolCall } from '../stand-ins/openai-chat';

export function planChat(api: OpenAiChat, calls: ScriptedToolCall[], finalText = 'all done', { chunk }: { chunk?: number } = {}): void {
  let next = 0;
  api.setReply((r) => {
    if (!Array.isArray(r.body?.tools) || r.body.tools.length === 0) return { text: 'side answer' };
    return next < calls.length ? { toolCalls: [calls[next++]!], chunk } : { text: finalText };
  });
}

/** Every chat request the model got from `from` on, as JSON text. */
export const chatText = (api: OpenAiChat, from = 0): string =>
  api.chatRequests().slice(from).map((r) => JSON.stringify(r.body)).join('\n');

/** The session of an `opencode run --format json`, from its first event that names one. */
export const openCodeSession = (stdout: string): string =>
  JSON.parse(stdout.split('\n').find((l) => l.includes('sessionID'))!).sessionID as string;
