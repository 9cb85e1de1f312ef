// `commandr doctor` (DOCTOR-n): every check that decides whether commandr can run agents here —
// agent CLIs installed and able to authenticate (READY-1), git, the relay over HTTPS, push keys,
// wired repos, bus files a repo should not track — one line each, with the fix for each one that fails. Exit 1 when a needed one fails.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as os from 'node:os';
import * as path from 'node:path';
import { commandrHome, relayUrl } from '../adapters/lib/env';
import { wiredHookSpecs } from '../adapters/claude/lib/permission-spec';
import { HOOK_MARKER, mergeHooks } from '../adapters/claude/lib/settings-merge';
import { readJsonObject } from '../adapters/lib/wire-report';
import { currentPluginSource, PLUGIN_FILE, PLUGIN_MARKER } from '../adapters/opencode/lib/plugin-source';
import { gitResultSync } from '../bus/git/run';
import { missingApprovalHooks } from '../bus/init';
import { unsharedTrackedBusFiles, untrackTargets } from '../bus/tracked-bus';
import { sandboxSupport, type SandboxSupport } from '../adapters/sandbox/detect';
import { publicKeyFile } from '../bus/approval/keys';
import { missingSandboxSettings } from '../policy/sandbox';
import { sandboxState } from '../policy/sandboxed';
import { runTool } from './_shared/tool';
import { agentBinary, agentInstalled, claudeLoggedIn, NOT_LOGGED_IN, opencodeHasProvider } from '../adapters/lib/readiness';

const USAGE = 'usage: commandr doctor   check agent CLIs, git, the relay, push keys and wired repos; prints a fix for each problem';

export interface Check {
  name: string;
  ok: boolean;
  /** A failed check that is not needed (e.g. OpenCode when Claude Code is used) only warns. */
  needed: boolean;
  detail: string;
  fix?: string;
}

type Env = Record<string, string | undefined>;

function version(command: string, env: Env): string | undefined {
  const r = spawnSync(command, ['--version'], { encoding: 'utf8', timeout: 15_000, env: env as NodeJS.ProcessEnv });
  return r.status === 0 ? r.stdout.trim().split('\n')[0] : undefined;
}

/** `git --version` through the one git runner (GITRUN-1). */
function gitVersion(env: Env): string | undefined {
  try {
    const r = gitResultSync(['--version'], { cwd: process.cwd(), env: env as NodeJS.ProcessEnv, timeoutMs: 15_000 });
    return r.code === 0 ? r.stdout.toString('utf8').trim().split('\n')[0] : undefined;
  } catch {
    return undefined; // not installed
  }
}

// READY-1 and the relay's readiness (RUNREADY-1) are one module: doctor and a job never disagree.
export { claudeLoggedIn, NOT_LOGGED_IN } from '../adapters/lib/readiness';

function agentChecks(env: Env): Check[] {
  const adapter = env.COMMANDR_AGENT_ADAPTER?.trim() || 'claude';
  // The binary a job runs (agentBinary), asked its version only when it is there (agentInstalled).
  const claude = agentInstalled('claude', env) ? version(agentBinary('claude', env), env) : undefined;
  const checks: Check[] = [
    claude
      ? { name: 'Claude Code installed', ok: true, needed: adapter === 'claude', detail: claude }
      : { name: 'Claude Code installed', ok: false, needed: adapter === 'claude', detail: 'Claude Code is not installed on this machine', fix: 'npm install -g @anthropic-ai/claude-code' },
  ];
  if (claude) {
    const ok = claudeLoggedIn(env);
    checks.push({ name: 'Claude Code logged in', ok, needed: adapter === 'claude', detail: ok ? 'an API key or a saved login' : NOT_LOGGED_IN, fix: ok ? undefined : 'run `claude`, then `/login`; or export ANTHROPIC_API_KEY for the relay' });
  }
  const opencode = agentInstalled('opencode', env) ? version(agentBinary('opencode', env), env) : undefined;
  checks.push(opencode
    ? { name: 'OpenCode installed', ok: true, needed: adapter === 'opencode', detail: opencode }
    : { name: 'OpenCode installed', ok: false, needed: adapter === 'opencode', detail: 'OpenCode is not installed on this machine', fix: 'npm install -g opencode-ai' });
  if (opencode) {
    // RUNREADY-6: the same check the relay makes before it starts OpenCode.
    const ok = opencodeHasProvider(env, process.cwd());
    checks.push({ name: 'OpenCode model provider', ok, needed: adapter === 'opencode', detail: ok ? 'a provider key, a saved login or a configured provider' : 'OpenCode has no model provider on this machine', fix: ok ? undefined : 'run `opencode auth login`, or export a provider\'s API key (e.g. ANTHROPIC_API_KEY) for the relay' });
  }
  return checks;
}

