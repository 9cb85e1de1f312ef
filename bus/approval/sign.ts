// Signing and checking one approval (APPROVAL-4..6): the exact bytes signed, the
// repo key the relay and the gate agree on, and every reason a signed approval
// does not approve a given change, as a sentence.
import { createHash, sign, verify } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type ApprovalClaim, SignedApproval } from '../../protocol/bus/approval';
import type { SigningKey, VerifyingKey } from './keys';

/** The bytes an approval signature covers: a fixed prefix and the claim's fields in a fixed order. */
export function approvalMessage(claim: ApprovalClaim): Buffer {
  return Buffer.from(`commandr-approval/1\n${JSON.stringify([claim.repo, claim.task, claim.base, claim.tree, claim.digest, claim.by, claim.ts])}`);
}

/** The repo an approval names: the relay's repo id of the main checkout (`<basename>-<8 hex>`). */
export function repoKeyOf(mainCheckout: string): string {
  let real = path.resolve(mainCheckout);
  try { real = fs.realpathSync(real); } catch { /* a path that is gone keeps its resolved form */ }
  const hash = createHash('sha256').update(real).digest('hex').slice(0, 8);
  const cleaned = path.basename(real).replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 80);
  return `${cleaned.length > 0 ? cleaned : 'repo'}-${hash}`;
}

export function signApproval(claim: ApprovalClaim, key: SigningKey): SignedApproval {
  const sig = sign(null, approvalMessage(claim), key.privateKey).toString('base64url');
  return { ...claim, key: key.keyId, sig };
}

/** What a signed approval must match to approve a change. `repo` is checked only when given. */
export interface ApprovalExpectation { task?: string; base: string; tree: string; digest?: string; repo?: string }

/** Undefined when `value` approves exactly `expect` under one of `keys`; else why not, as a sentence. */
export function approvalProblem(value: unknown, keys: VerifyingKey[], expect: ApprovalExpectation): string | undefined {
  const parsed = SignedApproval.safeParse(value);
  if (!parsed.success) return `the approval is malformed (${parsed.error.issues[0]?.path.join('.') || 'shape'}: ${parsed.error.issues[0]?.message ?? 'invalid'})`;
  const a = parsed.data;
  const key = keys.find((k) => k.keyId === a.key);
  if (!key) return `the approval is signed by ${a.key}, which is not a trusted relay key (${keys.map((k) => k.keyId).join(', ') || 'none configured'})`;
  const { key: _k, sig, ...claim } = a;
  if (!verify(null, approvalMessage(claim), key.publicKey, Buffer.from(sig, 'base64url'))) return 'the approval signature does not verify: forged or altered';
  if (expect.task !== undefined && a.task !== expect.task) return `the approval is for task ${a.task}, not ${expect.task}`;
  if (expect.repo !== undefined && a.repo !== expect.repo) return `the approval is for repo ${a.repo}, not ${expect.repo}`;
  if (a.base !== expect.base) return `the approval is for a change on ${a.base}, not on ${expect.base}`;
  if (expect.digest !== undefined && a.digest !== expect.digest) return `the approval covers ${a.digest}, not this change ${expect.digest}`;
  if (a.tree !== expect.tree) return `the approval is for tree ${a.tree}, not this change's tree ${expect.tree}`;
  return undefined;
}
