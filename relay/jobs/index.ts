// The jobs service as server.ts builds it (one line there), and its lookup for handlers.
import * as path from 'node:path';
import { readRelayInfo } from '../../protocol/relay-info';
import { CommandrError } from '../../protocol/wire/errors';
import { AdapterError, resolveAdapter } from '../../adapters/lib/resolve';
import type { RelayServices } from '../context';
import { Jobs, type JobAdapter } from './service';
import { scopedTokensOf } from '../live/scoped-tokens';
import { sandboxStartLine, type SandboxPolicy } from './sandbox-policy';

export { Jobs } from './service';

export function startJobs(services: RelayServices, wiring: { adapter: (name?: string) => JobAdapter; env?: Record<string, string>; relayUrl?: () => string | undefined }): Jobs {
  return new Jobs({
    dataDir: services.dataDir,
    adapter: wiring.adapter,
    env: wiring.env,
    // The job's hooks find this relay by COMMANDR_URL: inside the sandbox the data dir, and its
    // relay.json, is hidden (SANDBOX-9, HOOKCRED-4).
    relayUrl: wiring.relayUrl ?? (() => ownRelayUrl(services.dataDir)),
    broadcast: (frame, ephemeral) => services.broadcast(frame, undefined, ephemeral ? { ephemeral: true } : undefined),
    onError: (error) => services.log.error(error, 'writing task_failed'),
    sandbox: sandboxPolicy(services),
    tokens: scopedTokensOf(services),
  });
}

/** The URL this relay process recorded in its relay.json once it listened; undefined before (or another process's file). */
export function ownRelayUrl(dataDir: string): string | undefined {
  const info = readRelayInfo(path.join(dataDir, 'relay.json'));
  return info?.pid === process.pid ? info.url : undefined;
}

/** The relay's sandbox policy from its options; the start-up line about it is logged once here (SANDBOX-6). */
export function sandboxPolicy(services: RelayServices): SandboxPolicy {
  const policy: SandboxPolicy = { enabled: services.options.sandbox !== false, hidden: services.options.sandboxHidden ?? [] };
  if (!logged.has(services)) {
    logged.add(services);
    const line = sandboxStartLine(policy);
    if (line) services.log.warn(line.text);
  }
  return policy;
}
const logged = new WeakSet<RelayServices>();

export function jobsOf(services: RelayServices): Jobs {
  const jobs = services.jobs;
  if (!(jobs instanceof Jobs)) throw new CommandrError('E_UNAVAILABLE', 'task jobs are not available on this relay');
  return jobs;
}

/** The agent adapter `name` chose (UX-4), else the selected one (COMMANDR_AGENT_ADAPTER; a
 *  same-named directory under <dataDir>/adapters/ overrides the shipped one), resolved fresh at each launch. */
export function agentAdapter(dataDir: string, name?: string): JobAdapter {
  try {
    const { name: resolved, run, source } = resolveAdapter(name, { ...process.env, COMMANDR_HOME: dataDir });
    return { name: resolved, run, source };
  } catch (error) {
    if (error instanceof AdapterError) throw new CommandrError('E_UNAVAILABLE', error.message);
    throw error;
  }
}
