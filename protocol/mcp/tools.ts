// The `commandr mcp` tools (MCP-n): each tool's input and output declared once.
// The MCP server hands these zod (v4, mini) objects to the SDK as they are: the
// SDK turns them into JSON Schema for `tools/list` and validates calls with them.
import * as z from 'zod/mini';
import { TaskId } from '../bus/ids';
import { AnswerVia, ArtifactId, ArtifactKind, QuestionId } from '../bus/mcp-events';

export const MCP_SERVER_NAME = 'commandr';
export const MCP_TOOL_NAMES = ['progress', 'ask', 'request_approval', 'emit_artifact', 'complete', 'notes'] as const;
export type McpToolName = (typeof MCP_TOOL_NAMES)[number];

/** Longest an `ask` or `request_approval` waits for the person. */
export const MAX_WAIT_S = 3600;
export const DEFAULT_ASK_TIMEOUT_S = 300;
export const MAX_CHOICES = 6;

const line = (max: number) => z.string().check(z.minLength(1), z.maxLength(max), z.regex(/^[^\r\n]*$/, 'must be one line'));
/** The task to act on; defaults to the session's own task and may not name another. */
const task = z.optional(TaskId);
const timeout = z.optional(z.int().check(z.minimum(5), z.maximum(MAX_WAIT_S)));

export const ProgressInput = z.object({ task, note: z.string().check(z.minLength(1), z.maxLength(500)) });
export const ProgressOutput = z.object({ task: TaskId, note: z.string() });

export const AskInput = z.object({
  task,
  question: z.string().check(z.minLength(1), z.maxLength(2000)),
  choices: z.optional(z.array(line(80)).check(z.minLength(1), z.maxLength(MAX_CHOICES))),
  timeout_s: timeout,
});
export const AskOutput = z.object({
  task: TaskId,
  question: QuestionId,
  answered: z.boolean(),
  via: AnswerVia,
  /** The chosen choice or the typed / dictated text; null when no one answered. */
  answer: z.nullable(z.string()),
  by: z.nullable(z.string()),
});

export const RequestApprovalInput = z.object({ task, action: line(200), reason: z.string().check(z.minLength(1), z.maxLength(2000)), timeout_s: timeout });
export const RequestApprovalOutput = z.object({
  task: TaskId,
  request: QuestionId,
  approved: z.boolean(),
  decision: z.enum(['approved', 'denied', 'expired']),
  by: z.nullable(z.string()),
  reason: z.string(),
});

export const EmitArtifactInput = z.object({
  task,
  path: z.string().check(z.minLength(1), z.maxLength(1024)),
  kind: z.optional(ArtifactKind),
  title: z.optional(line(200)),
  summary: z.optional(line(500)),
});
export const EmitArtifactOutput = z.object({ task: TaskId, artifact: ArtifactId, path: z.string(), kind: ArtifactKind, bytes: z.int() });

export const CompleteInput = z.object({ task, result: z.enum(['pass', 'fail']), summary: z.optional(line(500)) });
export const CompleteOutput = z.object({ task: TaskId, result: z.enum(['pass', 'fail']), path: z.string() });

export const NotesInput = z.object({ task });
export const NotesOutput = z.object({
  task: TaskId,
  notes: z.array(z.object({ turn: z.int(), anchor: z.string(), author: z.string(), ts: z.string(), body: z.string() })),
});

export type ProgressInput = z.infer<typeof ProgressInput>;
export type AskInput = z.infer<typeof AskInput>;
export type AskOutput = z.infer<typeof AskOutput>;
export type RequestApprovalInput = z.infer<typeof RequestApprovalInput>;
export type RequestApprovalOutput = z.infer<typeof RequestApprovalOutput>;
export type EmitArtifactInput = z.infer<typeof EmitArtifactInput>;
export type EmitArtifactOutput = z.infer<typeof EmitArtifactOutput>;
export type CompleteInput = z.infer<typeof CompleteInput>;
export type NotesInput = z.infer<typeof NotesInput>;
export type NotesOutput = z.infer<typeof NotesOutput>;

/** Stable codes of a tool error (the text of an `isError` result starts with one). */
export type McpErrorCode = 'E_NO_TASK' | 'E_OTHER_TASK' | 'E_BAD_INPUT' | 'E_NO_RELAY' | 'E_BAD_PATH' | 'E_TOO_LARGE' | 'E_NOT_CLAIMED' | 'E_BUS' | 'E_CANCELLED';
