// The home's side of the fleet link (FLEET-n): accepts member sockets at
// FLEET_PATH, runs the mutual key proof (join with a one-time code, or auth of a
// known machine), then forwards the member's bus frames to the home's devices
// with each repo labelled by its machine. Removed machines are cut off. A device's
// read or action on a labelled repo is forwarded to the member that announced it,
// and only that member's answer for that request reaches that device (FLEET-20).
import * as crypto from 'node:crypto';
import type * as http from 'node:http';
import type * as net from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { CommandrError } from '../../protocol/wire/errors';
import { MAX_FRAME_BYTES, type ServerFrame, type ServerFrameOf } from '../../protocol/wire/frames';
import { ErrorCode } from '../../protocol/wire/errors';
import {
  forwardTimeoutMs, type ForwardedFrame, MAX_FORWARDED_REPLAY_CHARS, homeProof, removedProof, type HomeFrame, MAX_LINK_DEPTH, MAX_MEMBER_REPOS, MAX_MEMBER_STATE_CHARS, MAX_MEMBER_TASKS, nestsWithin, MAX_PENDING_FORWARDS, type MachineRecord, MemberFrame, memberProof,
} from '../../protocol/wire/fleet';
import type { MachineState } from '../../protocol/wire/machines';
import type { RepoInfo, TaskSummary } from '../../protocol/wire/views';
import type { RelayServices } from '../context';
import { APPROVAL_ACTIONS, taskUrl } from '../push/messages';
import type { PushPayload } from '../../protocol/wire/push';
import { TaskId } from '../../protocol/bus/ids';
import { homeName } from './device-frames';
import { keepAlive } from './alive';
import { loadMachineKey, signWith, verifyWith } from './keys';
import { addMachine, freeMachineName, listMachines, newMachineId, redeemJoinSecret } from './machines';
import { fleetSubscribed, MemberTails } from './resume';
import type { Cursor } from '../../protocol/wire/views';
import { memberFeeds, type MemberFeeds } from './feeds';
import { memberPushBudget } from './push-budget';
import { cutIfLingering, PreAuth } from '../clients/socket';
import { RepoHub } from '../watch/hub';
import { LINK_UP_WINDOW_MS, LinkUps, MAX_LINK_UPS } from './link-rate';

export interface FleetHome {
  upgrade(req: http.IncomingMessage, socket: net.Socket, head: Buffer): void;
  /** Machines with an open, authenticated link. */
  online(): string[];
  /** Closes the links of machines no longer in machines.json and tells devices they are gone (FLEET-6, FLEETUI-5). */
  forgetRemoved(): void;
  /** Each member machine's link state and repos (FLEET-22). */
  states(): MachineState[];
  /** What a subscribing device is sent about members: each member repo's last known state, then each machine's state (FLEET-22). */
  replay(send: (frame: ServerFrame) => void, cursors?: Record<string, Cursor>): RepoInfo[];
  /** The member repo behind a labelled repo id, as that member announced it. */
  route(labelled: string): Route | undefined;
  /** Sends a device's verified frame to the member owning its repo (or object); resolves with the member's result (FLEET-20, FLEETX-3..5). */
  forward(route: Route, caller: Caller, frame: ForwardedFrame, how?: ForwardHow): Promise<unknown>;
  /** Members' permission prompts, jobs and commanders (FLEETX-2). */
  feeds: MemberFeeds;
  close(): void;
}

export interface Route { machine: string; repo: string }

/** A `fleet.auth` naming a machine not in machines.json (removed, or never joined here): refused with the signed `removed` (FLEETE-2). */
class UnknownMachine extends CommandrError {
  constructor(readonly machine: string, readonly memberNonce: string) {
    super('E_UNAUTHORIZED', `unknown or removed machine ${machine}; join again with a new code from \`commandr machines add\``);
  }
}
/** For a frame that names no repo (FLEETX-3..5): the labelled id the device used, and how the member's ack is shown. */
export interface ForwardHow { labelled: string; result(value: unknown): unknown }
/** Who asked: the device (already verified by the home's dispatch) and how to reach that one client. */
export interface Caller { device: { id: string; name: string }; send(frame: ServerFrame): void }

