// Push latency (PUSH-3): from a bus event — a real gate block (git commit through
// the installed hook) or a council verdict file + its council_verdict event — to the
// encrypted request arriving at the local push service, through the real relay.
// `npx tsx bench/push.ts`. Target: p50 ≤ 100 ms.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { appendEvent } from '../bus/event-log';
import { writeFileAtomic } from '../bus/fs-atomic';
import { blockedCommit, claimNext, pushDevice, startPushWorld } from '../test/push/fixture';
import type { ReceivedPush } from '../test/stand-ins/push-service';

const GATE_RUNS = 15;
const VERDICT_RUNS = 30;

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

async function main(): Promise<void> {
  const ids = Array.from({ length: GATE_RUNS }, (_, i) => `T-${i + 1}`);
  const pw = await startPushWorld(ids);
  process.env.GIT_AUTHOR_NAME = process.env.GIT_COMMITTER_NAME = 'Bench';
  process.env.GIT_AUTHOR_EMAIL = process.env.GIT_COMMITTER_EMAIL = 'bench@commandr.invalid';
  const phone = await pushDevice(pw.relay, pw.endpoint, 'bench phone', false);
  const taskOf = (p: ReceivedPush) => (p.payload as { data: { task?: string } }).data.task;
  try {
    const gate: number[] = [];
    for (let i = 0; i < GATE_RUNS; i++) {
      const task = claimNext(pw.world);
      blockedCommit(pw.world, task, { 'README.md': `change ${i}\n` });
      const got = await pw.endpoint.waitFor((p) => p.subscription === phone.sub.id && taskOf(p) === task);
      const event = pw.world.events().find((e) => e.event === 'approval_requested' && e.task === task)!;
      gate.push(got.at - Date.parse(String(event.ts)));
    }
    const verdict: number[] = [];
    for (let i = 0; i < VERDICT_RUNS; i++) {
      const task = `T-${100 + i}`;
      const t0 = Date.now();
      const ts = new Date().toISOString();
      const votes = [
        { dimension: 'acceptance-criteria', vote: 'PASS', reason: 'ok' },
        { dimension: 'code-quality', vote: 'FAIL', reason: 'no' },
        { dimension: 'style', vote: 'FAIL', reason: 'no' },
      ];
      fs.mkdirSync(path.join(pw.world.bus, 'council'), { recursive: true });
      writeFileAtomic(path.join(pw.world.bus, 'council', `${task}.json`), JSON.stringify({ task, verdict: 'FAIL', ts, votes }) + '\n');
      appendEvent(pw.world.bus, { event: 'council_verdict', task, verdict: 'FAIL', evaluator_count: 3, abstentions: 0 });
      const got = await pw.endpoint.waitFor((p) => p.subscription === phone.sub.id && taskOf(p) === task);
      if ((got.payload as { body: string }).body !== 'Failed: code-quality, style') throw new Error(`unexpected verdict body ${got.text}`);
      verdict.push(got.at - t0);
    }
    console.log('push latency: bus event → encrypted request at the local push service (ms)');
    console.log('| trigger | runs | p50 | p95 | max |');
    console.log('|---|---|---|---|---|');
    for (const [name, xs] of [['gate block (approval_requested)', gate], ['council verdict file + event', verdict]] as const) {
      const s = [...xs].sort((a, b) => a - b);
      console.log(`| ${name} | ${s.length} | ${quantile(s, 0.5)} | ${quantile(s, 0.95)} | ${s[s.length - 1]} |`);
    }
  } finally {
    await phone.client.close();
    await pw.cleanup();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
