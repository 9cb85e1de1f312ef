// What the Claude Code turn benches share (bench/tool-call.ts, bench/hooks.ts): a repo with a bus,
// a timed real turn, the environment that points the CLI at the Messages stand-in, a model that
// makes N Bash tool calls, and hooks turned into no-ops (the floor).
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { initRepo } from '../../bus/init';
import type { MessagesApi } from '../../test/stand-ins/messages-api';

const ROOT = path.resolve(__dirname, '..', '..');

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** Runs a command to its end; resolves with its wall time in ms, rejects on a non-zero exit. */
export function timed(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, input = ''): Promise<number> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Number(process.hrtime.bigint() - started) / 1e6) : reject(new Error(`${command} exited ${code}`))));
    child.stdin.end(input);
  });
}

/** A git repo with a bus under `base`. */
export function makeBenchRepo(base: string, name: string): string {
  const repo = path.join(base, name);
  fs.mkdirSync(repo);
  execFileSync('git', ['init', '-q', repo]);
  initRepo(repo, { gateBin: path.join(ROOT, 'bin', 'pre-commit-gate'), registryFile: path.join(base, 'registry') });
  return repo;
}

/** The environment of a benched turn: the stand-in as the API, a temp HOME, `commandr` on PATH (as after `npm link`). */
export function claudeTurnEnv(root: string, o: { home: string; dataDir: string; api: string }): NodeJS.ProcessEnv {
  return {
    PATH: `${path.join(root, 'bin')}${path.delimiter}${process.env.PATH}`, HOME: o.home, COMMANDR_HOME: o.dataDir, AGENTS_TASK_ID: 'T-bench',
    ANTHROPIC_BASE_URL: o.api, ANTHROPIC_API_KEY: 'sk-test', DISABLE_TELEMETRY: '1', DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', CLAUDE_CODE_MAX_RETRIES: '0',
  } as unknown as NodeJS.ProcessEnv;
}

/** Scripts the stand-in: a turn makes `n` Bash tool calls (`echo`, allowed headless), then says done. */
export function scriptToolCalls(api: MessagesApi): { n: number } {
  const calls = { n: 1 };
  api.setReply((r) => {
    if (!Array.isArray(r.body?.tools) || r.body.tools.length === 0) return { text: 'side' };
    const done = r.body.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content : [])).filter((b: any) => b.type === 'tool_result').length;
    return done >= calls.n ? { text: 'done' } : { content: [{ type: 'tool_use', name: 'Bash', input: { command: `echo hi ${done}` } }] };
  });
  return calls;
}

type Hook = Record<string, unknown>;

/** Reads a settings file, lets `change` edit it in place, and writes it back. */
export function editSettings(file: string, change: (settings: any) => void): void {
  const settings = JSON.parse(fs.readFileSync(file, 'utf8'));
  change(settings);
  fs.writeFileSync(file, JSON.stringify(settings, null, 2));
}

/** Rewrites every hook of a settings file with `change`, given the hook and its 1-based position. */
function rewriteEveryHook(file: string, change: (hook: Hook, k: number) => Hook): void {
  editSettings(file, (settings) => {
    let k = 0;
    for (const entries of Object.values(settings.hooks) as Array<Array<{ hooks: Hook[] }>>) {
      for (const entry of entries) entry.hooks = entry.hooks.map((h) => change(h, ++k));
    }
  });
}

/**
 * The same hooks, each only reading its payload: what Claude Code spends on running them at all.
 * Each no-op differs (its `ibs`): Claude Code runs hooks with the same command and arguments only
 * once, so identical no-ops would leave 1 of the 8 prompt hooks (NOTE-1) in the floor.
 */
export function everyHookANoop(file: string): void {
  rewriteEveryHook(file, (h, k) => ({ ...h, command: '/bin/dd', args: ['of=/dev/null', 'status=none', `ibs=${512 * k}`] }));
}

/** The same hooks, every one waited for: the tool-end ones no longer in the background (REPORT-5). */
export function everyHookWaitedFor(file: string): void {
  rewriteEveryHook(file, ({ async: _background, ...h }) => h);
}

/**
 * The same hooks, each the least a hook that asks the relay can be: bash, started by its path
 * (HOOK-10), reads its payload, sends `GET /healthz` over /dev/tcp and reads the answer to the end.
 * No credential, no decision, nothing printed: what remains of our hooks' cost is theirs alone.
 */
export function everyHookARoundTrip(file: string, relayUrl: string | undefined, bash: string): void {
  // With no URL, bash only reads its payload: the part of a round trip's cost that is bash's.
  const relay = relayUrl === undefined ? undefined : new URL(relayUrl);
  const script = relay === undefined ? `IFS= read -r -d '' -N 16384 _; exit 0` : `IFS= read -r -d '' -N 16384 _; exec 3<>/dev/tcp/${relay.hostname}/${relay.port} || exit 0
printf 'GET /healthz HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n' >&3
while IFS= read -r -d '' -N 65536 -t 3 a <&3; do :; done
exit 0`;
  rewriteEveryHook(file, (h, k) => ({ ...h, command: bash, args: ['-c', script, `hook-${k}`] }));
}
