// Approvals (APPROVAL-n): the token `approvals/<task>.approved` and the record a
// commit carries in its `Commandr-Approval:` trailer. A relay-signed approval binds
// repo, task, base commit and digest under the relay's Ed25519 key; the seed's
// plain tokens (empty, or `{digest,ts,by}` alone) pass only where a person opted in.
import * as z from 'zod/mini';
import { Sha256Digest } from './events';
import { IsoTime, TaskId } from './ids';

/** A commit id (SHA-1 or SHA-256 repos); 40 zeros = "no commit yet" (the first commit's base). */
export const CommitId = z.string().check(z.regex(/^([0-9a-f]{40}|[0-9a-f]{64})$/, 'commit id must be 40 or 64 lowercase hex'));
/** `ed25519:` + the first 16 hex of sha256 of the public key's SPKI DER. */
export const ApprovalKeyId = z.string().check(z.regex(/^ed25519:[0-9a-f]{16}$/, 'key id must be ed25519:<16 hex>'));

const claimShape = {
  v: z.literal(1),
  /** `<basename>-<8 hex of sha256(realpath of the main checkout)>` (the relay's repo id). */
  repo: z.string().check(z.minLength(1), z.maxLength(200)),
  task: TaskId,
  base: CommitId,
  /** The tree the approved commit will have (`git write-tree` of the index): pins the change by content, whatever diff config. */
  tree: CommitId,
  digest: Sha256Digest,
  by: z.string().check(z.maxLength(200)),
  ts: IsoTime,
};

/** What the relay signs. */
export const ApprovalClaim = z.object(claimShape);
export type ApprovalClaim = z.infer<typeof ApprovalClaim>;

/** A claim with its signature: the token's content and the commit trailer's value. */
export const SignedApproval = z.object({
  ...claimShape,
  key: ApprovalKeyId,
  /** base64url Ed25519 signature over `approvalMessage(claim)`. */
  sig: z.string().check(z.regex(/^[A-Za-z0-9_-]{86}$/, 'sig must be a base64url Ed25519 signature')),
});
export type SignedApproval = z.infer<typeof SignedApproval>;

/**
 * Any non-empty token: `{digest, ts, by}` (plain, the v0.4 seed format) plus the
 * signed fields. Readers that know only the seed format still find digest, ts, by.
 */
export const ApprovalToken = z.object({
  digest: Sha256Digest, ts: IsoTime, by: z.string(),
  v: z.optional(z.literal(1)), repo: z.optional(z.string()), task: z.optional(TaskId), base: z.optional(CommitId), tree: z.optional(CommitId),
  key: z.optional(ApprovalKeyId), sig: z.optional(z.string()),
});
export type ApprovalToken = z.infer<typeof ApprovalToken>;
