// Live session events, schema v1 (LIVE-n): relay-local telemetry posted by
// adapters to `POST /api/events`. Never written to a bus.
import * as z from 'zod/mini';

export const LIVE_KINDS = [
  'session', 'end', 'idle', 'edit', 'read', 'search', 'command', 'test', 'check', 'git', 'plan', 'subagent', 'web', 'other',
] as const;
export const LiveKind = z.enum(LIVE_KINDS);
export type LiveKind = z.infer<typeof LiveKind>;

const short = (max: number) => z.string().check(z.maxLength(max));

export const LiveEvent = z.object({
  v: z.literal(1),
  session: short(256).check(z.minLength(1)),
  kind: LiveKind,
  summary: short(2000),
  file: z.optional(short(4096)),
  cmd: z.optional(short(8192)),
  detail: z.optional(short(16384)),
  ok: z.optional(z.boolean()),
  running: z.optional(z.boolean()),
  agent: z.optional(short(256)),
  task: z.optional(short(128)),
  /** Check label when kind is `check` (CHECKS-n). */
  label: z.optional(short(256)),
  /**
   * When the event happened, in microseconds since the epoch, stamped by the emitter at the
   * moment its hook was invoked (ORDER-2). The relay orders a session's events by it.
   */
  seq: z.optional(z.int().check(z.minimum(0), z.maximum(Number.MAX_SAFE_INTEGER))),
  /**
   * Whether the session's commands run in an OS sandbox (SBXDEF-6), as its hook saw it:
   * `COMMANDR_SANDBOX` set, or Claude Code's sandbox on for the project. Absent: not said.
   */
  sandbox: z.optional(z.enum(['on', 'off'])),
});
export type LiveEvent = z.infer<typeof LiveEvent>;
