// Which machine a repo lives on, as the phone says it (FLEETUI-1, -2): `<machine> · <repo>`,
// never the raw hex id, and why a member's actions are off while it is offline.
// Kept small: the Inbox and the Task screen share it. Commanders and Settings: machine-list.ts.
import type { MachineState } from '../../protocol/wire/machines';
import type { AppState } from './store';
import { clock } from './clock';

export interface Place { machine: string; repo: string | null; offline: string | null }
export type Slice = Pick<AppState, 'machines' | 'home' | 'repos'>;

/** The member a labelled id (`<first 8 hex of its machine id>.<own id>`, FLEET-3, FLEETX-1) belongs to. */
export function machineOfLabel(machines: Record<string, MachineState>, id: string): MachineState | undefined {
  if (id.indexOf('.') !== 8) return undefined;
  return Object.values(machines).find((m) => m.id.slice(2, 10) === id.slice(0, 8));
}

/** Null when there are no members (nothing to label). */
export function placeOf(s: Slice, repoId: string): Place | null {
  const members = Object.values(s.machines);
  if (members.length === 0) return null;
  const name = s.repos[repoId]?.name ?? repoId;
  const m = members.find((x) => x.repos.includes(repoId)) ?? machineOfLabel(s.machines, repoId);
  if (!m) return { machine: s.home?.name ?? 'home', repo: name, offline: null };
  return { machine: m.name, repo: name.startsWith(`${m.name}/`) ? name.slice(m.name.length + 1) : name, offline: m.online ? null : offlineReason(m) };
}

export function offlineReason(m: Pick<MachineState, 'name' | 'lastSeen' | 'since'>, now = new Date()): string {
  const at = m.lastSeen ?? m.since;
  return at ? `${m.name} offline · last seen ${clock(new Date(at), now)}` : `${m.name} offline · not seen since the home relay started`;
}
