// Which machine a repo or a commander lives on, as the phone says it (FLEETUI-1, -2):
// a readable label `<machine> · <repo>` (never the raw hex id), and, for a member
// that is offline, the reason its tasks cannot be acted on.
//
// API:
//   placeOf(state, repoId) → Place | null   (null: no member machines, nothing to label)
//   commanderPlace(state, commanderId) → Place | null
//   offlineReason(machine, now?) → "<name> offline · last seen HH:MM"
//   machineOfLabel(machines, labelledId) → the member whose `<8 hex>.` prefix the id carries
//   reposOf(state, machine) → its repo ids the app knows
import type { MachineState } from '../../protocol/wire/machines';
import type { AppState } from './store';

export interface Place {
  machine: string;
  /** The repo's own name (without the `<machine>/` prefix the home adds), or null for a commander. */
  repo: string | null;
  /** Set while the machine is offline: why its actions are off. */
  offline: string | null;
}

type Slice = Pick<AppState, 'machines' | 'home' | 'repos'>;

/** The member a labelled id (`<first 8 hex of the machine id>.<its own id>`, FLEET-3) belongs to. */
export function machineOfLabel(machines: Record<string, MachineState>, id: string): MachineState | undefined {
  const dot = id.indexOf('.');
  if (dot !== 8) return undefined;
  const prefix = id.slice(0, 8);
  for (const m of Object.values(machines)) if (m.id.slice(2, 10) === prefix) return m;
  return undefined;
}

/** The repos the app holds of a member: those it announced, and any carrying its label (its `machine.state` may predate them). */
export function reposOf(s: Pick<AppState, 'machines' | 'repos'>, m: MachineState): string[] {
  const prefix = `${m.id.slice(2, 10)}.`;
  return [...new Set([...m.repos, ...Object.keys(s.repos).filter((id) => id.startsWith(prefix))])];
}

export function placeOf(s: Slice, repoId: string): Place | null {
  const members = Object.values(s.machines);
  if (members.length === 0) return null;
  const name = s.repos[repoId]?.name ?? repoId;
  const member = members.find((m) => m.repos.includes(repoId)) ?? machineOfLabel(s.machines, repoId);
  if (!member) return { machine: s.home?.name ?? 'home', repo: name, offline: null };
  const own = name.startsWith(`${member.name}/`) ? name.slice(member.name.length + 1) : name;
  return { machine: member.name, repo: own, offline: member.online ? null : offlineReason(member) };
}

export function commanderPlace(s: Slice, commanderId: string): Place | null {
  if (Object.keys(s.machines).length === 0) return null;
  const member = machineOfLabel(s.machines, commanderId);
  if (!member) return { machine: s.home?.name ?? 'home', repo: null, offline: null };
  return { machine: member.name, repo: null, offline: member.online ? null : offlineReason(member) };
}

export function offlineReason(m: Pick<MachineState, 'name' | 'lastSeen' | 'since'>, now = new Date()): string {
  const at = m.lastSeen ?? m.since;
  return at ? `${m.name} offline · last seen ${clock(new Date(at), now)}` : `${m.name} offline · not seen since the home relay started`;
}

/** HH:MM in the phone's time; a day earlier than today also names the day. */
export function clock(at: Date, now = new Date()): string {
  const hhmm = `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
  if (at.toDateString() === now.toDateString()) return hhmm;
  return `${at.getDate()} ${at.toLocaleString('en', { month: 'short' })} ${hhmm}`;
}
