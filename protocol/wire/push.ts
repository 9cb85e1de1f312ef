// The decrypted body of every Web Push the relay sends (PUSH-n). The service
// worker validates it with this schema before showing a notification.
// Never carries diff content, file contents or secrets: names and counts only.
import * as z from 'zod/mini';
import { PushKind } from './views';

export const PushAction = z.object({
  /** `choice-N`: the N-th choice of an agent's question (ASK-4). */
  action: z.enum(['approve', 'deny', 'allow', 'open', 'choice-0', 'choice-1', 'choice-2']),
  title: z.string(),
});

export const PushPayload = z.object({
  v: z.literal(1),
  kind: PushKind,
  /** Notifications with the same tag replace each other (one per task/commander/request). */
  tag: z.string(),
  title: z.string().check(z.maxLength(200)),
  body: z.string().check(z.maxLength(500)),
  /** Where tapping the body leads, a path on the relay's origin. */
  url: z.string().check(z.startsWith('/')),
  actions: z.array(PushAction),
  /**
   * Replaces the notification of the same tag without sound or vibration: the request it asked
   * about was settled (answered elsewhere, timed out, withdrawn), so nothing is left to do (ASK-9).
   */
  quiet: z.optional(z.boolean()),
  /** What an action button needs to build its signed action frame. */
  data: z.object({
    repo: z.optional(z.string()),
    task: z.optional(z.string()),
    digest: z.optional(z.string()),
    commander: z.optional(z.string()),
    request: z.optional(z.string()),
  }),
});
export type PushPayload = z.infer<typeof PushPayload>;

/** `GET /api/push/key`: the relay's VAPID public key (base64url), for `PushManager.subscribe`. */
export const PushKeyResponse = z.object({ publicKey: z.string().check(z.regex(/^[A-Za-z0-9_-]{80,100}$/)) });
export type PushKeyResponse = z.infer<typeof PushKeyResponse>;

/** Query parameter the worker adds to `/task?…` when an action from a notification failed. */
export const NOTICE_PARAM = 'notice';
