// Machines for the Commanders list and Settings → Machines (FLEETUI-1, -3), apart
// from machines.ts so the Inbox's first load does not carry them.
import type { MachineState } from '../../protocol/wire/machines';
import { machineOfLabel, offlineReason, type Place, type Slice } from './machines';

/** The repos the app holds of a member: those it announced, and any carrying its label (its `machine.state` may predate them). */
export function reposOf(s: Pick<Slice, 'repos'>, m: MachineState): string[] {
  const prefix = `${m.id.slice(2, 10)}.`;
  return [...new Set([...m.repos, ...Object.keys(s.repos).filter((id) => id.startsWith(prefix))])];
}

/** A commander id carrying a `<8 hex>.` prefix is that member's (FLEETX-1); any other is the home's. Null without members. */
export function commanderPlace(s: Slice, commanderId: string): Place | null {
  if (Object.keys(s.machines).length === 0) return null;
  const m = machineOfLabel(s.machines, commanderId);
  if (!m) return { machine: s.home?.name ?? 'home', repo: null, offline: null };
  return { machine: m.name, repo: null, offline: m.online ? null : offlineReason(m) };
}
