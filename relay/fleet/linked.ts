// Whether this relay's link to its home is up (FLEETX-3): a member with no paired
// device of its own still takes a hook's permission ask then, for the home's devices.
import type { RelayServices } from '../context';

const linked = new WeakMap<RelayServices, () => boolean>();

export function setLinkedProbe(services: RelayServices, probe: (() => boolean) | undefined): void {
  if (probe) linked.set(services, probe);
  else linked.delete(services);
}

export function linkedToHome(services: RelayServices): boolean {
  return linked.get(services)?.() ?? false;
}