interface Pending {
  machine: string;
  route: Route;
  labelled: string;
  frame: ForwardedFrame;
  caller: Caller;
  result(value: unknown): unknown;
  /** Characters of commander output streamed for this request so far (FLEETX-6). */
  streamed: number;
  timer: NodeJS.Timeout;
  resolve(result: unknown): void;
  reject(error: CommandrError): void;
}

const homes = new WeakMap<RelayServices, FleetHome>();
/** The push kinds a member's bus may raise; commander, permission and question pushes are the home's own. */
const MEMBER_PUSH_KINDS = new Set(['approval_requested', 'council_verdict', 'task_done']);
/** The fleet home running with these services, if any (how relay/actions reaches it without a context field). */
export function fleetHomeOf(services: RelayServices): FleetHome | undefined {
  return homes.get(services);
}

/** `<machine id without m->` prefix + the member's repo id: unique on the home, still a RepoId. */
export function labelRepo(machine: string, repo: string): string {
  const split = /^(.*)(-[0-9a-f]{8})$/.exec(repo);
  const [name, tail] = split ? [split[1]!, split[2]!] : [repo, ''];
  return `${machine.slice(2, 10)}.${name}`.slice(0, 81) + tail;
}

export function startFleetHome(services: RelayServices, version: string): FleetHome {
  const key = loadMachineKey(services.dataDir);
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4 * MAX_FRAME_BYTES });
  const preAuth = new PreAuth();
  const links = new Map<string, WebSocket>();
  /** labelled repo id → the member and its own repo id; filled only from what each member announced. */
  const routes = new Map<string, Route>();
  const pending = new Map<string, Pending>();
  /** Each member's version as its link said, and when the home last heard from it (FLEETUI-4). */
  const versions = new Map<string, string>();
  const seen = new Map<string, string>();
  /**
   * Last known state of each member repo (relabelled), kept while its machine is offline: the snapshot without its
   * tasks (they live in `tasks`), and the JSON characters of each kept task, charged to its machine (FLEET-22).
   */
  const cache = new Map<string, { machine: string; snapshot: ServerFrameOf<'repo.snapshot'>; tasks: Map<string, TaskSummary>; sizes: Map<string, number>; chars: number }>();
  /** Per member, the JSON characters the home keeps of its repos' state, prompts, jobs and commanders: at most MAX_MEMBER_STATE_CHARS. */
  const held = new Map<string, number>();
  /** Moves a member's kept characters from `before` to `after`; a growth past its budget is refused (false) and not recorded. */
  const charge = (machine: string, before: number, after: number): boolean => {
    const total = (held.get(machine) ?? 0) - before + after;
    if (after > before && total > MAX_MEMBER_STATE_CHARS) return false;
    held.set(machine, total);
    return true;
  };
  const forgetState = (label: string) => {
    const entry = cache.get(label);
    if (!entry) return;
    charge(entry.machine, entry.chars, 0);
    cache.delete(label);
  };
  /** When each machine's link last came up or went down. */
  const since = new Map<string, string>();
  /** Per member repo, the member's cursor of the last event forwarded and a bounded tail of events, for event-exact resume (FLEETR-n). */
  const tails = new MemberTails();
  /** Every push a member causes goes through its budget (FLEETX-7). */
  const notifyFrom = memberPushBudget(services);
  /** Members' prompts, jobs and commanders, charged to the same budget as their repos' state. */
  const feeds = memberFeeds(services, (label) => routes.get(label)?.machine, labelRepo, notifyFrom, charge);
  /** Each machine's recent link-ups: a member reconnecting in a loop cannot flood the devices with machine.state (FLEET-24). */
  const linkUps = new LinkUps();

  const nameOf = (machine: string) => listMachines(services.dataDir).find((m) => m.id === machine)?.name ?? machine;
  let listed = new Set(listMachines(services.dataDir).map((m) => m.id));
  // A removed machine loses its link within a second (the CLI edits the file).
  const sweep = setInterval(forgetRemoved, 1000);
  function forgetRemoved(): void {
    const known = new Set(listMachines(services.dataDir).map((m) => m.id));
    // A closing link's frames are not taken (see 'message'), and a member that never answers the close frame is cut after a second, not ws's 30 s.
    for (const [id, ws] of links) {
      if (known.has(id) || ws.readyState !== ws.OPEN) continue;
      ws.close(1008, 'machine removed');
      cutIfLingering(ws);
    }
    for (const id of since.keys()) if (!known.has(id)) { feeds.forget(id); linkUps.forget(id); }
    for (const [label, route] of routes) {
      if (known.has(route.machine)) continue;
      routes.delete(label);
      forgetState(label);
      tails.forget(label);
      services.broadcast({ type: 'repo.removed', repo: label });
    }
    for (const id of listed) if (!known.has(id)) services.broadcast({ type: 'machine.removed', machine: id });
    listed = known;
  }
  sweep.unref();

  function accept(ws: WebSocket, authed: () => void): void {
    const nonce = crypto.randomBytes(32).toString('base64url');
    let machine: MachineRecord | undefined;
    const send = (frame: HomeFrame) => ws.readyState === ws.OPEN && ws.send(JSON.stringify(frame));
    const refuse = (error: CommandrError) => {
      // A machine this home does not know gets the home's signed word for it, so it stops linking (FLEETE-2).
      const removed = error instanceof UnknownMachine ? { machine: error.machine, sig: signWith(key, removedProof(error.memberNonce, nonce, error.machine)) } : undefined;
      send({ type: 'fleet.error', error: { code: error.code, message: error.message }, ...(removed ? { removed } : {}) });
      ws.close(1008, error.code);
      cutIfLingering(ws);
    };
    const timer = setTimeout(() => {
      ws.close(1008, 'authentication timed out');
      cutIfLingering(ws);
    }, services.options.authTimeoutMs);
    ws.on('message', (data) => {
      // Nothing a link sends once the home began closing it (a removed machine, a replaced link) is taken.
      if (ws.readyState !== ws.OPEN) return;
      let value: unknown;
      try { value = JSON.parse(String(data)); } catch { value = undefined; }
      if (!nestsWithin(value, MAX_LINK_DEPTH)) return refuse(new CommandrError('E_BAD_FRAME', `a fleet frame may nest at most ${MAX_LINK_DEPTH} levels`));
      const parsed = MemberFrame.safeParse(value);
      if (!parsed.success) return refuse(new CommandrError('E_BAD_FRAME', 'not a fleet frame'));
      const frame = parsed.data;
      if (machine) seen.set(machine.id, new Date().toISOString());
      if (!machine) {
        clearTimeout(timer);
        let proven: MachineRecord;
        try {
          proven = authenticate(frame);
        } catch (error) {
          return refuse(error instanceof CommandrError ? error : new CommandrError('E_UNAUTHORIZED', 'machine authentication failed'));
        }
        // Counted only after the key proof, so no one without the machine's key can use up its link-ups (FLEET-24).
        if (!linkUps.take(proven.id)) {
          return refuse(new CommandrError('E_RATE_LIMITED', `machine ${proven.name} linked ${MAX_LINK_UPS} times within ${LINK_UP_WINDOW_MS / 1000} s; try again later`));
        }
        machine = proven;
        authed();
        // The link it replaces is cut if it does not finish closing within a second: a member cannot pile up closing links (FLEET-24).
        const replaced = links.get(machine.id);
        if (replaced) {
          replaced.close(1000, 'replaced by a newer link');
          cutIfLingering(replaced);
        }
        links.set(machine.id, ws);
        listed.add(machine.id);
        if (frame.type === 'fleet.join' || frame.type === 'fleet.auth') versions.set(machine.id, frame.version ?? '');
        seen.set(machine.id, new Date().toISOString());
        ws.on('pong', () => machine && seen.set(machine.id, new Date().toISOString()));
        keepAlive(ws, services.options.heartbeatMs);
        since.set(machine.id, new Date().toISOString());
        announce(machine.id);
        const memberNonce = frame.type === 'fleet.join' || frame.type === 'fleet.auth' ? frame.nonce : '';
        const resume = tails.cursors([...routes].filter(([, r]) => r.machine === machine!.id).map(([label, r]) => [label, r.repo]));
        send({ type: 'fleet.welcome', machine: machine.id, name: machine.name, sig: signWith(key, homeProof(memberNonce, nonce, machine.id)), resume });
        return;
      }
      if (frame.type === 'fleet.join' || frame.type === 'fleet.auth') return refuse(new CommandrError('E_BAD_FRAME', 'this link is already authenticated'));
      if (frame.type === 'fleet.bus') {
        const labelled = relabel(frame.frame, machine);
        const out = labelled && tails.take(labelled);
        // A snapshot that would take the member past what the home keeps of it is dropped, as a repo past MAX_MEMBER_REPOS is.
        if (out && remember(out, machine.id)) services.broadcast(out, fleetSubscribed);
        return;
      }
      if (frame.type === 'fleet.push') return push(machine, frame.payload);
      if (frame.type === 'fleet.frame') return feeds.take(machine, frame.frame);
      answer(machine.id, frame);
    });
    ws.on('close', () => {
      clearTimeout(timer);
      if (!machine || links.get(machine.id) !== ws) return;
      links.delete(machine.id);
      since.set(machine.id, new Date().toISOString());
      announce(machine.id);
      for (const [rid, p] of pending) {
        if (p.machine !== machine.id) continue;
        settle(rid);
        p.reject(new CommandrError('E_UNAVAILABLE', `the link to ${machine.name} dropped before it answered ${p.frame.type}; check its effect before trying again`));
      }
    });
    ws.on('error', () => ws.terminate());
    send({ type: 'fleet.hello', nonce, home: { key: key.publicKey, version } });

    function authenticate(frame: MemberFrame): MachineRecord {
      if (frame.type === 'fleet.join') {
        // The proof first: a code is spent only by a member holding the key it registers.
        if (!verifyWith(frame.key, memberProof(nonce, frame.nonce, key.fingerprint), frame.sig)) throw new CommandrError('E_UNAUTHORIZED', 'the member key proof does not verify');
        // The name the home's person gave the code wins; no machine takes a name another machine or the home already has.
        const named = redeemJoinSecret(services.dataDir, frame.secret);
        const name = freeMachineName(services.dataDir, named ?? frame.name, frame.key, homeName());
        const record: MachineRecord = { id: newMachineId(), name, key: frame.key, joinedAt: new Date().toISOString() };
        addMachine(services.dataDir, record);
        return record;
      }
      if (frame.type === 'fleet.auth') {
        const known = listMachines(services.dataDir).find((m) => m.id === frame.machine);
        if (!known) throw new UnknownMachine(frame.machine, frame.nonce);
        if (!verifyWith(known.key, memberProof(nonce, frame.nonce, key.fingerprint), frame.sig)) {
          throw new CommandrError('E_UNAUTHORIZED', 'unknown or removed machine, or a bad key proof; join again with a new code');
        }
        return known;
      }
      throw new CommandrError('E_UNAUTHORIZED', 'authenticate first (fleet.join or fleet.auth)');
    }
  }

  /** The member's frame as the home's devices see it: repo ids made unique per machine, names labelled; records the route. */
  function relabel(frame: Extract<ServerFrame, { type: 'bus.events' | 'repo.snapshot' | 'repo.tasks' | 'repo.removed' }>, machine: MachineRecord): ServerFrame | undefined {
    const own = frame.type === 'repo.snapshot' ? frame.repo.id : frame.repo;
    const labelled = labelRepo(machine.id, own);
    if (frame.type === 'repo.removed') {
      // The member stopped watching it: forget its route and last state (only that member's own repo).
      if (routes.get(labelled)?.machine !== machine.id) return undefined;
      routes.delete(labelled);
      forgetState(labelled);
      return { type: 'repo.removed', repo: labelled };
    }
    // A repo this home watches itself is always its own (as for actions, FLEET-20): a member whose label would name it is not heard about it (FLEET-26).
    if (services.hub instanceof RepoHub && services.hub.model(labelled) !== undefined) return undefined;
    if (!routes.has(labelled)) {
      // A member announcing ever more repos cannot grow the home's table without bound.
      let count = 0;
      for (const r of routes.values()) if (r.machine === machine.id) count += 1;
      if (count >= MAX_MEMBER_REPOS) return undefined;
      routes.set(labelled, { machine: machine.id, repo: own });
    }
    // Every task summary is forced into the frame's own repo: a member cannot place tasks elsewhere.
    const tasks = frame.tasks.map((t) => ({ ...t, repo: labelled }));
    if (frame.type === 'bus.events' || frame.type === 'repo.tasks') return { ...frame, repo: labelled, tasks };
    return { ...frame, tasks, repo: { ...frame.repo, id: labelled, name: `${machine.name}/${frame.repo.name}` } };
  }

  function stateOf(record: MachineRecord): MachineState {
    const repos = [...routes].filter(([, r]) => r.machine === record.id).map(([label]) => label);
    return {
      id: record.id, name: record.name, online: links.has(record.id), since: since.get(record.id) ?? null, repos,
      version: versions.get(record.id) || null, lastSeen: seen.get(record.id) ?? null,
    };
  }

  /** Tells every device that a machine's link came up or went down, naming its repos (FLEET-22). */
  function announce(machine: string): void {
    const record = listMachines(services.dataDir).find((m) => m.id === machine);
    if (record) services.broadcast({ type: 'machine.state', machine: stateOf(record) });
  }

  /**
   * Keeps each member repo's latest state so a device arriving later (or while the machine is offline) sees it,
   * within the member's budget (FLEET-22): false for a snapshot that does not fit (not kept, not sent on); a task
   * summary that does not fit is not kept (the frame still goes on).
   */
  function remember(frame: ServerFrame, machine: string): boolean {
    if (frame.type === 'repo.snapshot') {
      const sizes = new Map<string, number>();
      let chars = JSON.stringify(frame.repo).length;
      for (const t of frame.tasks) {
        const size = JSON.stringify(t).length;
        chars += size - (sizes.get(t.id) ?? 0);
        sizes.set(t.id, size);
      }
      const old = cache.get(frame.repo.id);
      if (!charge(machine, old?.chars ?? 0, chars)) return false;
      cache.set(frame.repo.id, { machine, snapshot: { ...frame, tasks: [] }, tasks: new Map(frame.tasks.map((t) => [t.id, t])), sizes, chars });
      return true;
    }
    if (frame.type !== 'bus.events' && frame.type !== 'repo.tasks') return true;
    const entry = cache.get(frame.repo);
    if (!entry) return true;
    for (const t of frame.tasks) {
      if (!entry.tasks.has(t.id) && entry.tasks.size >= MAX_MEMBER_TASKS) continue;
      const before = entry.sizes.get(t.id) ?? 0;
      const size = JSON.stringify(t).length;
      if (!charge(machine, before, size)) continue;
      entry.chars += size - before;
      entry.sizes.set(t.id, size);
      entry.tasks.set(t.id, t);
    }
    const last = frame.type === 'bus.events' ? frame.events.at(-1) : undefined;
    if (last) entry.snapshot = { ...entry.snapshot, cursor: last.cursor };
    return true;
  }

  /** A member's push, sent to the home's devices only for a task of a repo THAT member announced (FLEET-23). */
  function push(machine: MachineRecord, payload: PushPayload): void {
    const { repo, task, digest } = payload.data;
    if (!repo || !task || !TaskId.safeParse(task).success || !MEMBER_PUSH_KINDS.has(payload.kind)) return;
    const labelled = labelRepo(machine.id, repo);
    if (routes.get(labelled)?.machine !== machine.id) return;
    // Only the words are the member's: its buttons are the home's own for the kind, so a button never says other than it does (FLEET-25).
    notifyFrom(machine, {
      v: 1,
      kind: payload.kind,
      title: `${machine.name}: ${payload.title}`.slice(0, 200),
      body: payload.body,
      tag: `task:${labelled}:${task}`,
      url: taskUrl(labelled, task),
      actions: payload.kind === 'approval_requested' && digest ? APPROVAL_ACTIONS : [],
      data: { repo: labelled, task, ...(digest ? { digest } : {}) },
    });
  }

  function settle(rid: string): void {
    const p = pending.get(rid);
    if (!p) return;
    clearTimeout(p.timer);
    pending.delete(rid);
  }

  /** A member's answer: only for a request this home sent to THAT member, only to the device that asked. */
  function answer(machine: string, frame: Extract<MemberFrame, { type: 'fleet.stream' | 'fleet.result' }>): void {
    const p = pending.get(frame.rid);
    if (!p || p.machine !== machine) return; // late (timed out), or another member's request: nothing to deliver
    if (frame.type === 'fleet.stream') {
      const part = frame.frame;
      if (part.type === 'commander.output') {
        // A commander's replay, only for a `commander.output` read of that same commander (FLEETX-5).
        if (p.frame.type !== 'commander.output' || part.commander !== p.route.repo) return;
        p.streamed += part.chunk.length;
        if (p.streamed <= MAX_FORWARDED_REPLAY_CHARS) p.caller.send({ ...part, commander: p.labelled });
        return;
      }
      if (part.id !== p.frame.id) return;
      const diff = part.type.startsWith('task.diff.');
      if (diff !== (p.frame.type === 'task.diff') || (part.type === 'repo.tasks' && p.frame.type !== 'repo.done')) return;
      if (part.type === 'repo.tasks') p.caller.send({ ...part, repo: p.labelled, tasks: part.tasks.map((t) => ({ ...t, repo: p.labelled })) });
      else if (part.type === 'task.diff.begin' && p.frame.type === 'task.diff') p.caller.send({ ...part, repo: p.labelled, task: p.frame.task });
      else p.caller.send(part);
      return;
    }
    settle(frame.rid);
    if (frame.ok) p.resolve(p.result(frame.result));
    else p.reject(new CommandrError(ErrorCode.safeParse(frame.error.code).success ? frame.error.code : 'E_INTERNAL', `${nameOf(machine)}: ${frame.error.message}`));
  }

  const home: FleetHome = {
    upgrade(req, socket, head) {
      // AUTH-7: as many links wait to authenticate, and each may send as much first, as a device's socket.
      if (preAuth.full) {
        socket.end('HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => accept(ws, preAuth.watch(socket)));
    },
    online: () => [...links.keys()],
    states: () => listMachines(services.dataDir).map(stateOf),
    replay(send, cursors) {
      const infos: RepoInfo[] = [];
      for (const { snapshot, tasks } of cache.values()) {
        tails.replay(snapshot, tasks, cursors?.[snapshot.repo.id], send);
        infos.push(snapshot.repo);
      }
      feeds.replay(send);
      for (const record of listMachines(services.dataDir)) send({ type: 'machine.state', machine: stateOf(record) });
      send({ type: 'machine.home', home: { name: homeName(), version } });
      return infos;
    },
    forgetRemoved,
    route: (labelled) => routes.get(labelled),
    feeds,
    forward(route, caller, frame, how) {
      const ws = links.get(route.machine);
      if (!ws || ws.readyState !== ws.OPEN) {
        return Promise.reject(new CommandrError('E_UNAVAILABLE', `${nameOf(route.machine)} is offline; ${frame.type} was not sent (nothing is queued), try again when it is back`));
      }
      let open = 0;
      for (const p of pending.values()) if (p.machine === route.machine) open += 1;
      if (open >= MAX_PENDING_FORWARDS) {
        return Promise.reject(new CommandrError('E_UNAVAILABLE', `${nameOf(route.machine)} has ${open} requests unanswered; try again shortly`));
      }
      const rid = `f-${crypto.randomBytes(8).toString('hex')}`;
      const limit = forwardTimeoutMs(frame.type);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          settle(rid);
          reject(new CommandrError('E_UNAVAILABLE', `${nameOf(route.machine)} did not answer ${frame.type} within ${limit / 1000} s; check its effect before trying again`));
        }, limit);
        timer.unref();
        const labelled = how?.labelled ?? ('repo' in frame ? frame.repo : '');
        const result = how?.result ?? ((value: unknown) => relabelResult(value, route.repo, labelled));
        pending.set(rid, { machine: route.machine, route, labelled, frame, caller, timer, result, streamed: 0, resolve, reject });
        ws.send(JSON.stringify({ type: 'fleet.action', rid, device: caller.device, frame } satisfies HomeFrame));
      });
    },
    close() {
      clearInterval(sweep);
      for (const ws of links.values()) ws.terminate();
      wss.close();
      homes.delete(services);
    },
  };
  homes.set(services, home);
  return home;
}

/** A member's result with its own repo id replaced by the labelled one wherever a `repo` field names it. */
function relabelResult(value: unknown, own: string, labelled: string): unknown {
  if (Array.isArray(value)) return value.map((v) => relabelResult(v, own, labelled));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'repo' && v === own ? labelled : relabelResult(v, own, labelled)]));
}
