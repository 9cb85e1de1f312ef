// createRelay(): the relay's wiring (SERVE-n) — http(s) server, the `ws`
// server (noServer; Origin checked at upgrade), routes, static app, device
// store and feature services. Behaviour lives in the modules it wires.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as http2 from 'node:http2';
import type * as net from 'node:net';
import * as path from 'node:path';
import { WebSocketServer } from 'ws';
import { MAX_FRAME_BYTES } from '../protocol/wire/frames';
import { WS_PATH } from '../protocol/wire/http';
import { version } from '../package.json';
import { ConnectionSet } from './clients/connections';
import { DedupeStore } from './clients/dedupe';
import { createDispatcher } from './clients/dispatch';
import { acceptSocket, PreAuth } from './clients/socket';
import type { RelayServices, Service } from './context';
import { claimDataDir, writePrivateFile } from './devices/files';
import { SWEEP_SKIP, sweepStaleTemps } from '../bus/fs-atomic';
import { FailureLimiter } from './devices/rate-limit';
import { DeviceStore } from './devices/store';
import { createRequestHandler } from './http/handler';
import { SOCKET_DEFLATE } from './http/socket-deflate';
import type { OriginPolicy } from './http/origin';
import { originAllowed } from './http/origin';
import { ensureAdminToken, ensureHookToken } from './live/hook-token';
import { LiveStore } from './live/store';
import { CheckResults } from './live/checks';
import { Transcribers } from './transcribe/run';
import { startWatch } from './watch';
import { startCommanders } from './commanders/index';
import { agentAdapter, startJobs } from './jobs/index';
import { startPush } from './push';
import { startPermissions } from './permissions';
import { QuestionService, startQuestions } from './questions';
import { type RelayOptions, type ResolvedOptions, resolveOptions } from './options';
import { FLEET_PATH } from '../protocol/wire/fleet';
import { startFleet } from './fleet';
import { MCP_PIPE_PATH, type McpHost, startMcpHost } from './mcp/pipe';
import { processStarted, readRelayInfo, relayAlive } from '../protocol/relay-info';
import { flushScopedTokens, scopedTokensOf } from './live/scoped-tokens';

export const RELAY_VERSION = version;

export interface Relay {
  /** http(s)://host:port the relay listens on. */
  url: string;
  port: number;
  /** The origin phones use: --public-origin, else `url`. */
  origin: string;
  dataDir: string;
  services: RelayServices;
  options: ResolvedOptions;
  /** The MCP server sessions `commandr mcp` pipes to (MCP-ONE-1). */
  mcp: McpHost;
  close(): Promise<void>;
}

/** Where a running relay says where it is, so `commandr pair` can print its URL. */
export function relayInfoFile(dataDir: string): string {
  return path.join(dataDir, 'relay.json');
}