function gitCheck(env: Env): Check {
  const v = gitVersion(env);
  const m = v ? /(\d+)\.(\d+)/.exec(v) : null;
  const ok = !!m && (Number(m[1]) > 2 || (Number(m[1]) === 2 && Number(m[2]) >= 25));
  return { name: 'git', ok, needed: true, detail: v ?? 'git is not installed', fix: ok ? undefined : 'install git 2.25 or newer (worktrees and --no-optional-locks are used)' };
}

function relayCheck(env: Env): Promise<Check> {
  const url = relayUrl(env);
  if (!url) return Promise.resolve({ name: 'relay over HTTPS', ok: false, needed: false, detail: 'no relay is running (no relay.json of a running relay, and no usable COMMANDR_URL)', fix: 'start it with `commandr serve`' });
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL('/', url);
    } catch {
      resolve({ name: 'relay over HTTPS', ok: false, needed: true, detail: `relay URL ${url} is not a URL`, fix: 'fix COMMANDR_URL' });
      return;
    }
    const request = (target.protocol === 'https:' ? https : http).get(target, { rejectUnauthorized: false, timeout: 3000 }, (res) => {
      res.resume();
      const secure = target.protocol === 'https:';
      resolve({ name: 'relay over HTTPS', ok: secure, needed: false, detail: `${url} answers (${res.statusCode})${secure ? '' : ', but over plain HTTP: a phone needs HTTPS for the app and push'}`, fix: secure ? undefined : 'serve the relay behind HTTPS (see README: phone access)' });
    });
    request.on('timeout', () => request.destroy(new Error('no answer within 3 s')));
    request.on('error', (error) => resolve({ name: 'relay over HTTPS', ok: false, needed: false, detail: `${url} is not reachable: ${error.message}`, fix: 'start the relay: `commandr serve`' }));
  });
}

function pushCheck(env: Env): Check {
  const file = path.join(commandrHome(env), 'push', 'vapid.json');
  try {
    const keys = JSON.parse(fs.readFileSync(file, 'utf8')) as { publicKey?: unknown; privateKey?: unknown };
    if (typeof keys.publicKey === 'string' && typeof keys.privateKey === 'string') return { name: 'push keys', ok: true, needed: false, detail: file };
    return { name: 'push keys', ok: false, needed: false, detail: `${file} holds no key pair`, fix: `remove ${file} and start the relay once (\`commandr serve\`) to make new keys` };
  } catch {
    return { name: 'push keys', ok: false, needed: false, detail: `no push keys at ${file}`, fix: 'start the relay once (`commandr serve`): it makes them' };
  }
}

const registryOf = (env: Env): string => env.AGENTS_INDEX_REPOS || path.join(env.HOME?.trim() || os.homedir(), '.agents', 'repos');

