// Claude Code hook payloads (stdin JSON) read defensively into neutral shapes;
// the only place that knows Claude Code's field names.
import type { SessionRef, ToolOutcome } from '../../lib/hook-actions';
import type { ToolCall } from '../../lib/classify';
import type { Env } from '../../lib/env';
import { objectField, stringField } from '../../lib/hook-io';

/** `session_id` + `cwd` (falls back to the hook's $CLAUDE_PROJECT_DIR, then the hook's cwd). */
export function sessionRef(payload: Record<string, unknown>, env: Env = process.env): SessionRef | undefined {
  const session = stringField(payload, 'session_id');
  if (!session) return undefined;
  return { session, cwd: stringField(payload, 'cwd') ?? (env.CLAUDE_PROJECT_DIR || undefined) ?? env.PWD ?? process.cwd() };
}

export function toolCall(payload: Record<string, unknown>): ToolCall | undefined {
  const tool = stringField(payload, 'tool_name');
  return tool ? { tool, input: objectField(payload, 'tool_input') } : undefined;
}

/** Output, exit status and failure as far as Claude Code reports them (shapes differ per tool). */
export function toolOutcome(payload: Record<string, unknown>): ToolOutcome {
  const failed = payload.hook_event_name === 'PostToolUseFailure';
  const response = payload.tool_response;
  if (typeof response === 'string') return { output: response, failed };
  const r = objectField(payload, 'tool_response');
  const parts = [r.stdout, r.stderr, r.output, r.error, payload.error].filter((p): p is string => typeof p === 'string' && p.length > 0);
  const exitRaw = r.exit_code ?? r.exitCode ?? r.returnCode;
  // PostToolUseFailure carries only `error: "Exit code <n>"` for a failed shell command.
  const fromError = typeof payload.error === 'string' ? /^Exit code (\d+)/.exec(payload.error)?.[1] : undefined;
  const exit = typeof exitRaw === 'number' && Number.isInteger(exitRaw) ? exitRaw : fromError !== undefined ? Number(fromError) : undefined;
  return { output: parts.join('\n'), exit, failed: failed || r.interrupted === true || r.is_error === true };
}
