// Where an adapter finds the relay and its own state: $COMMANDR_HOME (default
// ~/.commandr), the relay URL and the hook credential. Read fresh on every call.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type RelayInfo, readRelayInfo, relayAlive } from '../../protocol/relay-info';

export type Env = Record<string, string | undefined>;

export function commandrHome(env: Env = process.env): string {
  const home = env.COMMANDR_HOME?.trim();
  return home ? path.resolve(home) : path.join(env.HOME?.trim() || os.homedir(), '.commandr');
}

const readTrimmed = (file: string): string | undefined => {
  try {
    const text = fs.readFileSync(file, 'utf8').trim();
    return text.length > 0 ? text : undefined;
  } catch {
    return undefined;
  }
};

/** The relay.json of this home when the relay that wrote it still runs (HOOKCRED-1), else undefined. */
function liveRelayInfo(home: string): RelayInfo | undefined {
  const info = readRelayInfo(path.join(home, 'relay.json'));
  return info && relayAlive(info) ? info : undefined;
}

const sameOrigin = (a: string, b: string): boolean => {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
};

/** https anywhere, plain http only to this machine's loopback: the credential never crosses a network in clear (HOOKCRED-2). */
export function credentialSafe(url: string): boolean {
  try {
    const u = new URL(url);
    if (u.protocol === 'https:') return true;
    return u.protocol === 'http:' && /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/.test(u.hostname);
  } catch {
    return false;
  }
}

/**
 * Where the hook credential may go, or undefined: then no relay is running as far as a hook can
 * tell, and nothing is sent. `COMMANDR_URL` when set (the relay sets it for the jobs it starts; a
 * person may set it) and safe for the credential, unless this home's relay.json names the same
 * origin for a relay that is gone; else the URL of the live relay that wrote relay.json. Never a
 * guessed default, never a relay.json whose writer is dead: whatever listens on that port now, a
 * squatter perhaps, would be handed the credential (LIVE-EMIT-1, HOOKCRED-1, HOOKCRED-2).
 */
export function relayUrl(env: Env = process.env): string | undefined {
  const home = commandrHome(env);
  const explicit = env.COMMANDR_URL?.trim();
  if (!explicit) return liveRelayInfo(home)?.url;
  const recorded = readRelayInfo(path.join(home, 'relay.json'));
  if (recorded && sameOrigin(recorded.url, explicit)) return relayAlive(recorded) ? explicit : undefined;
  return credentialSafe(explicit) ? explicit : undefined;
}

/**
 * The hook credential: `COMMANDR_HOOK_TOKEN` (a scoped one the relay hands a job it starts,
 * whose sandbox has no data dir), else the relay's `$COMMANDR_HOME/hook-token` (HOOKCRED-4);
 * undefined when neither.
 */
export function hookToken(env: Env = process.env): string | undefined {
  return env.COMMANDR_HOOK_TOKEN?.trim() || readTrimmed(path.join(commandrHome(env), 'hook-token'));
}

/** Roots found, by where the walk started: the relay asks on every permission check. */
const installRoots = new Map<string, string>();

/**
 * The root of this commandr install (holding `bin/` and `adapters/`), found by walking
 * up from the running module: bundles live in `dist/adapters/<name>/`, sources in `adapters/…`.
 */
export function installRoot(from: string = __dirname): string {
  const known = installRoots.get(from);
  if (known !== undefined) return known;
  let dir = from;
  for (;;) {
    if (fs.existsSync(path.join(dir, 'bin', 'load.cjs')) && fs.existsSync(path.join(dir, 'adapters'))) {
      installRoots.set(from, dir);
      return dir;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve(from, '..', '..', '..');
    dir = parent;
  }
}

/** Whether `file` is a regular file this process may execute. */
export function isExecutableFile(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The executable `name` on PATH, or undefined: the first regular file in an absolute directory. */
export function onPath(name: string, env: Env = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir === '' || !path.isAbsolute(dir)) continue; // a relative PATH entry would run the repo's own file
    const file = path.join(dir, name);
    if (isExecutableFile(file)) return file;
  }
  return undefined;
}
