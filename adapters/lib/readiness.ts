// Whether an agent CLI can run here (READY-1, RUNREADY-n): installed, able to authenticate, and
// for the council its Anthropic key. One module read by `commandr doctor` and by the relay before
// it starts a job, a commander or a council, so the two can never disagree about a machine.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findBinary } from './run-job';

type Env = Record<string, string | undefined>;

export type NotReadyReason = 'cli-missing' | 'not-logged-in' | 'no-council-key';

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

function isExecutableFile(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** READY-1: Claude Code can authenticate: an API key, or a login saved under $HOME. */
export function claudeLoggedIn(env: Env): boolean {
  if (env.ANTHROPIC_API_KEY?.trim() || env.ANTHROPIC_AUTH_TOKEN?.trim() || env.CLAUDE_CODE_OAUTH_TOKEN?.trim()) return true;
  const home = env.HOME?.trim() || os.homedir();
  if (fs.existsSync(path.join(home, '.claude', '.credentials.json'))) return true;
  try {
    const config = JSON.parse(fs.readFileSync(path.join(home, '.claude.json'), 'utf8')) as { oauthAccount?: unknown };
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

/** Whether the vendor CLI of `agent` is installed here. */
export function agentInstalled(agent: KnownAgent, env: Env): boolean {
  return isExecutableFile(agentBinary(agent, env));
}

/**
 * RUNREADY-1: the checks `commandr doctor` makes for an agent, as one answer: the CLI installed
 * and, for Claude Code, logged in or given a key. OpenCode's providers are its own config: only
 * its presence is checked (as doctor does). Cheap: no process is started.
 */
export function agentReadiness(agent: KnownAgent, env: Env, machine: string = machineName()): Readiness {
  if (!agentInstalled(agent, env)) return { ok: false, reason: 'cli-missing', sentence: notInstalledSentence(agent, machine) };
  if (agent === 'claude' && !claudeLoggedIn(env)) return { ok: false, reason: 'not-logged-in', sentence: notLoggedInSentence(machine) };
  return { ok: true };
}

/** RUNREADY-4: the council calls the Anthropic API itself (or the evaluator command named for it). */
export function councilReadiness(env: Env, machine: string = machineName()): Readiness {
  if (env.COUNCIL_EVALUATOR_CMD?.trim() || env.ANTHROPIC_API_KEY?.trim()) return { ok: true };
  return { ok: false, reason: 'no-council-key', sentence: councilKeySentence(machine) };
}
