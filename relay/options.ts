// RelayOptions (SERVE-n): what `commandr serve` and tests may set, and the
// defaults filled in once so the rest of the relay reads plain values.
import * as os from 'node:os';
import * as path from 'node:path';

/** The relay's one logger; only the top level (server.ts, cli/relay.ts) calls it. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(error: unknown, context?: string): void;
}

export const silentLogger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

export interface RelayOptions {
  port?: number;
  host?: string;
  /** Relay-private state; default $COMMANDR_HOME or ~/.commandr. */
  dataDir?: string;
  /** Repositories to watch, besides the registry file. */
  repos?: string[];
  /** The user's repo registry; default ~/.agents/repos. */
  registryFile?: string;
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** The origin phones use when it is not the bound address (a tunnel, a LAN name). */
  publicOrigin?: string;
  /** Directories under which commanders may reference paths. */
  allowRoots?: string[];
  /** The built app (Next.js static export); default <package root>/out. */
  appDir?: string;
  /** Serve the demo workspace; default: when no repos are given. */
  demo?: boolean;
  logger?: Logger;
  /** How long a new socket may take to authenticate (default 10 s). */
  authTimeoutMs?: number;
  /** Ping interval; a socket that misses a pong is terminated (default 30 s). */
  heartbeatMs?: number;
  /** Jobs and commander turns run in the OS sandbox (SANDBOX-n); false only on purpose (`--no-sandbox`). */
  sandbox?: boolean;
  /** Secret files outside the data dir (a TLS key given by path) that the sandbox also hides. */
  sandboxHidden?: string[];
}

export interface ResolvedOptions {
  port: number;
  host: string;
  dataDir: string;
  repos: string[];
  registryFile: string;
  tls: { cert: string | Buffer; key: string | Buffer } | null;
  publicOrigin: string | null;
  allowRoots: string[];
  appDir: string;
  demo: boolean;
  logger: Logger;
  authTimeoutMs: number;
  heartbeatMs: number;
  sandbox: boolean;
  sandboxHidden: string[];
}

export const DEFAULT_PORT = 8787;
export const DEFAULT_HOST = '127.0.0.1';

/** The package root: both relay/ (sources) and dist/ (the bundle) sit one level below it. */
export const PACKAGE_ROOT = path.resolve(__dirname, '..');

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.COMMANDR_HOME ? path.resolve(env.COMMANDR_HOME) : path.join(os.homedir(), '.commandr');
}

export function resolveOptions(opts: RelayOptions): ResolvedOptions {
  const port = opts.port ?? DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new TypeError(`port must be an integer 0–65535, got ${opts.port}`);
  const publicOrigin = opts.publicOrigin ? normalizeOrigin(opts.publicOrigin) : null;
  const repos = (opts.repos ?? []).map((r) => path.resolve(r));
  return {
    port,
    host: opts.host ?? DEFAULT_HOST,
    dataDir: path.resolve(opts.dataDir ?? defaultDataDir()),
    repos,
    registryFile: opts.registryFile ?? path.join(os.homedir(), '.agents', 'repos'),
    tls: opts.tls ?? null,
    publicOrigin,
    allowRoots: (opts.allowRoots ?? []).map((r) => path.resolve(r)),
    appDir: path.resolve(opts.appDir ?? path.join(PACKAGE_ROOT, 'out')),
    demo: opts.demo ?? repos.length === 0,
    logger: opts.logger ?? silentLogger,
    authTimeoutMs: opts.authTimeoutMs ?? 10_000,
    heartbeatMs: opts.heartbeatMs ?? 30_000,
    sandbox: opts.sandbox ?? true,
    sandboxHidden: (opts.sandboxHidden ?? []).map((p) => path.resolve(p)),
  };
}

/** `https://host:port` from any URL, or a TypeError naming the bad value. */
export function normalizeOrigin(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`public origin must be a URL like https://relay.example:8787, got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`public origin must be http(s), got ${url.protocol}`);
  return url.origin;
}
