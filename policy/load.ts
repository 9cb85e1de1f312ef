// Reads the policy layers (POLICY-1): the shipped default, the user's
// `$COMMANDR_HOME/policy.yaml`, the project's `<repo>/.commandr/policy.yaml`.
// Lists add up layer by layer; the most specific `timeout` wins; `AGENT_COMMANDS` adds allowed prefixes.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { DEFAULT_TIMEOUT_MS, type Policy, PolicyFile, type Rules } from './policy';

export class PolicyError extends Error {
  readonly code = 'E_POLICY';
}

export const PROJECT_POLICY = path.join('.commandr', 'policy.yaml');
export const USER_POLICY = 'policy.yaml';

export interface PolicyPlaces {
  /** The shipped default file (policy/default-policy.yaml of the install). */
  defaultFile: string;
  /** $COMMANDR_HOME. */
  home?: string;
  /** The project's repo root. */
  repo?: string;
  /** `AGENT_COMMANDS`: comma-separated plain prefixes. */
  agentCommands?: string;
  /** `COMMANDR_PERMISSION_TIMEOUT_MS`: overrides every file. */
  timeoutMs?: string;
}

/** Parses one file; undefined when it does not exist, PolicyError when it is wrong. */
export function readPolicyFile(file: string): PolicyFile | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new PolicyError(`cannot read ${file}: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = parse(text) ?? {};
  } catch (error) {
    throw new PolicyError(`${file} is not valid YAML: ${(error as Error).message}`);
  }
  const parsed = PolicyFile.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new PolicyError(`${file}: ${issue?.path.join('.') || '(top level)'}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

const emptyRules = (): Rules => ({ tools: [], commands: [], paths: [], readPaths: [] });

function addRules(into: Rules, from: { tools?: string[]; commands?: string[]; paths?: string[]; read_paths?: string[] } | undefined): void {
  into.tools.push(...(from?.tools ?? []));
  into.commands.push(...(from?.commands ?? []));
  into.paths.push(...(from?.paths ?? []));
  into.readPaths.push(...(from?.read_paths ?? []));
}

/** Layers the files that exist into one policy. */
export function loadPolicy(places: PolicyPlaces): Policy {
  const policy: Policy = {
    timeoutMs: DEFAULT_TIMEOUT_MS, allow: emptyRules(), ask: emptyRules(), deny: emptyRules(), editTools: [], shellTools: [], sources: [],
  };
  const files = [places.defaultFile, places.home && path.join(places.home, USER_POLICY), places.repo && path.join(places.repo, PROJECT_POLICY)];
  for (const file of files) {
    if (!file) continue;
    const layer = readPolicyFile(file);
    if (!layer) {
      if (file === places.defaultFile) throw new PolicyError(`the default policy ${file} is missing`);
      continue;
    }
    policy.sources.push(file);
    if (layer.timeout !== undefined) policy.timeoutMs = layer.timeout * 1000;
    addRules(policy.allow, layer.allow);
    addRules(policy.ask, layer.ask);
    addRules(policy.deny, layer.deny);
    policy.editTools.push(...(layer.edit_tools ?? []));
    policy.shellTools.push(...(layer.shell_tools ?? []));
  }
  const extra = (places.agentCommands ?? '').split(',').map((c) => c.trim()).filter(Boolean);
  policy.allow.commands.push(...extra);
  const override = Number(places.timeoutMs);
  if (places.timeoutMs && Number.isInteger(override) && override >= 1000) policy.timeoutMs = Math.min(override, 3_600_000);
  return policy;
}
