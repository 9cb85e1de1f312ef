// Hook overhead per Claude Code turn (target ≤ 100 ms): N real turns (one tool call each, so
// UserPromptSubmit, PreToolUse, PostToolUse, Stop and SessionEnd all fire) in a plain and a wired
// repo, interleaved; the difference of medians is the cost of all wired hooks together.
// Also each hook process alone against a bare `node -e 0`. Run: npx tsx bench/hooks.ts [turns]
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { initRepo } from '../bus/init';
import { createRelay } from '../relay/server';
import { startMessagesApi } from '../test/stand-ins/messages-api';

const ROOT = path.resolve(__dirname, '..');
const TURNS = Number(process.argv[2] ?? process.env.BENCH_TURNS ?? 8);
const HOOK_RUNS = 15;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

function timed(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, input = ''): Promise<number> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Number(process.hrtime.bigint() - started) / 1e6) : reject(new Error(`${command} exited ${code}`))));
    child.stdin.end(input);
  });
}

function makeRepo(base: string, name: string): string {
  const repo = path.join(base, name);
  fs.mkdirSync(repo);
  execFileSync('git', ['init', '-q', repo]);
  initRepo(repo, { gateBin: path.join(ROOT, 'bin', 'pre-commit-gate'), registryFile: path.join(base, 'registry') });
  return repo;
}

