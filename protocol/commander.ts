// `commanders/<id>/commander.json` under the relay's data dir (CMDR-n): the
// platform-owned record of a commander. The agent's session id is only a pointer.
import * as z from 'zod/mini';

export const COMMANDER_STATUSES = ['starting', 'running', 'idle', 'waiting', 'dead'] as const;
export const CommanderStatus = z.enum(COMMANDER_STATUSES);
export type CommanderStatus = z.infer<typeof CommanderStatus>;

export const COMMANDER_ID_PATTERN = /^c-[a-z0-9]{6,32}$/;
/** A commander id as devices see it: a member's carries `<8 hex of its machine>.` (FLEETX-1); it never names a directory. */
export const SHOWN_COMMANDER_ID_PATTERN = /^(?:[0-9a-f]{8}\.)?c-[a-z0-9]{6,32}$/;

export const CommanderRecord = z.object({
  id: z.string().check(z.regex(COMMANDER_ID_PATTERN)),
  name: z.string().check(z.minLength(1), z.maxLength(80)),
  referencePaths: z.array(z.string()),
  created: z.string(),
  /** The agent CLI's current session id, recorded once it is known; null before. */
  session: z.nullable(z.string()),
  status: CommanderStatus,
  /** Why it waits on the person (`NOT READY:` reason or the question). */
  waitingFor: z.nullable(z.string()),
  adapter: z.string(),
  /** True for the demo workspace's sample commander. */
  demo: z.optional(z.boolean()),
  /** CMDRFAIL-1: why its start failed (one sentence) and the CLI's raw output; absent once a turn succeeds. */
  failure: z.optional(z.object({
    reason: z.string().check(z.maxLength(1000)), details: z.string().check(z.maxLength(8000)),
    /** The failed start was the commander's very first turn: Retry runs that first turn again (CMDRFAIL-2). */
    first: z.optional(z.boolean()),
  })),
  /** CMDRFAIL-2: the person's first message, kept so Retry starts the same first turn again. */
  firstMessage: z.optional(z.string().check(z.maxLength(64 * 1024))),
});
export type CommanderRecord = z.infer<typeof CommanderRecord>;
