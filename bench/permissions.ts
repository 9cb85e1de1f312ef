// Permission round trip (PERM-1..3) through a real relay, a real paired `ws`
// device and the hook's own relay client (adapters/lib/permission-ask.ts):
//   ask → request shown   the hook's POST until the device receives `permission.request`
//   answer → hook decided the device's signed `permission.decide` until the hook has its answer
// plus the whole Claude Code permission hook as a process (cold start, policy, ask), and the
// hook when the policy decides (FAST-n): the fast path (sh + bash + the relay) with the relay
// up, the node slow path with it down.
// `npx tsx bench/permissions.ts` (run `node scripts/build.mjs` first). Targets: both p50 ≤ 50 ms;
// a policy decision with the relay up p50 ≤ 15 ms (issue 11).
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { askRelay } from '../adapters/lib/permission-ask';
import { createRelay } from '../relay/server';
import { connectDevice } from '../test/helpers/device';

const RUNS = 60;
const HOOK_RUNS = 10;
const LOCAL_RUNS = 40;
const ROOT = path.resolve(__dirname, '..');

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const row = (name: string, xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `${name.padEnd(34)} ${String(xs.length).padStart(4)} ${quantile(s, 0.5).toFixed(1).padStart(8)} ${quantile(s, 0.95).toFixed(1).padStart(8)} ${s[s.length - 1]!.toFixed(1).padStart(8)}`;
};

function runHook(env: NodeJS.ProcessEnv, payload: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(ROOT, 'adapters', 'claude', 'hooks', 'permission'), [], { env, stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', () => resolve(out));
    child.stdin.end(payload);
  });
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'commandr-bench-perm-'));
  const relay = await createRelay({ port: 0, host: '127.0.0.1', demo: false, repos: [], dataDir, registryFile: path.join(dataDir, 'none'), appDir: path.join(dataDir, 'none') });
  const phone = await connectDevice(relay, 'bench phone');
  const env = { COMMANDR_HOME: dataDir, COMMANDR_URL: relay.url };
  const shown: number[] = [];
  const decided: number[] = [];
  const hookShown: number[] = [];
  const fast: number[] = [];
  const slow: number[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const answer = askRelay({ session: 'bench', tool: 'Bash', summary: `touch f${i}`, cwd: dataDir, key: `bench-key-${i}`, prefix: 'touch', timeoutMs: 30_000 }, env);
      const { request } = await phone.next('permission.request', (f) => f.request.summary === `touch f${i}`);
      const t1 = performance.now();
      const decide = phone.request({ type: 'permission.decide', request: request.id, decision: 'allow' });
      const got = await answer;
      const t2 = performance.now();
      await decide;
      if (got?.decision !== 'allow') throw new Error(`run ${i}: expected allow, got ${JSON.stringify(got)}`);
      shown.push(t1 - t0);
      decided.push(t2 - t1);
    }
    const hookEnv = { PATH: process.env.PATH, HOME: dataDir, ...env } as Record<string, string | undefined> as NodeJS.ProcessEnv;
    for (let i = 0; i < HOOK_RUNS; i++) {
      const payload = JSON.stringify({ session_id: 'bench-hook', cwd: dataDir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: `touch h${i}` }, tool_use_id: `toolu_${i}` });
      const t0 = performance.now();
      const out = runHook(hookEnv, payload);
      const { request } = await phone.next('permission.request', (f) => f.request.summary === `touch h${i}`);
      hookShown.push(performance.now() - t0);
      await phone.request({ type: 'permission.decide', request: request.id, decision: 'deny' });
      if (!(await out).includes('"permissionDecision":"deny"')) throw new Error('the hook did not print the decision');
    }
    // A policy allow (git status), alternating relay up (fast path) and relay unreachable (node).
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'commandr-bench-perm-repo-'));
    execFileSync('git', ['init', '-q', work]);
    const local = JSON.stringify({ session_id: 'bench-local', cwd: work, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'git status' }, tool_use_id: 'toolu_local' });
    const downEnv = { ...hookEnv, COMMANDR_URL: 'http://127.0.0.1:1' };
    for (let i = 0; i < LOCAL_RUNS; i++) {
      for (const [into, e] of [[fast, hookEnv], [slow, downEnv]] as const) {
        const t0 = performance.now();
        const out = await runHook(e, local);
        into.push(performance.now() - t0);
        if (!out.includes('"permissionDecision":"allow"')) throw new Error(`the hook did not allow git status: ${out}`);
      }
    }
    fs.rmSync(work, { recursive: true, force: true });
  } finally {
    await phone.close();
    await relay.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`${'permission round trip (ms)'.padEnd(34)} ${'n'.padStart(4)} ${'p50'.padStart(8)} ${'p95'.padStart(8)} ${'max'.padStart(8)}`);
  console.log(row('ask → request at the device', shown));
  console.log(row('answer → hook has the decision', decided));
  console.log(row('hook process start → request shown', hookShown));
  console.log(row('policy allow, relay up (fast path)', fast));
  console.log(row('policy allow, relay down (node hook)', slow));
  console.log(`targets: p50 ≤ 50 ms for the first two rows, ≤ 15 ms for the fast path (warm, whole hook process); machine: ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(2)}`);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
