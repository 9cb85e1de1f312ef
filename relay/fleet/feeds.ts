// The home's view of what a member's own services broadcast (FLEETX-2): its
// permission prompts, task jobs and commanders. Each is taken only in its
// platform shape and for a repo THAT member announced, labelled with the member's
// machine (FLEETX-1), broadcast to the home's devices, remembered (bounded) for
// devices that subscribe later, and the route back to its member is recorded
// from these frames alone — so a member can only ever be routed its own objects.
import type { ServerFrame, ServerFrameOf } from '../../protocol/wire/frames';
import { type FleetFrame, type MachineRecord, MAX_MEMBER_OBJECTS } from '../../protocol/wire/fleet';
import type { RelayServices } from '../context';
import { commanderWaitingMessage, permissionMessage } from '../push/messages';
import type { MemberNotify } from './push-budget';
import { labelId, type ObjectKind, OWN_ID } from './labels';

export interface ObjectRoute { machine: string; own: string }

interface Entry {
  kind: ObjectKind;
  machine: string;
  own: string;
  /** The labelled frame a subscribing device is sent. */
  frame: ServerFrame;
  /** A decided request or a finished job may make room for a newer one. */
  settled: boolean;
  /** JSON characters of `frame`, charged to the member's budget (FLEETX-2). */
  chars?: number;
}

/** Moves a member's kept characters from `before` to `after`; false (nothing recorded) when a growth would pass its budget. */
export type Charge = (machine: string, before: number, after: number) => boolean;

export interface MemberFeeds {
  take(machine: MachineRecord, frame: FleetFrame['frame']): void;
  /** The member and its own id behind a labelled id of `kind`, as that member announced it. */
  route(kind: ObjectKind, labelled: string): ObjectRoute | undefined;
  /** Sends a subscribing device every remembered request, job and commander. */
  replay(send: (frame: ServerFrame) => void): void;
  /** A removed machine: its commanders are removed on the devices, everything of it forgotten. */
  forget(machine: string): void;
}

export function memberFeeds(
  services: RelayServices, repoOwner: (labelled: string) => string | undefined, labelRepo: (machine: string, repo: string) => string, notify: MemberNotify, charge: Charge,
): MemberFeeds {
  /** labelled id → entry, in arrival order (oldest first) so eviction takes the oldest. */
  const entries = new Map<string, Entry>();
  /** Labelled requests already pushed: one push per request, however often it is resent. */
  const pushed = new Set<string>();

  /** The labelled repo of a member's repo id, only when THAT member announced it. */
  const ownRepo = (machine: string, repo: string) => {
    const labelled = labelRepo(machine, repo);
    return repoOwner(labelled) === machine ? labelled : undefined;
  };
  const known = (kind: ObjectKind, machine: string, own: string) => {
    const e = entries.get(labelId(machine, own));
    return e && e.kind === kind && e.machine === machine ? e : undefined;
  };

  /** Forgets an entry and gives its characters back to its member. */
  function drop(key: string): void {
    const e = entries.get(key);
    if (!e) return;
    charge(e.machine, e.chars ?? 0, 0);
    entries.delete(key);
    pushed.delete(key);
  }

  /** Records an entry; false when the member is at its limit for that kind and nothing can make room, or past its characters (FLEETX-2). */
  function keep(entry: Entry): boolean {
    const key = labelId(entry.machine, entry.own);
    const chars = JSON.stringify(entry.frame).length;
    const old = entries.get(key);
    if (old && !charge(entry.machine, old.chars ?? 0, chars)) return false;
    if (!old) {
      let count = 0;
      let oldest: string | undefined;
      for (const [k, e] of entries) {
        if (e.machine !== entry.machine || e.kind !== entry.kind) continue;
        count += 1;
        if (!oldest && e.settled) oldest = k;
      }
      if (count >= MAX_MEMBER_OBJECTS) {
        if (!oldest) return false;
        drop(oldest);
      }
      if (!charge(entry.machine, 0, chars)) return false;
    }
    entries.delete(key); // re-inserted last: the newest
    entries.set(key, { ...entry, chars });
    return true;
  }

  function take(machine: MachineRecord, frame: FleetFrame['frame']): void {
    const m = machine.id;
    switch (frame.type) {
      case 'permission.request': {
        const view = frame.request;
        if (!OWN_ID.permission.test(view.id)) return;
        const repo = view.repo === null ? null : ownRepo(m, view.repo);
        if (repo === undefined) return;
        const request = { ...view, id: labelId(m, view.id), repo };
        const out: ServerFrameOf<'permission.request'> = { type: 'permission.request', request };
        if (!keep({ kind: 'permission', machine: m, own: view.id, frame: out, settled: view.status !== 'pending' })) return;
        services.broadcast(out);
        if (view.status === 'pending' && !pushed.has(request.id)) {
          pushed.add(request.id);
          try {
            const payload = permissionMessage(request);
            notify(machine, { ...payload, title: `${machine.name}: ${payload.title}`.slice(0, 200) });
          } catch (error) {
            services.log.error(error, 'push for a member permission request');
          }
        }
        return;
      }
      case 'job.state': {
        if (!OWN_ID.job.test(frame.job)) return;
        const repo = ownRepo(m, frame.repo);
        if (!repo) return;
        const out = { ...frame, job: labelId(m, frame.job), repo };
        if (!keep({ kind: 'job', machine: m, own: frame.job, frame: out, settled: frame.status !== 'running' })) return;
        services.broadcast(out);
        return;
      }
      case 'job.output': {
        if (!known('job', m, frame.job)) return;
        services.broadcast({ ...frame, job: labelId(m, frame.job) }, undefined, { ephemeral: true });
        return;
      }
      case 'commander.state': {
        const c = frame.commander;
        if (!OWN_ID.commander.test(c.id)) return;
        const out: ServerFrameOf<'commander.state'> = { type: 'commander.state', commander: { ...c, id: labelId(m, c.id), name: `${machine.name}/${c.name}`.slice(0, 80) } };
        const before = known('commander', m, c.id)?.frame;
        if (!keep({ kind: 'commander', machine: m, own: c.id, frame: out, settled: false })) return;
        services.broadcast(out);
        // Entering `waiting` (not a state resent on relink) is pushed by the home, as its own commanders' are (FLEETX-5).
        const was = before?.type === 'commander.state' ? before.commander.status : undefined;
        if (c.status === 'waiting' && was !== undefined && was !== 'waiting') {
          try {
            notify(machine, commanderWaitingMessage(out.commander));
          } catch (error) {
            services.log.error(error, 'push for a member commander');
          }
        }
        return;
      }
      case 'commander.output': {
        if (!known('commander', m, frame.commander)) return;
        services.broadcast({ ...frame, commander: labelId(m, frame.commander) }, undefined, { ephemeral: true });
        return;
      }
      case 'commander.removed': {
        if (!known('commander', m, frame.commander)) return;
        drop(labelId(m, frame.commander));
        services.broadcast({ type: 'commander.removed', commander: labelId(m, frame.commander) });
        return;
      }
    }
  }

  return {
    take,
    route(kind, labelled) {
      const e = entries.get(labelled);
      return e && e.kind === kind ? { machine: e.machine, own: e.own } : undefined;
    },
    replay(send) {
      for (const e of entries.values()) send(e.frame);
    },
    forget(machine) {
      for (const [key, e] of entries) {
        if (e.machine !== machine) continue;
        drop(key);
        if (e.kind === 'commander') services.broadcast({ type: 'commander.removed', commander: key });
      }
    },
  };
}
