// `commandr mcp` figures (issue 14), through the SDK client over stdio, a real bus, a
// real relay and a paired `ws` device:
//   ready            spawn `bin/commandr mcp` as an agent does → `tools/list` answered
//                    (process start, initialize included; the pipe to the relay's server, MCP-ONE-2)
//   ready, Node      the same with `node bin/commandr mcp`: the Node server (what a session gets with no relay, MCP-ONE-6)
//   first call       after that handshake, the session's first `progress` call, request → result,
//                    served by the relay through the pipe
//   progress         one later `progress` call, request → result (bus append included)
//   ask → device     `ask` called → the device receives `question.request`
//   ready, HTTP      the same server (createMcpServer) in an already running process, reached over
//                    MCP's Streamable HTTP (the SDK's transports, stateless: a server per request):
//                    what serving the tools from the running relay would cost an agent (issue 32)
//   progress, HTTP   one `progress` call over that HTTP server
// `npx tsx bench/mcp.ts` (run `node scripts/build.mjs` first). Targets: ≤ 300 / 20 / 50 ms.
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import * as os from 'node:os';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpServer } from '../adapters/mcp/server';
import { connectDevice } from '../test/helpers/device';
import { McpWorld, TASK } from '../test/mcp/fixture';

const READY_RUNS = 10;
const PROGRESS_RUNS = 200;
const ASK_RUNS = 40;

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const row = (name: string, xs: number[], target: string) => {
  const s = [...xs].sort((a, b) => a - b);
  return `${name.padEnd(22)} ${String(xs.length).padStart(4)} ${quantile(s, 0.5).toFixed(1).padStart(8)} ${quantile(s, 0.95).toFixed(1).padStart(8)} ${s[s.length - 1]!.toFixed(1).padStart(8)}   ${target}`;
};

async function main(): Promise<void> {
  const world = new McpWorld();
  await world.startRelay();
  const phone = await connectDevice(world.relay, 'bench phone');
  await phone.request({ type: 'subscribe' });
  const env = { AGENTS_TASK_ID: TASK };
  const ready: number[] = [];
  const readyNode: number[] = [];
  const firstCall: number[] = [];
  // The machine's own floor: a bare node start, so a loaded machine's figures can be read.
  const bare: number[] = [];
  for (let i = 0; i < READY_RUNS; i++) {
    const t0 = performance.now();
    spawnSync(process.execPath, ['-e', '0']);
    bare.push(performance.now() - t0);
  }
  const progress: number[] = [];
  const asked: number[] = [];
  const readyHttp: number[] = [];
  const progressHttp: number[] = [];
  // The tools served from a running process over Streamable HTTP, in the session's worktree.
  const http = createServer((req, res) => {
    const server = createMcpServer({ cwd: world.worktree, env: world.env(env) });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void transport.close().then(() => server.close()));
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const httpUrl = new URL(`http://127.0.0.1:${(http.address() as { port: number }).port}/mcp`);
  try {
    for (let i = 0; i < READY_RUNS; i++) {
      const t0 = performance.now();
      const client = await world.connect({ env, asAgent: true });
      await client.listTools();
      ready.push(performance.now() - t0);
      const t1 = performance.now();
      const first = await client.callTool({ name: 'progress', arguments: { note: `session ${i} started` } });
      firstCall.push(performance.now() - t1);
      if (first.isError) throw new Error(`progress failed: ${JSON.stringify(first.content)}`);
      await client.close();
      const t2 = performance.now();
      const viaNode = await world.connect({ env });
      await viaNode.listTools();
      readyNode.push(performance.now() - t2);
      await viaNode.close();
    }
    const client = await world.connect({ env, asAgent: true });
    await client.callTool({ name: 'progress', arguments: { note: 'first call' } });
    for (let i = 0; i < PROGRESS_RUNS; i++) {
      const t0 = performance.now();
      const result = await client.callTool({ name: 'progress', arguments: { note: `step ${i} done` } });
      progress.push(performance.now() - t0);
      if (result.isError) throw new Error(`progress failed: ${JSON.stringify(result.content)}`);
    }
    for (let i = 0; i < READY_RUNS; i++) {
      const t0 = performance.now();
      const viaHttp = new Client({ name: 'bench', version: '0' });
      await viaHttp.connect(new StreamableHTTPClientTransport(httpUrl));
      await viaHttp.listTools();
      readyHttp.push(performance.now() - t0);
      for (let j = 0; j < PROGRESS_RUNS / READY_RUNS; j++) {
        const t1 = performance.now();
        const result = await viaHttp.callTool({ name: 'progress', arguments: { note: `http step ${i}.${j} done` } });
        progressHttp.push(performance.now() - t1);
        if (result.isError) throw new Error(`progress over HTTP failed: ${JSON.stringify(result.content)}`);
      }
      await viaHttp.close();
    }
    for (let i = 0; i < ASK_RUNS; i++) {
      const question = `bench question ${i}?`;
      const t0 = performance.now();
      const call = client.callTool({ name: 'ask', arguments: { question, choices: ['yes', 'no'], timeout_s: 60 } });
      const { request } = await phone.next('question.request', (f) => f.request.title === question && f.request.status === 'pending');
      asked.push(performance.now() - t0);
      await phone.request({ type: 'question.answer', request: request.id, via: 'choice', choice: 0 });
      const result = await call;
      if ((result.structuredContent as { answer?: string }).answer !== 'yes') throw new Error(`ask ${i}: ${JSON.stringify(result.content)}`);
    }
  } finally {
    http.close();
    await phone.close();
    await world.close();
  }
  console.log(`${'figure (ms)'.padEnd(22)} ${'n'.padStart(4)} ${'p50'.padStart(8)} ${'p95'.padStart(8)} ${'max'.padStart(8)}   target`);
  console.log(row('node -e 0 (floor)', bare, '—'));
  console.log(row('ready (tools/list)', ready, '≤ 300 ms'));
  console.log(row('ready, Node (no relay)', readyNode, 'MCP-ONE-6'));
  console.log(row('first call (relay)', firstCall, 'MCP-ONE-1'));
  console.log(row('progress round trip', progress, '≤ 20 ms'));
  console.log(row('ask → device', asked, '≤ 50 ms'));
  console.log(row('ready, HTTP (running)', readyHttp, 'no process a session'));
  console.log(row('progress, HTTP', progressHttp, '≤ 20 ms'));
  console.log(`load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