async function main(): Promise<void> {
  execFileSync('node', [path.join(ROOT, 'scripts', 'build.mjs')], { stdio: 'ignore' });
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'commandr-bench-hooks-')));
  const home = path.join(base, 'home');
  const data = path.join(base, 'data');
  fs.mkdirSync(home);
  const api = await startMessagesApi({ apiKey: 'sk-test' });
  const relay = await createRelay({ port: 0, host: '127.0.0.1', demo: false, repos: [], dataDir: data, registryFile: path.join(base, 'none'), appDir: path.join(base, 'no-app') });
  try {
    api.setReply((r) => {
      if (!Array.isArray(r.body?.tools) || r.body.tools.length === 0) return { text: 'side' };
      const last = r.body.messages[r.body.messages.length - 1];
      const hasResult = Array.isArray(last?.content) && last.content.some((b: any) => b.type === 'tool_result');
      return hasResult ? { text: 'done' } : { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo hi' } }] };
    });
    const plain = makeRepo(base, 'plain');
    const wired = makeRepo(base, 'wired');
    const reporting = makeRepo(base, 'reporting');
    execFileSync(path.join(ROOT, 'adapters', 'claude', 'wire'), [wired], { stdio: 'ignore' });
    execFileSync(path.join(ROOT, 'adapters', 'claude', 'wire'), [reporting], { stdio: 'ignore' });
    withoutPermissionHook(path.join(reporting, '.claude', 'settings.json'));
    const env = {
      PATH: process.env.PATH, HOME: home, COMMANDR_HOME: data, AGENTS_TASK_ID: 'T-bench',
      ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: 'sk-test', DISABLE_TELEMETRY: '1', DISABLE_AUTOUPDATER: '1',
      DISABLE_ERROR_REPORTING: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', CLAUDE_CODE_MAX_RETRIES: '0',
    } as unknown as NodeJS.ProcessEnv;
    const claude = path.join(ROOT, 'node_modules', '.bin', 'claude');
    const args = ['-p', 'go', '--output-format', 'stream-json', '--verbose'];
    const times = { plain: [] as number[], wired: [] as number[], reporting: [] as number[] };
    for (const repo of [plain, wired, reporting]) await timed(claude, args, repo, env); // warm the CLI and the code caches
    for (let i = 0; i < TURNS; i++) {
      times.plain.push(await timed(claude, args, plain, env));
      times.wired.push(await timed(claude, args, wired, env));
      times.reporting.push(await timed(claude, args, reporting, env));
    }
    const payload = (event: string) => JSON.stringify({
      session_id: 'bench', cwd: wired, hook_event_name: event, tool_name: 'Bash', tool_input: { command: 'echo hi' },
      tool_response: { stdout: 'hi', stderr: '', interrupted: false }, prompt: 'go', reason: 'other',
    });
    const perHook: Array<[string, number]> = [];
    const bare: number[] = [];
    for (let i = 0; i < HOOK_RUNS; i++) bare.push(await timed(process.execPath, ['-e', '0'], wired, env));
    perHook.push(['node -e 0 (baseline)', median(bare)]);
    for (const [event, shim] of [['UserPromptSubmit', 'user-prompt-submit'], ['PreToolUse', 'pre-tool-use'], ['PostToolUse', 'post-tool-use'], ['Stop', 'stop'], ['SessionEnd', 'session-end']] as const) {
      const runs: number[] = [];
      for (let i = 0; i < HOOK_RUNS; i++) runs.push(await timed(path.join(ROOT, 'adapters', 'claude', 'hooks', shim), [], wired, env, payload(event)));
      perHook.push([event === 'Stop' ? 'Stop hook (incl. 3 s sweep, detached)' : `${event} hook process`, median(runs)]);
    }
    const detached: number[] = [];
    const detach = path.join(ROOT, 'adapters', 'claude', 'hooks', 'detach');
    for (let i = 0; i < HOOK_RUNS; i++) detached.push(await timed(detach, [path.join(ROOT, 'adapters', 'claude', 'hooks', 'stop')], wired, env, payload('Stop')));
    perHook.push(['detach <hook> (what the agent waits)', median(detached)]);
    const gated: number[] = [];
    const gate = path.join(ROOT, 'adapters', 'claude', 'hooks', 'prompt-gate');
    const gateEnv = { ...env, CLAUDE_PROJECT_DIR: wired };
    for (let i = 0; i < HOOK_RUNS; i++) gated.push(await timed(gate, [path.join(ROOT, 'adapters', 'claude', 'hooks', 'user-prompt-submit')], wired, gateEnv, payload('UserPromptSubmit')));
    perHook.push(['prompt-gate, no notes (agent waits)', median(gated)]);
    const row = (name: string, ms: number) => `| ${name.padEnd(38)} | ${ms.toFixed(0).padStart(7)} |`;
    console.log(`\nClaude Code turns: ${TURNS} each, one tool call per turn; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores\n`);
    console.log(`| ${'measure'.padEnd(38)} | ${'ms'.padStart(7)} |\n|${'-'.repeat(40)}|${'-'.repeat(9)}|`);
    console.log(row('turn, not wired (median)', median(times.plain)));
    console.log(row('turn, wired (median)', median(times.wired)));
    console.log(row('turn, reporting hooks only (median)', median(times.reporting)));
    console.log(row('overhead: all wired hooks', median(times.wired) - median(times.plain)));
    console.log(row('overhead: reporting hooks only', median(times.reporting) - median(times.plain)));
    for (const [name, ms] of perHook) console.log(row(name, ms));
  } finally {
    await relay.close();
    await api.close();
    await removeWhenQuiet(base);
  }
}

/** Detached hooks may still be finishing in the temp dirs: retry the removal for a while. */
async function removeWhenQuiet(dir: string): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      fs.rmSync(dir, { recursive: true, force: true });
      return;
    } catch (error) {
      if (i >= 100) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** The permission hook (PERM-HOOK-n) is measured separately: it waits for people by design. */
function withoutPermissionHook(file: string): void {
  const settings = JSON.parse(fs.readFileSync(file, 'utf8'));
  settings.hooks.PreToolUse = settings.hooks.PreToolUse.filter((e: { hooks: Array<{ command: string }> }) => !e.hooks.some((h) => h.command.includes('/hooks/permission')));
  fs.writeFileSync(file, JSON.stringify(settings, null, 2));
}

void main();
