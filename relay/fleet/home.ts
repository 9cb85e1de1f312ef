// The home's side of the fleet link (FLEET-n): accepts member sockets at
// FLEET_PATH, runs the mutual key proof (join with a one-time code, or auth of a
// known machine), then forwards the member's bus frames to the home's devices
// with each repo labelled by its machine. Removed machines are cut off.
import * as crypto from 'node:crypto';
import type * as http from 'node:http';
import type * as net from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { CommandrError } from '../../protocol/wire/errors';
import { MAX_FRAME_BYTES, type ServerFrame } from '../../protocol/wire/frames';
import { homeProof, type HomeFrame, type MachineRecord, MemberFrame, memberProof } from '../../protocol/wire/fleet';
import type { RelayServices } from '../context';
import { loadMachineKey, signWith, verifyWith } from './keys';
import { addMachine, listMachines, newMachineId, redeemJoinSecret } from './machines';

export interface FleetHome {
  upgrade(req: http.IncomingMessage, socket: net.Socket, head: Buffer): void;
  /** Machines with an open, authenticated link. */
  online(): string[];
  close(): void;
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
  const links = new Map<string, WebSocket>();
  // A removed machine loses its link within a second (the CLI edits the file).
  const sweep = setInterval(() => {
    const known = new Set(listMachines(services.dataDir).map((m) => m.id));
    for (const [id, ws] of links) if (!known.has(id)) ws.close(1008, 'machine removed');
  }, 1000);
  sweep.unref();

  function accept(ws: WebSocket): void {
    const nonce = crypto.randomBytes(32).toString('base64url');
    let machine: MachineRecord | undefined;
    const send = (frame: HomeFrame) => ws.readyState === ws.OPEN && ws.send(JSON.stringify(frame));
    const refuse = (error: CommandrError) => {
      send({ type: 'fleet.error', error: { code: error.code, message: error.message } });
      ws.close(1008, error.code);
    };
    const timer = setTimeout(() => ws.close(1008, 'authentication timed out'), services.options.authTimeoutMs);
    ws.on('message', (data) => {
      let value: unknown;
      try { value = JSON.parse(String(data)); } catch { value = undefined; }
      const parsed = MemberFrame.safeParse(value);
      if (!parsed.success) return refuse(new CommandrError('E_BAD_FRAME', 'not a fleet frame'));
      const frame = parsed.data;
      if (!machine) {
        clearTimeout(timer);
        try {
          machine = authenticate(frame);
        } catch (error) {
          return refuse(error instanceof CommandrError ? error : new CommandrError('E_UNAUTHORIZED', 'machine authentication failed'));
        }
        links.get(machine.id)?.close(1000, 'replaced by a newer link');
        links.set(machine.id, ws);
        const memberNonce = frame.type === 'fleet.join' || frame.type === 'fleet.auth' ? frame.nonce : '';
        send({ type: 'fleet.welcome', machine: machine.id, name: machine.name, sig: signWith(key, homeProof(memberNonce, nonce, machine.id)) });
        return;
      }
      if (frame.type !== 'fleet.bus') return refuse(new CommandrError('E_BAD_FRAME', 'this link is already authenticated'));
      services.broadcast(relabel(frame.frame, machine));
    });
    ws.on('close', () => {
      clearTimeout(timer);
      if (machine && links.get(machine.id) === ws) links.delete(machine.id);
    });
    ws.on('error', () => ws.terminate());
    send({ type: 'fleet.hello', nonce, home: { key: key.publicKey, version } });

    function authenticate(frame: MemberFrame): MachineRecord {
      if (frame.type === 'fleet.join') {
        // The proof first: a code is spent only by a member holding the key it registers.
        if (!verifyWith(frame.key, memberProof(nonce, frame.nonce, key.fingerprint), frame.sig)) throw new CommandrError('E_UNAUTHORIZED', 'the member key proof does not verify');
        const name = redeemJoinSecret(services.dataDir, frame.secret);
        const record: MachineRecord = { id: newMachineId(), name: frame.name || name, key: frame.key, joinedAt: new Date().toISOString() };
        addMachine(services.dataDir, record);
        return record;
      }
      if (frame.type === 'fleet.auth') {
        const known = listMachines(services.dataDir).find((m) => m.id === frame.machine);
        if (!known || !verifyWith(known.key, memberProof(nonce, frame.nonce, key.fingerprint), frame.sig)) {
          throw new CommandrError('E_UNAUTHORIZED', 'unknown or removed machine, or a bad key proof; join again with a new code');
        }
        return known;
      }
      throw new CommandrError('E_UNAUTHORIZED', 'authenticate first (fleet.join or fleet.auth)');
    }
  }

  return {
    upgrade(req, socket, head) {
      wss.handleUpgrade(req, socket, head, accept);
    },
    online: () => [...links.keys()],
    close() {
      clearInterval(sweep);
      for (const ws of links.values()) ws.terminate();
      wss.close();
    },
  };
}

/** The member's frame as the home's devices see it: repo ids made unique per machine, names labelled. */
function relabel(frame: Extract<ServerFrame, { type: 'bus.events' | 'repo.snapshot' | 'repo.tasks' }>, machine: MachineRecord): ServerFrame {
  const tasks = frame.tasks.map((t) => ({ ...t, repo: labelRepo(machine.id, t.repo) }));
  if (frame.type === 'bus.events' || frame.type === 'repo.tasks') return { ...frame, repo: labelRepo(machine.id, frame.repo), tasks };
  return { ...frame, tasks, repo: { ...frame.repo, id: labelRepo(machine.id, frame.repo.id), name: `${machine.name}/${frame.repo.name}` } };
}
