// The fleet service as server.ts builds it (FLEET-n): every relay can be a home
// (it accepts member links at FLEET_PATH) and, once `commandr join` recorded a
// home, a member that holds an outbound link to it and forwards its bus frames.
import type * as http from 'node:http';
import type * as net from 'node:net';
import type { ServerFrame } from '../../protocol/wire/frames';
import { FLEET_FRAME_TYPES, type FleetFrame, ForwardId, HomeFrame, type MemberFrame } from '../../protocol/wire/fleet';
import type { RelayServices } from '../context';
import { RepoHub } from '../watch/hub';
import { snapshotFrames } from '../watch/frames';
import { linkUpFrames } from './resume';
import { startFleetHome, type FleetHome } from './home';
import { MachineRemoved, openLink, readHome } from './member';
import { forwardServer } from './serve';
import { keepAlive } from './alive';
import { PushTriggers } from '../push/triggers';
import { PermissionService } from '../permissions/service';
import { Jobs } from '../jobs/service';
import { Commanders } from '../commanders/service';
import { setLinkedProbe } from './linked';

export interface Fleet {
  home: FleetHome;
  /** True while this member's link to its home is up. */
  linked(): boolean;
  upgrade(req: http.IncomingMessage, socket: net.Socket, head: Buffer): void;
  close(): void;
}

const BACKOFF_MAX_MS = 15_000;

/** What identifies one join: a new `commandr join` writes another machine id (or home). */
const recordKey = (record: { url: string; machine: string }) => `${record.machine} ${record.url}`;

export function startFleet(services: RelayServices, version: string): Fleet {
  const home = startFleetHome(services, version);
  let ws: import('ws').WebSocket | undefined;
  let closed = false;
  let attempt = 0;
  let retry: NodeJS.Timeout | undefined;
  /** The home record whose home refused this machine as removed (FLEETE-2): not tried again until `commandr join` records another. */
  let removedFrom: string | undefined;
  const hub = services.hub instanceof RepoHub ? services.hub : undefined;
  let machine: string | undefined;
  const server = forwardServer(services, () => machine);

  const forward = (frame: Extract<ServerFrame, { type: 'bus.events' | 'repo.snapshot' | 'repo.tasks' | 'repo.removed' }>) => {
    if (ws && ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type: 'fleet.bus', frame } satisfies MemberFrame));
  };
  hub?.on('events', (_repo, frame) => forward(frame));
  hub?.on('snapshot', (frames) => frames.forEach(forward));
  hub?.on('removed', (repo) => forward({ type: 'repo.removed', repo }));
  // A repo this machine starts watching while linked: its whole state, before any event of it.
  hub?.on('added', (repo) => {
    const model = hub.model(repo);
    if (model) snapshotFrames(model).forEach(forward);
  });
  // While linked, what this machine's own services tell devices about permission
  // prompts, jobs and commanders also goes to the home (FLEETX-2).
  const feed = (frame: FleetFrame['frame']) => {
    if (ws && ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type: 'fleet.frame', frame } satisfies MemberFrame));
  };
  const broadcast = services.broadcast;
  services.broadcast = (frame, filter, options) => {
    broadcast(frame, filter, options);
    if (!filter && FLEET_FRAME_TYPES.has(frame.type)) feed(frame as FleetFrame['frame']);
  };
  setLinkedProbe(services, () => ws !== undefined);
  /** On (re)link: the open and recent prompts, the jobs and every commander, before live frames follow. */
  const feedAll = () => {
    if (services.permissions instanceof PermissionService) for (const request of services.permissions.list()) feed({ type: 'permission.request', request });
    if (services.jobs instanceof Jobs) for (const state of services.jobs.list()) feed(state);
    if (services.commanders instanceof Commanders) for (const commander of services.commanders.list()) feed({ type: 'commander.state', commander });
  };
  // While linked, this machine's push triggers go to the home, which alone holds the devices' subscriptions (FLEET-23).
  let triggers: PushTriggers | undefined;

  async function connect(): Promise<void> {
    if (closed) return;
    const record = readHome(services.dataDir);
    if (!record || (removedFrom !== undefined && removedFrom === recordKey(record))) {
      // `commandr join` may record a home while this relay runs: look again shortly (reading the file, not linking).
      retry = setTimeout(() => void connect(), 1000);
      retry.unref();
      return;
    }
    try {
      const link = await openLink(services.dataDir, record.url, { auth: record });
      if (closed) return link.ws.close();
      attempt = 0;
      ws = link.ws;
      machine = link.machine;
      keepAlive(link.ws, services.options.heartbeatMs);
      const reply = (frame: MemberFrame) => link.ws.readyState === link.ws.OPEN && link.ws.send(JSON.stringify(frame));
      // Only the home this link verified speaks here; anything but a well-formed fleet.action ends the link.
      link.ws.on('message', (data) => {
        let value: unknown;
        try { value = JSON.parse(String(data)); } catch { value = undefined; }
        const parsed = HomeFrame.safeParse(value);
        if (!parsed.success || parsed.data.type !== 'fleet.action') {
          // A request this member cannot take (e.g. a newer home's type) gets an error; junk ends the link.
          const rid = ForwardId.safeParse((value as { rid?: unknown } | undefined)?.rid);
          if ((value as { type?: unknown } | undefined)?.type === 'fleet.action' && rid.success) {
            return reply({ type: 'fleet.result', rid: rid.data, ok: false, error: { code: 'E_BAD_FRAME', message: 'this member does not take that request' } });
          }
          services.log.warn('fleet: the home sent a frame that is not a fleet.action; reconnecting');
          return link.ws.close(1008, 'bad frame');
        }
        void server.serve(parsed.data, reply);
      });
      triggers = new PushTriggers((payload) => reply({ type: 'fleet.push', payload }), services.log);
      if (hub) triggers.watchBus(hub);
      link.ws.on('close', () => {
        ws = undefined;
        triggers?.close();
        triggers = undefined;
        schedule();
      });
      link.ws.on('error', () => link.ws.terminate());
      // The home continues from its cursors: the events it missed, then each repo's state; live frames follow (FLEETR-1).
      if (hub) linkUpFrames(hub, link.resume).forEach(forward);
      feedAll();
    } catch (error) {
      services.log.warn(`fleet: ${error instanceof Error ? error.message : String(error)}`);
      if (error instanceof MachineRemoved) {
        // Said once; trying again cannot succeed, only a new join can.
        removedFrom = recordKey(record);
        attempt = 0;
        return void connect();
      }
      schedule();
    }
  }

  function schedule(): void {
    if (closed) return;
    attempt += 1;
    const delay = Math.min(BACKOFF_MAX_MS, 250 * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2);
    retry = setTimeout(() => void connect(), delay);
    retry.unref();
  }

  void connect();
  return {
    home,
    linked: () => ws !== undefined,
    upgrade: (req, socket, head) => home.upgrade(req, socket, head),
    close() {
      closed = true;
      services.broadcast = broadcast;
      setLinkedProbe(services, undefined);
      triggers?.close();
      if (retry) clearTimeout(retry);
      ws?.terminate();
      home.close();
    },
  };
}
