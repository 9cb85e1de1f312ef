// Hook overhead per Claude Code turn (issue 11 goal: ≤ 1.07× unwired with one tool call, ≤ 1.10×
// with 20): real turns in a plain repo, a wired one and a "floor" one — wired, with every hook
// replaced by a command that only reads its input — alternating; medians and their ratios. The
// floor is what Claude Code itself spends on starting that many command hooks (and the MCP server);
// its two halves are measured too (only the MCP server; only the no-op hooks). Also what the agent waits for per hook (sh spool, Stop with its checkpoint, the
// prompt gate, the permission hook's fast path) against a bare `node -e 0`. Run: npx tsx bench/hooks.ts [turns]
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRelay } from '../relay/server';
import { relayUrl } from '../adapters/lib/env';
import { startMessagesApi } from '../test/stand-ins/messages-api';
import { removeWhenQuiet } from '../test/adapters/harness'; // detached hooks may still be finishing in the temp dirs
import { claudeTurnEnv, everyHookANoop, makeBenchRepo as makeRepo, median, scriptToolCalls, timed } from './lib/claude-turns';

const ROOT = path.resolve(__dirname, '..');
const TURNS = Number(process.argv[2] ?? process.env.BENCH_TURNS ?? 8);
const HOOK_RUNS = 15;

