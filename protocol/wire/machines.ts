// What a home's devices are told about its member machines (FLEET-22). Kept apart
// from fleet.ts (the link protocol, which imports frames.ts) so frames.ts can
// include `machine.state` in its server union without an import cycle.
import * as z from 'zod/mini';
import { RepoId } from './views';

export const MachineId = z.string().check(z.regex(/^m-[0-9a-f]{16}$/, 'machine id must be m-<16 hex>'));
export type MachineId = z.infer<typeof MachineId>;
/** Longest version string a member may report. */
export const MAX_VERSION_CHARS = 64;
export const MachineName = z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/, 'machine name must be 1–63 of [A-Za-z0-9._-]'));

/**
 * A member machine as the home sees it: `online` while its link is up; `since` when
 * that last changed (null: not linked since the home started); `repos` the labelled
 * repo ids it announced. While `online` is false those repos show their last known
 * state and actions on them are refused (E_UNAVAILABLE).
 */
export const MachineState = z.object({
  id: MachineId, name: MachineName, online: z.boolean(), since: z.nullable(z.string()), repos: z.array(RepoId),
  /** The member's Commandr version, as it said when its link came up (FLEETUI-4); null if not linked since the home started. */
  version: z.optional(z.nullable(z.string().check(z.maxLength(MAX_VERSION_CHARS)))),
  /** When the home last heard from it (a frame or a pong); null if not since the home started (FLEETUI-4). */
  lastSeen: z.optional(z.nullable(z.string())),
});
export type MachineState = z.infer<typeof MachineState>;
export const MachineStateFrame = z.object({ type: z.literal('machine.state'), machine: MachineState });
/** A machine removed from the home (`machine.remove` or `commandr machines remove`): devices forget it (FLEETUI-5). */
export const MachineRemovedFrame = z.object({ type: z.literal('machine.removed'), machine: MachineId });
/** The home relay itself, for labels and the Machines list (FLEETUI-1): sent on `subscribe`. */
export const MachineHomeFrame = z.object({ type: z.literal('machine.home'), home: z.object({ name: MachineName, version: z.string().check(z.maxLength(MAX_VERSION_CHARS)) }) });
/** The server frames of this file, spread into frames.ts's ServerFrame union. */
export const MachineServerFrames = [MachineStateFrame, MachineRemovedFrame, MachineHomeFrame] as const;