/** The registered repos; none when there is no registry. */
function registeredRepos(env: Env): string[] {
  try {
    return fs.readFileSync(registryOf(env), 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  } catch {
    return [];
  }
}

/**
 * Each registered repo's wiring (DOCTOR-3): what `commandr wire` would change. Claude Code's hooks must be
 * this install's, as wire writes them now; an OpenCode plugin, where there is one, must be the one wire
 * writes now (it names this install's hook and this Node: after a move or a Node upgrade it runs nothing).
 */
function wiredChecks(env: Env): Check[] {
  const repos = registeredRepos(env);
  if (repos.length === 0) return [{ name: 'wired repos', ok: false, needed: false, detail: `no registered repos (${registryOf(env)})`, fix: 'in each repo: `commandr init --wire`' }];
  return repos.map((repo) => {
    const claude = claudeWiring(repo);
    const opencode = opencodeWiring(repo);
    const fixes = [claude && `commandr wire ${repo}`, opencode && `commandr wire ${repo} --adapter opencode`].filter(Boolean);
    const ok = fixes.length === 0;
    return { name: `wired: ${repo}`, ok, needed: false, detail: ok ? 'hooks installed and current' : [claude, opencode].filter(Boolean).join('; '), fix: ok ? undefined : fixes.join(' && ') };
  });
}

function claudeWiring(repo: string): string | undefined {
  let settings: Record<string, unknown> | undefined;
  try {
    settings = readJsonObject(path.join(repo, '.claude', 'settings.local.json')); // WIREPATH-2: the hooks are local
  } catch (error) {
    return `Claude Code settings unreadable: ${(error as Error).message}`;
  }
  const { changed } = mergeHooks(settings ?? {}, wiredHookSpecs());
  if (changed.length === 0) return undefined;
  const any = JSON.stringify(settings?.hooks ?? {}).includes(HOOK_MARKER);
  return any ? `Claude Code hooks from an older install or another location (${changed.join(', ')})` : 'Claude Code hooks missing';
}

function opencodeWiring(repo: string): string | undefined {
  let current: string;
  try {
    current = fs.readFileSync(path.join(repo, PLUGIN_FILE), 'utf8');
  } catch {
    return undefined; // OpenCode not wired here: nothing to keep current
  }
  if (!current.startsWith(PLUGIN_MARKER)) return undefined; // not ours; wire refuses to touch it
  if (current === currentPluginSource()) return undefined;
  const node = /^const NODE = ("(?:[^"\\]|\\.)*");$/m.exec(current);
  const named = node ? (JSON.parse(node[1]!) as string) : undefined;
  if (named && !fs.existsSync(named)) return `the OpenCode plugin runs ${named}, which no longer exists`;
  return 'the OpenCode plugin is from an older install or another location';
}

/** Each registered repo's approval hooks (INIT-2): without them its agents' commits or merges skip the gate. */
function gatedChecks(env: Env): Check[] {
  return registeredRepos(env).map((repo) => {
    let missing: string[];
    try {
      missing = missingApprovalHooks(repo);
    } catch (error) {
      return { name: `gated: ${repo}`, ok: false, needed: false, detail: `not a git repository now (${(error as Error).message})`, fix: `remove it from the registry, or \`commandr init ${repo}\`` };
    }
    if (missing.length === 0) return { name: `gated: ${repo}`, ok: true, needed: true, detail: 'approval hooks installed' };
    return { name: `gated: ${repo}`, ok: false, needed: true, detail: `hook${missing.length === 1 ? '' : 's'} ${missing.join(', ')} missing or not commandr's: agents can commit or merge there without an approval`, fix: `commandr init ${repo}` };
  });
}

/**
 * DOCTOR-2: each registered repo whose git index tracks bus files that are this machine's own
 * (notes, approvals, verdicts, the event log): a clone of it brings notes posing as the person's.
 */
