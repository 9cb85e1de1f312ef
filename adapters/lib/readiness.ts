// Whether an agent CLI can run here (READY-1, RUNREADY-n): installed, able to authenticate, and
// for the council its Anthropic key. One module read by `commandr doctor` and by the relay before
// it starts a job, a commander or a council, so the two can never disagree about a machine.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type Env, isExecutableFile } from './env';
import { findBinary } from './run-job';
import { readPlainText } from '../../bus/plain-file';

export type NotReadyReason = 'cli-missing' | 'not-logged-in' | 'no-provider' | 'no-council-key';

export type Readiness = { ok: true } | { ok: false; reason: NotReadyReason; sentence: string };

/** The agents whose CLI this module knows; another (a person's own adapter) is not checked. */
export const KNOWN_AGENTS = { claude: 'Claude Code', opencode: 'OpenCode' } as const;
export type KnownAgent = keyof typeof KNOWN_AGENTS;
export const isKnownAgent = (name: string): name is KnownAgent => Object.hasOwn(KNOWN_AGENTS, name);

const INSTALL: Record<KnownAgent, string> = { claude: 'npm install -g @anthropic-ai/claude-code', opencode: 'npm install -g opencode-ai' };
const OVERRIDE: Record<KnownAgent, string> = { claude: 'COMMANDR_CLAUDE_BIN', opencode: 'COMMANDR_OPENCODE_BIN' };

/** The name people know this machine by, in a sentence. */
export const machineName = (): string => os.hostname() || 'this machine';

/** The vendor binary a job would run: exactly what the adapter's `run` resolves (override, PATH, this install's). */
export function agentBinary(agent: KnownAgent, env: Env): string {
  return findBinary(agent, env[OVERRIDE[agent]], env);
}

/** READY-1: Claude Code can authenticate: an API key, or a login saved under $HOME. */
export function claudeLoggedIn(env: Env): boolean {
  if (env.ANTHROPIC_API_KEY?.trim() || env.ANTHROPIC_AUTH_TOKEN?.trim() || env.CLAUDE_CODE_OAUTH_TOKEN?.trim()) return true;
  const home = env.HOME?.trim() || os.homedir();
  if (fs.existsSync(path.join(home, '.claude', '.credentials.json'))) return true;
  try {
    const config = JSON.parse(readPlainText(path.join(home, '.claude.json'), 16 * CONFIG_MAX_BYTES) ?? '') as { oauthAccount?: unknown };
    return typeof config.oauthAccount === 'object' && config.oauthAccount !== null;
  } catch {
    return false;
  }
}

/** READY-1's words for `commandr doctor` (kept exactly as the spec says them). */
export const NOT_LOGGED_IN = 'Claude Code is not logged in on this machine: run `claude` and `/login` (or set ANTHROPIC_API_KEY)';

/** RUNREADY-2: the one sentence saying what to do instead, naming the machine. */
export const notLoggedInSentence = (machine: string): string =>
  `Claude Code is not logged in on ${machine}. Run \`claude\` then /login there, or set ANTHROPIC_API_KEY for the relay.`;
export const notInstalledSentence = (agent: KnownAgent, machine: string): string =>
  `${KNOWN_AGENTS[agent]} is not installed on ${machine}. Install it there (\`${INSTALL[agent]}\`) and try again.`;
export const councilKeySentence = (machine: string): string =>
  `The council needs an Anthropic API key on ${machine}. Set ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL for a proxy) where the relay runs, or COUNCIL_EVALUATOR_CMD.`;

/**
 * The environment variables OpenCode takes a provider's key from (its providers come from
 * models.dev, each naming its key's variable); one of them set is a provider it can use.
 */
export const OPENCODE_KEY_VARS = [
  'ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY', 'OPENROUTER_API_KEY', 'GROQ_API_KEY',
  'XAI_API_KEY', 'DEEPSEEK_API_KEY', 'MISTRAL_API_KEY', 'TOGETHER_AI_API_KEY', 'FIREWORKS_API_KEY', 'CEREBRAS_API_KEY', 'AZURE_API_KEY',
] as const;

/** RUNREADY-6: what to do when OpenCode has no model provider, naming the machine. */
export const noProviderSentence = (machine: string): string =>
  `OpenCode has no model provider on ${machine}. Run \`opencode auth login\` there, or set a provider's API key (e.g. ANTHROPIC_API_KEY) for the relay.`;

