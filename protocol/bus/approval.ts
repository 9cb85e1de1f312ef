// `approvals/<task>.approved` (APPROVAL-n): empty = approves whatever is staged;
// otherwise exactly this JSON, binding the approval to one staged-change digest.
import * as z from 'zod/mini';
import { Sha256Digest } from './events';
import { IsoTime } from './ids';

export const ApprovalToken = z.object({ digest: Sha256Digest, ts: IsoTime, by: z.string() });
export type ApprovalToken = z.infer<typeof ApprovalToken>;