function trackedBusChecks(env: Env): Check[] {
  return registeredRepos(env).flatMap((repo): Check[] => {
    let files: string[];
    try {
      files = unsharedTrackedBusFiles(repo);
    } catch {
      return []; // not a git repository now: the gated check says so
    }
    const name = `bus files untracked: ${repo}`;
    if (files.length === 0) return [{ name, ok: true, needed: true, detail: 'git tracks only the shared bus files (packets, .gitkeep)' }];
    const shown = files.slice(0, 5).join(', ') + (files.length > 5 ? `, … (${files.length} in all)` : '');
    const notes = files.some((f) => f.toLowerCase().startsWith('.agents/annotations/'));
    return [{
      name, ok: false, needed: true,
      detail: `git tracks ${shown}: they came with the repository, not from this machine${notes ? '; its notes are never given to an agent (ANNOT-6)' : ''}`,
      fix: `cd ${repo} && git rm -r --cached -- ${untrackTargets(files).join(' ')} && git commit${notes ? ' — then delete the note files you did not write: untracked, they count as yours' : ''}`,
    }];
  });
}

/** SBXDEF-5: whether an OS sandbox can run here; when not, the other defence is a user of its own for the relay. */
function osSandboxCheck(support: SandboxSupport): Check {
  if (support.ok) return { name: 'OS sandbox', ok: true, needed: false, detail: `${support.kind} works here (${support.detail}): Claude Code's sandbox and \`commandr sandbox -- <cli>\` can isolate agents` };
  return {
    name: 'OS sandbox', ok: false, needed: false,
    detail: `no OS sandbox is possible here: ${support.reason}. Agents run as you and can read the relay's key`,
    fix: `${support.fix}; or run the relay as its own OS user (docs/relay-user.md)`,
  };
}

/** SBXDEF-4: per registered repo, whether its Claude Code sessions run sandboxed, and what they can reach when not. */
function sandboxedChecks(env: Env, support: SandboxSupport): Check[] {
  const dataDir = commandrHome(env);
  const paths = { dataDir, publicKey: publicKeyFile(dataDir) };
  const other = 'for OpenCode: `commandr sandbox -- opencode`';
  return registeredRepos(env).map((repo): Check => {
    const name = `sandboxed: ${repo}`;
    const state = sandboxState({}, repo, { claude: true });
    if (!state.sandboxed) {
      return { name, ok: false, needed: false, detail: `Claude Code sessions in ${repo} run without a sandbox (${state.why}): any command the agent runs can read the relay's key in ${dataDir} and forge an approval`, fix: `commandr init ${repo} --wire (sandbox on); ${other}` };
    }
    if (!support.ok) {
      return { name, ok: false, needed: false, detail: `Claude Code's sandbox is on in ${repo} but cannot start here (${support.reason}): its commands run unsandboxed and can read the relay's key`, fix: `${support.fix}; or run the relay as its own OS user (docs/relay-user.md)` };
    }
    const missing = missingSandboxSettings(repo, paths);
    if (missing.length) return { name, ok: false, needed: false, detail: `Claude Code's sandbox is on in ${repo} but lacks ${missing.join('; ')}: the agent can reach what those keep out`, fix: `commandr init ${repo} --wire` };
    return { name, ok: true, needed: false, detail: `Claude Code's sandbox is on and keeps ${dataDir}, the approvals and git's hooks and config out of the agent's reach` };
  });
}

export async function doctor(env: Env = process.env): Promise<Check[]> {
  const support = sandboxSupport(env as NodeJS.ProcessEnv);
  return [...agentChecks(env), gitCheck(env), await relayCheck(env), pushCheck(env), osSandboxCheck(support), ...gatedChecks(env), ...trackedBusChecks(env), ...wiredChecks(env), ...sandboxedChecks(env, support)];
}

export function formatChecks(checks: Check[]): string {
  return checks.map((c) => {
    const mark = c.ok ? 'ok  ' : c.needed ? 'FAIL' : 'warn';
    return `${mark} ${c.name}: ${c.detail}${!c.ok && c.fix ? `\n     fix: ${c.fix}` : ''}`;
  }).join('\n');
}

if (require.main === module || process.argv[1]?.endsWith('doctor.cjs')) {
  runTool('doctor', USAGE, async () => {
    const checks = await doctor();
    process.stdout.write(formatChecks(checks) + '\n');
    return checks.some((c) => c.needed && !c.ok) ? 1 : 0;
  });
}
