// Artifact figures behind the task screen's Open button (ARTUI-2), with the real
// server (dist/mcp.cjs) over stdio, a real relay and a paired `ws` device:
//   emit_artifact        one call, request → result (realpath, sha256, bus append)
//   artifact.open        the authenticated read → the granted URL (event lookup, re-check, digest)
//   GET 200 KB image     the granted URL → all bytes (re-check and digest on every read)
//   open + GET 10 MiB    both steps for a file at the size cap
// `npx tsx bench/artifacts.ts` (run `node scripts/build.mjs` first). No targets in the
// issue; the figures say what a tap costs before the phone's own network.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import path from 'node:path';
import { ARTIFACT_MAX_BYTES } from '../bus/artifacts';
import { connectDevice } from '../test/helpers/device';
import { McpWorld, TASK } from '../test/mcp/fixture';

const EMIT_RUNS = 50;
const OPEN_RUNS = 200;
const BIG_RUNS = 10;

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const row = (name: string, xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `${name.padEnd(22)} ${String(xs.length).padStart(4)} ${quantile(s, 0.5).toFixed(1).padStart(8)} ${quantile(s, 0.95).toFixed(1).padStart(8)} ${s[s.length - 1]!.toFixed(1).padStart(8)}`;
};

function get(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http.get(url, (res) => {
      let n = 0;
      res.on('data', (c: Buffer) => { n += c.length; });
      res.on('end', () => (res.statusCode === 200 ? resolve(n) : reject(new Error(`GET ${url}: ${res.statusCode}`))));
    }).on('error', reject);
  });
}

async function main(): Promise<void> {
  const world = new McpWorld();
  await world.startRelay();
  const phone = await connectDevice(world.relay, 'bench phone');
  const snapshot = phone.next('repo.snapshot');
  await phone.request({ type: 'subscribe' });
  const repo = (await snapshot).repo.id as string;
  mkdirSync(path.join(world.worktree, 'shots'));
  const small = randomBytes(200 * 1024);
  writeFileSync(path.join(world.worktree, 'shots', 'home.png'), small);
  writeFileSync(path.join(world.worktree, 'shots', 'big.png'), randomBytes(ARTIFACT_MAX_BYTES));
  const emit: number[] = [];
  const open: number[] = [];
  const fetchSmall: number[] = [];
  const big: number[] = [];
  try {
    const client = await world.connect({ env: { AGENTS_TASK_ID: TASK } });
    let artifact = '';
    for (let i = 0; i < EMIT_RUNS; i++) {
      const t0 = performance.now();
      const result = await client.callTool({ name: 'emit_artifact', arguments: { path: 'shots/home.png' } });
      emit.push(performance.now() - t0);
      if (result.isError) throw new Error(`emit_artifact: ${JSON.stringify(result.content)}`);
      artifact = (result.structuredContent as { artifact: string }).artifact;
    }
    for (let i = 0; i < OPEN_RUNS; i++) {
      const t0 = performance.now();
      const ack = await phone.request({ type: 'artifact.open', repo, task: TASK, artifact });
      const t1 = performance.now();
      const bytes = await get(`${world.relay.url}${(ack.result as { url: string }).url}`);
      fetchSmall.push(performance.now() - t1);
      open.push(t1 - t0);
      if (bytes !== small.length) throw new Error(`got ${bytes} bytes`);
    }
    const bigEmit = await client.callTool({ name: 'emit_artifact', arguments: { path: 'shots/big.png' } });
    const bigId = (bigEmit.structuredContent as { artifact: string }).artifact;
    for (let i = 0; i < BIG_RUNS; i++) {
      const t0 = performance.now();
      const ack = await phone.request({ type: 'artifact.open', repo, task: TASK, artifact: bigId });
      if ((await get(`${world.relay.url}${(ack.result as { url: string }).url}`)) !== ARTIFACT_MAX_BYTES) throw new Error('short read');
      big.push(performance.now() - t0);
    }
  } finally {
    await phone.close();
    await world.close();
  }
  console.log(`${'figure (ms)'.padEnd(22)} ${'n'.padStart(4)} ${'p50'.padStart(8)} ${'p95'.padStart(8)} ${'max'.padStart(8)}`);
  console.log(row('emit_artifact 200 KB', emit));
  console.log(row('artifact.open', open));
  console.log(row('GET 200 KB image', fetchSmall));
  console.log(row('open + GET 10 MiB', big));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
