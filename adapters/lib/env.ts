// Where an adapter finds the relay and its own state: $COMMANDR_HOME (default
// ~/.commandr), the relay URL and the hook credential. Read fresh on every call.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

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

/** The URL a running relay recorded in `$COMMANDR_HOME/relay.json` (`{url,…}`). */
function recordedRelayUrl(home: string): string | undefined {
  try {
    const info = JSON.parse(fs.readFileSync(path.join(home, 'relay.json'), 'utf8')) as { url?: unknown };
    return typeof info.url === 'string' && info.url.length > 0 ? info.url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `COMMANDR_URL`, else the URL the running relay recorded in its data dir; undefined when neither
 * (no relay is running). Never a guessed default: whatever else listens on the usual port, another
 * user's process perhaps, would be handed the hook credential (LIVE-EMIT-1).
 */
export function relayUrl(env: Env = process.env): string | undefined {
  return env.COMMANDR_URL?.trim() || recordedRelayUrl(commandrHome(env));
}

/** The relay's local hook credential, or undefined when the relay never ran here. */
export function hookToken(env: Env = process.env): string | undefined {
  return readTrimmed(path.join(commandrHome(env), 'hook-token'));
}

/**
 * The root of this commandr install (holding `bin/` and `adapters/`), found by walking
 * up from the running module: bundles live in `dist/adapters/<name>/`, sources in `adapters/…`.
 */
export function installRoot(from: string = __dirname): string {
  let dir = from;
  for (;;) {
    if (fs.existsSync(path.join(dir, 'bin', 'load.cjs')) && fs.existsSync(path.join(dir, 'adapters'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve(from, '..', '..', '..');
    dir = parent;
  }
}