/** A config object (opencode.json, OPENCODE_CONFIG_CONTENT) that configures at least one provider. */
function configuresProvider(text: string): boolean {
  let config: unknown;
  try {
    config = JSON.parse(text.replace(/^\s*\/\/.*$/gm, '')); // opencode.jsonc: whole-line comments
  } catch {
    return false;
  }
  const provider = (config as { provider?: unknown } | null)?.provider;
  return typeof provider === 'object' && provider !== null && Object.keys(provider).length > 0;
}

/**
 * SANDBOX-18: these files lie where a sandboxed agent writes (the project, `~/.local/share/opencode`)
 * and the relay reads them before each OpenCode job: only a plain file is read, never a FIFO whose
 * open would wait for a writer, the relay with it.
 */
function fileConfiguresProvider(file: string): boolean {
  const text = readPlainText(file, CONFIG_MAX_BYTES);
  return text !== undefined && configuresProvider(text);
}

const CONFIG_MAX_BYTES = 1024 * 1024;

/**
 * RUNREADY-6: OpenCode has a model provider it can use: a provider's API key in the environment
 * (OPENCODE_KEY_VARS), a login saved by `opencode auth login` (`~/.local/share/opencode/auth.json`),
 * or a provider configured in OPENCODE_CONFIG_CONTENT, the OPENCODE_CONFIG file, the global
 * `~/.config/opencode/opencode.json(c)`, or the project's `opencode.json(c)` in `cwd` or a folder above it.
 * Cheap: files are read, no process is started.
 */
export function opencodeHasProvider(env: Env, cwd?: string): boolean {
  if (OPENCODE_KEY_VARS.some((k) => env[k]?.trim())) return true;
  if (env.OPENCODE_CONFIG_CONTENT && configuresProvider(env.OPENCODE_CONFIG_CONTENT)) return true;
  if (env.OPENCODE_CONFIG?.trim() && fileConfiguresProvider(env.OPENCODE_CONFIG.trim())) return true;
  const home = env.HOME?.trim() || os.homedir();
  const data = env.XDG_DATA_HOME?.trim() || path.join(home, '.local', 'share');
  try {
    const auth = JSON.parse(readPlainText(path.join(data, 'opencode', 'auth.json'), CONFIG_MAX_BYTES) ?? '') as unknown;
    if (typeof auth === 'object' && auth !== null && Object.keys(auth).length > 0) return true;
  } catch {
    // no saved login
  }
  const config = env.XDG_CONFIG_HOME?.trim() || path.join(home, '.config');
  if (['opencode.json', 'opencode.jsonc', 'config.json'].some((f) => fileConfiguresProvider(path.join(config, 'opencode', f)))) return true;
  for (let dir = cwd ? path.resolve(cwd) : undefined; dir; dir = path.dirname(dir) === dir ? undefined : path.dirname(dir)) {
    if (['opencode.json', 'opencode.jsonc', path.join('.opencode', 'opencode.json'), path.join('.opencode', 'opencode.jsonc')].some((f) => fileConfiguresProvider(path.join(dir!, f)))) return true;
  }
  return false;
}

/** Whether the vendor CLI of `agent` is installed here. */
export function agentInstalled(agent: KnownAgent, env: Env): boolean {
  return isExecutableFile(agentBinary(agent, env));
}

/**
 * RUNREADY-1: the checks `commandr doctor` makes for an agent, as one answer: the CLI installed
 * and, for Claude Code, logged in or given a key; for OpenCode, a model provider it can use
 * (RUNREADY-6; `cwd` is the project whose opencode.json counts too). Cheap: no process is started.
 */
export function agentReadiness(agent: KnownAgent, env: Env, machine: string = machineName(), cwd?: string): Readiness {
  if (!agentInstalled(agent, env)) return { ok: false, reason: 'cli-missing', sentence: notInstalledSentence(agent, machine) };
  if (agent === 'claude' && !claudeLoggedIn(env)) return { ok: false, reason: 'not-logged-in', sentence: notLoggedInSentence(machine) };
  if (agent === 'opencode' && !opencodeHasProvider(env, cwd)) return { ok: false, reason: 'no-provider', sentence: noProviderSentence(machine) };
  return { ok: true };
}

/** RUNREADY-4: the council calls the Anthropic API itself (or the evaluator command named for it). */
export function councilReadiness(env: Env, machine: string = machineName()): Readiness {
  if (env.COUNCIL_EVALUATOR_CMD?.trim() || env.ANTHROPIC_API_KEY?.trim()) return { ok: true };
  return { ok: false, reason: 'no-council-key', sentence: councilKeySentence(machine) };
}
