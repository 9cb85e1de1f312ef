// Questions and action approvals asked by an agent (ASK-n, ACTAPPROVE-n) and
// artifacts opened by a device (ARTIFACT-n): the HTTP bodies and views. The
// question text, choices, answers and reasons live here and in the relay's data
// dir, never on the bus.
import * as z from 'zod/mini';
import { TaskId } from '../bus/ids';
import { AnswerVia, ArtifactId, ArtifactKind, QuestionId } from '../bus/mcp-events';
import { RepoId } from './views';

const text = (max: number) => z.string().check(z.maxLength(max));
const common = {
  /** The request's id, chosen by the asker (it is in the bus event already); retries reuse it. */
  key: QuestionId,
  task: TaskId,
  /** The worktree the agent works in (the relay finds the repo from it). */
  cwd: text(4096),
  agent: z.optional(text(256)),
  timeoutMs: z.int().check(z.minimum(1000), z.maximum(3_600_000)),
};

/** `POST /api/questions` (hook credential): a question or an action approval, long-polled until answered. */
export const QuestionAsk = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('question'), ...common, question: text(2000).check(z.minLength(1)), choices: z.array(text(80)).check(z.maxLength(6)) }),
  z.object({ kind: z.literal('approval'), ...common, action: text(200).check(z.minLength(1)), reason: text(2000) }),
]);
export type QuestionAsk = z.infer<typeof QuestionAsk>;

/** What a device sent: a choice (its index), typed text, or a dictated note (text from the voice input). */
export const QuestionReplyVia = z.enum(['choice', 'text', 'voice']);

export const QuestionView = z.object({
  id: QuestionId,
  kind: z.enum(['question', 'approval']),
  task: TaskId,
  repo: z.nullable(RepoId),
  agent: z.nullable(z.string()),
  /** The question, or for an approval the action's name. */
  title: z.string(),
  /** For an approval: why the agent wants it. */
  reason: z.nullable(z.string()),
  choices: z.array(z.string()),
  createdAt: z.string(),
  expiresAt: z.string(),
  status: z.enum(['pending', 'answered', 'approved', 'denied', 'expired']),
  via: z.nullable(AnswerVia),
  /** The answer text (a question) or the person's reason (an approval). */
  answer: z.nullable(z.string()),
  by: z.nullable(z.string()),
  /**
   * Set when the request was withdrawn because its asker is gone (ASK-7): `cancelled` (the
   * agent cancelled the tool call) or `gone` (no asker waited for it through the grace period).
   * The status is then `expired`; an answer or decision after it is refused.
   */
  withdrawn: z.optional(z.enum(['cancelled', 'gone'])),
});
export type QuestionView = z.infer<typeof QuestionView>;

/** `POST /api/questions/cancel` (hook credential, ASK-7): the asker stopped waiting for the request with this key. */
export const QuestionCancel = z.object({ key: QuestionId });
export type QuestionCancel = z.infer<typeof QuestionCancel>;

/** The long-poll's answer: the settled view. */
export const QuestionResult = z.object({ request: QuestionView });
export type QuestionResult = z.infer<typeof QuestionResult>;

/** Answer to the `artifact.open` read: a short-lived URL only this device was given. */
export const ArtifactOpenResult = z.object({
  artifact: ArtifactId,
  /** Relative to the relay, and nothing else: the app fetches only this shape (never another origin). */
  url: z.string().check(z.regex(/^\/api\/artifacts\?t=[A-Za-z0-9_-]{43}$/, 'url must be /api/artifacts?t=<token>')),
  kind: ArtifactKind,
  mime: z.string(),
  bytes: z.int(),
  expiresAt: z.string(),
});
export type ArtifactOpenResult = z.infer<typeof ArtifactOpenResult>;
export { ArtifactId, QuestionId };
export const ArtifactRef = z.object({ repo: RepoId, task: TaskId, artifact: ArtifactId });