export async function createRelay(opts: RelayOptions = {}): Promise<Relay> {
  const options = resolveOptions(opts);
  claimDataDir(options.dataDir, (message) => options.logger.warn(message));
  sweepStaleTemps(options.dataDir, { recursive: true, skip: SWEEP_SKIP }); // LIMIT-4: temps of writers killed mid-write
  removeStaleInfoFile(options.dataDir); // HOOKCRED-3: a killed relay's file names a port anyone may hold now
  const hookToken = ensureHookToken(options.dataDir);
  const adminToken = ensureAdminToken(options.dataDir);
  const devices = new DeviceStore(options.dataDir);
  const connections = new ConnectionSet();
  const services: RelayServices = {
    dataDir: options.dataDir,
    options,
    devices,
    live: new LiveStore(),
    log: options.logger,
    broadcast: (frame, filter, sendOptions) => connections.broadcast(frame, filter, sendOptions),
    sendToDevice: (id, frame, sendOptions) => connections.sendToDevice(id, frame, sendOptions),
    clients: () => connections.authed(),
  };
  // Feature services: one line each, constructed by their owners.
  services.hub = await startWatch(services);
  services.commanders = startCommanders(services, { adapter: (name) => agentAdapter(options.dataDir, name) });
  services.jobs = startJobs(services, { adapter: (name) => agentAdapter(options.dataDir, name) });
  services.permissions = startPermissions(services);
  services.questions = startQuestions(services);
  services.checks = new CheckResults({ ...process.env, COMMANDR_HOME: options.dataDir });
  scopedTokensOf(services); // JOBTOKEN-5: the person's sessions kept from before, read (or said unreadable) at start
  services.transcribers = new Transcribers();
  services.push = startPush(services); // keep last: it listens to the services above
  const fleet = startFleet(services, version);
  let url = '';
  const mcp = startMcpHost({ hookToken, dataDir: options.dataDir, url: () => url, log: options.logger });

  const dedupe = new DedupeStore(path.join(options.dataDir, 'dedupe'));
  const dispatcher = createDispatcher(services, dedupe);
  const policy: OriginPolicy = { boundOrigin: '', publicOrigin: options.publicOrigin, secure: options.tls !== null };
  const handler = createRequestHandler(
    { services, dispatcher, pairingLimiter: new FailureLimiter(10, 30), hookToken, adminToken, version },
    policy,
    () => options.appDir,
  );
  const server = options.tls ? secureServer(options.tls, handler) : http.createServer(handler);
  // Every TLS connection (HTTP/2 sessions and HTTP/1.1 sockets alike), so shutdown can end them.
  const tlsSockets = new Set<net.Socket>();
  if (!(server instanceof http.Server)) {
    server.on('secureConnection', (socket: net.Socket) => {
      tlsSockets.add(socket);
      socket.once('close', () => tlsSockets.delete(socket));
    });
  }
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4 * MAX_FRAME_BYTES, perMessageDeflate: SOCKET_DEFLATE });
  const preAuth = new PreAuth();
  server.on('upgrade', (req, socket, head) => upgrade(req, socket as net.Socket, head));

  function upgrade(req: http.IncomingMessage, socket: net.Socket, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const { pathname } = new URL(req.url ?? '/', 'http://relay');
    // Member relays link at FLEET_PATH; they are not browsers, so any Origin is refused (FLEET-1).
    if (pathname === FLEET_PATH) return req.headers.origin ? refuse(socket, 403, 'E_FORBIDDEN_ORIGIN', 'the fleet link is not for browsers') : fleet.upgrade(req, socket, head);
    if (pathname === MCP_PIPE_PATH) return mcp.upgrade(req, socket, head); // MCP-ONE-1
    if (pathname !== WS_PATH) return refuse(socket, 404, 'E_NOT_FOUND', `the socket is at ${WS_PATH}`);
    if (!originAllowed(policy, req)) return refuse(socket, 403, 'E_FORBIDDEN_ORIGIN', "the socket only accepts the relay's own origin");
    if (preAuth.full) return refuse(socket, 429, 'E_RATE_LIMITED', 'too many sockets are waiting to authenticate; try again shortly'); // AUTH-7
    wss.handleUpgrade(req, socket, head, (ws) => acceptSocket({ services, connections, dispatcher, version }, ws, req, preAuth.watch(socket)));
  }

  devices.on('revoked', (id) => {
    // Next macrotask: a device revoking itself still gets its ack first; any
    // frame it sends meanwhile is refused by dispatch (the device is gone).
    setImmediate(() => connections.closeDevice(id, 'device revoked'));
    dedupe.forget(id);
    try {
      void Promise.resolve(services.push?.forgetDevice?.(id)).catch((error: unknown) => services.log.error(error, 'forgetting push subscriptions'));
    } catch (error) {
      services.log.error(error, 'forgetting push subscriptions');
    }
  });
  devices.watch();
  connections.startHeartbeat(options.heartbeatMs);

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    // Could not listen (busy port, no such address): stop what was started so the process can exit.
    devices.close();
    connections.closeAll(1001, 'relay not started');
    await closeServices(services);
    wss.close();
    throw error;
  }
  if (services.questions instanceof QuestionService) services.questions.listening(); // askers from before a restart may ask again now (ASK-7)
  const port = (server.address() as net.AddressInfo).port;
  url = `${options.tls ? 'https' : 'http'}://${urlHost(options.host)}:${port}`;
  policy.boundOrigin = new URL(url).origin;
  const origin = options.publicOrigin ?? policy.boundOrigin;
  // Atomic, with this process's start time, so a hook can tell this relay from a later squatter (HOOKCRED-1).
  writePrivateFile(relayInfoFile(options.dataDir), `${JSON.stringify({ url, origin, pid: process.pid, started: processStarted('self'), version })}\n`);

  let closing: Promise<void> | undefined;
  const close = () => (closing ??= shutdown());
  async function shutdown(): Promise<void> {
    devices.close();
    fleet.close();
    await mcp.close();
    connections.closeAll(1001, 'relay stopping');
    for (const client of wss.clients) client.terminate();
    await closeServices(services);
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      if (server instanceof http.Server) server.closeAllConnections();
      else for (const socket of tlsSockets) socket.destroy();
    });
    wss.close();
    removeInfoFile(options.dataDir);
  }
  return { url, port, origin, dataDir: options.dataDir, services, options, mcp, close };
}

function refuse(socket: net.Socket, status: number, code: string, message: string): void {
  const body = JSON.stringify({ type: 'error', error: { code, message } });
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

async function closeServices(services: RelayServices): Promise<void> {
  try {
    flushScopedTokens(services); // JOBTOKEN-5: the person's sessions, for the next start
  } catch (error) {
    services.log.error(error, 'saving the person\'s sessions');
  }
  const features: (Service | undefined)[] = [services.permissions, services.questions, services.push, services.jobs, services.commanders, services.hub, services.transcribers];
  for (const feature of features) {
    try {
      await feature?.close?.();
    } catch (error) {
      services.log.error(error, 'closing a relay service');
    }
  }
}

function removeStaleInfoFile(dataDir: string): void {
  const info = readRelayInfo(relayInfoFile(dataDir));
  if (info === undefined || !relayAlive(info)) fs.rmSync(relayInfoFile(dataDir), { force: true });
}

function removeInfoFile(dataDir: string): void {
  try {
    const info = JSON.parse(fs.readFileSync(relayInfoFile(dataDir), 'utf8')) as { pid?: number };
    if (info.pid === process.pid) fs.rmSync(relayInfoFile(dataDir), { force: true });
  } catch {
    /* already gone */
  }
}

/**
 * SERVE-1: the relay's own TLS speaks HTTP/2 to browsers (ALPN `h2`) and HTTP/1.1 to
 * everything else (`allowHTTP1`): a phone's cold load takes the page and its scripts over
 * one connection instead of opening up to six, each with its own TCP and TLS handshake.
 * WebSockets (the app's socket, fleet links) and the hooks' and tools' requests stay on
 * HTTP/1.1, where `upgrade` is emitted as before. The handler is the HTTP/1.1 one: Node's
 * compatibility request and response offer every member it uses (headers, url, method,
 * socket, a readable body; setHeader, writeHead, end, a writable body); the one
 * difference it sees, a Host header carried as `:authority`, is read in origin.ts.
 */
function secureServer(tls: { cert: Buffer | string; key: Buffer | string }, handler: http.RequestListener): http2.Http2SecureServer {
  const server = http2.createSecureServer({ cert: tls.cert, key: tls.key, allowHTTP1: true });
  server.on('request', handler as unknown as (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void);
  return server;
}
