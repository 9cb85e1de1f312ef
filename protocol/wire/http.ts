// Bodies of the relay's HTTP endpoints (HTTP-n). Every body is validated at the edge.
import * as z from 'zod/mini';
import { DeviceView, PERMISSION_DESCRIPTION_MAX, PermissionPolicyWhy } from './views';
import { DeviceName } from './device-name';

/** `POST /api/pair`: one-time code from `commandr pair`, the device's name and public key. */
export const PairRequest = z.object({
  code: z.string().check(z.regex(/^[A-Za-z0-9_-]{16,64}$/, 'pairing code has the wrong form')),
  name: DeviceName,
  /** The public half of a non-extractable ECDSA P-256 key, as a JWK. */
  publicKey: z.object({ kty: z.literal('EC'), crv: z.literal('P-256'), x: z.string().check(z.maxLength(64)), y: z.string().check(z.maxLength(64)) }),
});
export type PairRequest = z.infer<typeof PairRequest>;
export const PairResponse = z.object({ device: DeviceView });

/** Path of the relay's WebSocket endpoint (same origin as the app). */
export const WS_PATH = '/ws';

/** `GET /healthz`. */
export const Health = z.object({ ok: z.literal(true), version: z.string() });

/** Headers of a signed HTTP request (the service worker's `POST /api/action`, audio uploads). */
export const DEVICE_HEADER = 'x-commandr-device';
export const TS_HEADER = 'x-commandr-ts';
export const SIG_HEADER = 'x-commandr-signature';

/** `POST /api/transcribe` answer. */
export const TranscribeResponse = z.object({ text: z.string() });

/** `POST /api/permissions` (hook credential): a tool call waiting for a person. */
export const PermissionAsk = z.object({
  session: z.string().check(z.minLength(1), z.maxLength(256)),
  task: z.optional(z.string().check(z.maxLength(128))),
  agent: z.optional(z.string().check(z.maxLength(256))),
  tool: z.string().check(z.minLength(1), z.maxLength(256)),
  summary: z.string().check(z.maxLength(2000)),
  detail: z.optional(z.string().check(z.maxLength(64 * 1024))),
  cwd: z.string().check(z.maxLength(4096)),
  /** The policy's reason for asking (CARD-1). */
  policy: z.optional(PermissionPolicyWhy),
  /** What the agent said the call does, from the tool's own input (CARD-1): agent-written, so shown only as plain text. */
  description: z.optional(z.string().check(z.maxLength(PERMISSION_DESCRIPTION_MAX))),
  /**
   * What allow-for-session remembers (POLPATH-7): a shell command whole (trimmed), or the
   * file/URL another tool names; never a prefix. Longer than 4096 characters: `sha256:<hex>` of it.
   */
  exact: z.optional(z.string().check(z.maxLength(4096 + 7))),
  /** Sent by hooks before POLPATH-7; no longer matched as a prefix (see relay/permissions/service.ts). */
  prefix: z.optional(z.string().check(z.maxLength(512))),
  /** Retries reuse the key so a restarted relay or a reconnecting hook finds its request. */
  key: z.string().check(z.regex(/^[A-Za-z0-9_-]{8,64}$/)),
  timeoutMs: z.optional(z.int().check(z.minimum(1000), z.maximum(3_600_000))),
  /**
   * When the hook stops waiting for the relay to take the request (epoch ms, GUARD-9): a
   * relay that reads it later (it was hung) records it as abandoned, never answerable.
   */
  ackBy: z.optional(z.int().check(z.minimum(0))),
});
export type PermissionAsk = z.infer<typeof PermissionAsk>;
export const PermissionAnswer = z.object({
  decision: z.enum(['allow', 'deny']),
  reason: z.string(),
  by: z.nullable(z.string()),
});
export type PermissionAnswer = z.infer<typeof PermissionAnswer>;