async function main(): Promise<void> {
  execFileSync('node', [path.join(ROOT, 'scripts', 'build.mjs')], { stdio: 'ignore' });
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'commandr-bench-hooks-')));
  const home = path.join(base, 'home');
  const data = path.join(base, 'data');
  fs.mkdirSync(home);
  const api = await startMessagesApi({ apiKey: 'sk-test' });
  const relay = await createRelay({ port: 0, host: '127.0.0.1', demo: false, repos: [], dataDir: data, registryFile: path.join(base, 'none'), appDir: path.join(base, 'no-app') });
  try {
    const calls = scriptToolCalls(api);
    const plain = makeRepo(base, 'plain');
    const wired = makeRepo(base, 'wired');
    const floor = makeRepo(base, 'floor');
    // The floor's two halves: only the MCP server (no hooks), and only the no-op hooks (no MCP server).
    const mcpOnly = makeRepo(base, 'mcp-only');
    const noopHooks = makeRepo(base, 'noop-hooks');
    for (const repo of [wired, floor, mcpOnly, noopHooks]) execFileSync(path.join(ROOT, 'adapters', 'claude', 'wire'), [repo], { stdio: 'ignore' });
    everyHookANoop(path.join(floor, '.claude', 'settings.local.json'));
    everyHookANoop(path.join(noopHooks, '.claude', 'settings.local.json'));
    fs.rmSync(path.join(noopHooks, '.mcp.json'));
    const settings = path.join(mcpOnly, '.claude', 'settings.local.json');
    fs.writeFileSync(settings, JSON.stringify({ ...JSON.parse(fs.readFileSync(settings, 'utf8')), hooks: {} }, null, 2));
    const variants = { plain, wired, floor, mcpOnly, noopHooks };
    // `commandr` on PATH, as after `npm link`: the wired .mcp.json starts `commandr mcp` through it (WIREPATH-2).
    const env = claudeTurnEnv(ROOT, { home, dataDir: data, api: api.url });
    const claude = path.join(ROOT, 'node_modules', '.bin', 'claude');
    const args = ['-p', 'go', '--output-format', 'stream-json', '--verbose'];
    const rows: Array<[string, number]> = [];
    for (const n of TURNS > 0 ? [1, 20] : []) { // `hooks.ts 0`: the hooks alone
      calls.n = n;
      const times = Object.fromEntries(Object.keys(variants).map((v) => [v, [] as number[]])) as Record<keyof typeof variants, number[]>;
      for (const repo of Object.values(variants)) await timed(claude, args, repo, env); // warm the CLI and the code caches
      const turns = n === 1 ? TURNS : Math.max(3, Math.ceil(TURNS / 2));
      for (let i = 0; i < turns; i++) {
        // Alternating, so load drifts hit every variant alike.
        for (const [name, repo] of Object.entries(variants)) times[name as keyof typeof variants].push(await timed(claude, args, repo, env));
      }
      const p = median(times.plain);
      rows.push([`${n} tool call(s): turn not wired (median of ${turns})`, p]);
      rows.push([`${n} tool call(s): turn wired (median)`, median(times.wired)]);
      rows.push([`${n} tool call(s): floor, every hook a no-op`, median(times.floor)]);
      rows.push([`${n} tool call(s): wired / not wired (x1000)`, (1000 * median(times.wired)) / p]);
      rows.push([`${n} tool call(s): floor / not wired (x1000)`, (1000 * median(times.floor)) / p]);
      rows.push([`${n} tool call(s): MCP server only / not wired (x1000)`, (1000 * median(times.mcpOnly)) / p]);
      rows.push([`${n} tool call(s): no-op hooks only / not wired (x1000)`, (1000 * median(times.noopHooks)) / p]);
    }
    const payload = (event: string) => JSON.stringify({
      session_id: 'bench', cwd: wired, hook_event_name: event, tool_name: 'Bash', tool_input: { command: 'echo hi' },
      tool_response: { stdout: 'hi', stderr: '', interrupted: false }, prompt: 'go', reason: 'other',
    });
    const bare: number[] = [];
    for (let i = 0; i < HOOK_RUNS; i++) bare.push(await timed(process.execPath, ['-e', '0'], wired, env));
    rows.push(['node -e 0 (baseline)', median(bare)]);
    // The reporting hooks with the relay up (REPORT-1) and their fallback, the spool (relay down).
    const hooks = path.join(ROOT, 'adapters', 'claude', 'hooks');
    const stop = path.join(hooks, 'stop');
    const runs: Array<[string, string, string[], NodeJS.ProcessEnv]> = [
      ['report, a tool hook, relay up (agent waits)', 'report', ['PostToolUse'], env],
      ['report Stop + checkpoint, relay up (agent waits)', 'report', ['Stop', stop], env],
      ['spool, a tool hook, relay down (agent waits)', 'spool', ['PostToolUse'], env],
      ['spool Stop + checkpoint, relay down (agent waits)', 'spool', ['Stop', stop], env],
    ];
    for (const [name, hook, args, hookEnv] of runs) {
      const times: number[] = [];
      for (let i = 0; i < HOOK_RUNS; i++) times.push(await timed(path.join(hooks, hook), args, wired, hookEnv, payload(args[0]!)));
      rows.push([name, median(times)]);
    }
    const gated: number[] = [];
    const gate = path.join(ROOT, 'adapters', 'claude', 'hooks', 'prompt-gate');
    const gateEnv = { ...env, CLAUDE_PROJECT_DIR: wired };
    for (let i = 0; i < HOOK_RUNS; i++) gated.push(await timed(gate, [path.join(ROOT, 'adapters', 'claude', 'hooks', 'user-prompt-submit')], wired, gateEnv, payload('UserPromptSubmit')));
    rows.push(['prompt-gate, no notes (agent waits)', median(gated)]);
    // The permission hook when the policy decides (FAST-n): the fast path with the relay up.
    const permitted: number[] = [];
    const permission = path.join(ROOT, 'adapters', 'claude', 'hooks', 'permission');
    for (let i = 0; i < HOOK_RUNS; i++) permitted.push(await timed(permission, [], wired, env, payload('PreToolUse').replace('"echo hi"', '"git status"')));
    rows.push(['permission, policy allow, relay up (agent waits)', median(permitted)]);
    // HOOKCRED-1: what trusting relay.json costs each hook — its writer alive with its start time.
    const client = path.join(hooks, 'relay-client.bash');
    const loop = `. "${client}"; read -r info <"$COMMANDR_HOME/relay.json"; s=$EPOCHREALTIME; for ((i = 0; i < 1000; i++)); do relay_alive || exit 1; done; e=$EPOCHREALTIME; echo $(( (\${e/./} - \${s/./}) ))`;
    rows.push(['relay.json check, bash (µs per hook)', Number(execFileSync('bash', ['-c', loop], { env, encoding: 'utf8' }).trim()) / 1000]);
    const check = relayUrl(env as Record<string, string>);
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < 1000; i++) if (relayUrl(env as Record<string, string>) !== check) throw new Error('relay.json check changed its mind');
    rows.push(['relay.json check + read, node (µs per hook)', Number(process.hrtime.bigint() - t0) / 1e6]);
    const row = (name: string, ms: number) => `| ${name.padEnd(48)} | ${ms.toFixed(0).padStart(7)} |`;
    console.log(`\nClaude Code turns, alternating plain/wired/floor/MCP only/no-op hooks only; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores (goal: wired/not wired <= 1070 for 1 call, <= 1100 for 20)\n`);
    console.log(`| ${'measure'.padEnd(48)} | ${'ms'.padStart(7)} |\n|${'-'.repeat(50)}|${'-'.repeat(9)}|`);
    for (const [name, ms] of rows) console.log(row(name, ms));
  } finally {
    await relay.close();
    await api.close();
    await removeWhenQuiet(base);
  }
}

void main();
