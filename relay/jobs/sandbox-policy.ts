// Whether agents the relay starts run in the OS sandbox (SANDBOX-n), decided once from the
// relay's options: on by default; off only when the person said so (`--no-sandbox`). When
// it is on but this machine cannot sandbox, a run is refused with the reason and the fix.
import { CommandrError } from '../../protocol/wire/errors';
import { sandboxSupport, type SandboxSupport } from '../../adapters/sandbox/detect';

export interface SandboxPolicy {
  /** False only when the relay was started with `--no-sandbox` / `sandbox: false`. */
  enabled: boolean;
  /** Paths hidden besides the data dir (e.g. a TLS key file given on the command line). */
  hidden?: string[];
  /** Tests pass an answer; otherwise the machine is probed. */
  support?: SandboxSupport;
}

/** What to sandbox with, or null when sandboxing is off; throws when it is on and impossible. */
export function checkSandbox(policy: SandboxPolicy | undefined): { hidden: string[] } | null {
  if (policy && !policy.enabled) return null;
  const support = policy?.support ?? sandboxSupport();
  if (!support.ok) {
    throw new CommandrError('E_UNAVAILABLE', `agents run only in a sandbox and this machine has none: ${support.reason}. Fix: ${support.fix}; or start the relay with --no-sandbox (then run it as its own OS user)`);
  }
  return { hidden: policy?.hidden ?? [] };
}

/** The relay's one start-up line about the sandbox: null when all is well. */
export function sandboxStartLine(policy: SandboxPolicy): { level: 'warn'; text: string } | null {
  if (!policy.enabled) {
    return { level: 'warn', text: 'sandbox OFF (--no-sandbox): agents run as this user and can read the relay\'s data dir (approval key, credentials) and rewrite .git/hooks and .agents/approvals; run the relay as its own OS user' };
  }
  const support = policy.support ?? sandboxSupport();
  if (support.ok) return null;
  return { level: 'warn', text: `no sandbox on this machine: ${support.reason}. Fix: ${support.fix}. Until then jobs and commander turns are refused; --no-sandbox runs them unsandboxed (then run the relay as its own OS user)` };
}
