// Labelled ids of a member's objects (FLEETX-1): `<first 8 hex of the machine id>.<own id>`,
// as a member's repos are (FLEET-3). Only the home adds a prefix and only the member that
// owns the prefix takes it off; an id without that exact prefix is not that member's.
import { COMMANDER_ID_PATTERN } from '../../protocol/commander';

/** The prefix every id of `machine` (`m-<16 hex>`) carries on the home. */
export function machinePrefix(machine: string): string {
  return machine.slice(2, 10);
}

export function labelId(machine: string, own: string): string {
  return `${machinePrefix(machine)}.${own}`;
}

/** The member's own id behind `labelled`, when `labelled` carries `machine`'s prefix; else undefined. */
export function unlabelId(machine: string, labelled: string): string | undefined {
  const prefix = `${machinePrefix(machine)}.`;
  return labelled.startsWith(prefix) ? labelled.slice(prefix.length) : undefined;
}

/** The platform shapes of a member's own ids: anything else in a member frame is dropped (FLEETX-2). */
export const OWN_ID = {
  permission: /^perm-[0-9a-f]{20}$/,
  job: /^j-[0-9a-f]{12}$/,
  commander: COMMANDER_ID_PATTERN,
} as const;
export type ObjectKind = keyof typeof OWN_ID;
