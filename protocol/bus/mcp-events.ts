// Bus contract v0.5 (ASK-n, ACTAPPROVE-n, ARTIFACT-n): the events the `commandr mcp`
// tools append. Like `task_annotation`, none carries a body: the question, the
// answer and the reasons stay in the relay's data dir; the bus gets ids, counts, names.
import * as z from 'zod/mini';
import { IsoTime, TaskId } from './ids';

const base = { ts: IsoTime };
/** A question or approval request id (also the relay's request id). */
export const QUESTION_ID_PATTERN = /^q-[0-9a-f]{20}$/;
export const QuestionId = z.string().check(z.regex(QUESTION_ID_PATTERN, 'question id must be q-<20 hex>'));
/** An artifact id: `a-` and 20 hex (the first bytes of the file's sha256 and the registration). */
export const ARTIFACT_ID_PATTERN = /^a-[0-9a-f]{20}$/;
export const ArtifactId = z.string().check(z.regex(ARTIFACT_ID_PATTERN, 'artifact id must be a-<20 hex>'));
export const ARTIFACT_KINDS = ['image', 'markdown', 'text', 'file'] as const;
export const ArtifactKind = z.enum(ARTIFACT_KINDS);
export type ArtifactKind = z.infer<typeof ArtifactKind>;
/** How a question was answered; never what was said. */
export const AnswerVia = z.enum(['choice', 'text', 'voice', 'timeout']);
export type AnswerVia = z.infer<typeof AnswerVia>;

export const QuestionAsked = z.object({
  ...base, event: z.literal('question_asked'), task: TaskId, question: QuestionId, choices: z.int(),
});
export const QuestionAnswered = z.object({
  ...base, event: z.literal('question_answered'), task: TaskId, question: QuestionId, via: AnswerVia, by: z.optional(z.string()),
});
export const ActionApprovalRequested = z.object({
  ...base, event: z.literal('action_approval_requested'), task: TaskId, request: QuestionId,
  /** The short name of the action ("deploy to staging"): one line, at most 200 characters. */
  action: z.string().check(z.minLength(1), z.maxLength(200)),
});
export const ActionApprovalDecided = z.object({
  ...base, event: z.literal('action_approval_decided'), task: TaskId, request: QuestionId,
  decision: z.enum(['approved', 'denied', 'expired']), by: z.optional(z.string()),
});
export const ArtifactEmitted = z.object({
  ...base, event: z.literal('artifact_emitted'), task: TaskId, artifact: ArtifactId,
  /** Path relative to `worktree`, `/`-separated, never `..` or absolute. */
  path: z.string().check(z.minLength(1), z.maxLength(1024)),
  /** Absolute path of the task's worktree the file was emitted from. */
  worktree: z.string().check(z.maxLength(4096)),
  kind: ArtifactKind,
  bytes: z.int(),
  /** `sha256:<hex>` of the file as emitted; the relay serves only a file that still has it. */
  digest: z.string().check(z.regex(/^sha256:[0-9a-f]{64}$/)),
  title: z.optional(z.string().check(z.maxLength(200))),
  /** One neutral line saying what the file shows, like a progress note. */
  summary: z.optional(z.string().check(z.maxLength(500))),
});

/** The v0.5 members of `BusEvent` (protocol/bus/events.ts spreads them into its union). */
export const MCP_BUS_EVENTS = [QuestionAsked, QuestionAnswered, ActionApprovalRequested, ActionApprovalDecided, ArtifactEmitted] as const;
