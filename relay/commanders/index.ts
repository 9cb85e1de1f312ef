// The commanders service as server.ts builds it (one line there): allowed roots
// from --allow-root (default: the watched repos), the selected agent adapter, and
// frames to every client — output chunks as ephemeral, state as durable.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CommandrError } from '../../protocol/wire/errors';
import type { RelayServices } from '../context';
import { RepoHub } from '../watch/hub';
import { Commanders, type AgentAdapter } from './service';
import { sandboxPolicy } from '../jobs';
import { scopedTokensOf } from '../live/scoped-tokens';

export { Commanders } from './service';

export interface CommandersWiring {
  /** The adapter to launch (the one named, else the selected one); resolved per turn. */
  adapter: (name?: string) => AgentAdapter;
  /** Extra agent environment (tests point the CLI at a model stand-in). */
  env?: Record<string, string>;
}

export function startCommanders(services: RelayServices, wiring: CommandersWiring): Commanders {
  return new Commanders({
    dataDir: services.dataDir,
    allowedRoots: () => allowedRoots(services),
    adapter: wiring.adapter,
    env: wiring.env,
    broadcast: (frame, ephemeral) => services.broadcast(frame, undefined, ephemeral ? { ephemeral: true } : undefined),
    relayUrl: () => relayUrl(services.dataDir),
    sandbox: sandboxPolicy(services),
    tokens: scopedTokensOf(services),
  });
}

/** --allow-root when given, else the paths of the repos the relay watches. */
export function allowedRoots(services: RelayServices): string[] {
  if (services.options.allowRoots.length > 0) return services.options.allowRoots;
  return services.hub instanceof RepoHub ? services.hub.repos().map((r) => r.path) : [];
}

export function commandersOf(services: RelayServices): Commanders {
  const commanders = services.commanders;
  if (!(commanders instanceof Commanders)) throw new CommandrError('E_UNAVAILABLE', 'commanders are not available on this relay');
  return commanders;
}

function relayUrl(dataDir: string): string | undefined {
  try {
    const info = JSON.parse(fs.readFileSync(path.join(dataDir, 'relay.json'), 'utf8')) as { url?: unknown };
    return typeof info.url === 'string' ? info.url : undefined;
  } catch {
    return undefined;
  }
}
