// Figures for the relay core: pairing, socket auth handshake, read and signed
// action round trips, opening 100 clients, and a live event fanned out to 100
// clients. Run: npx tsx bench/relay-core.ts
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRelay } from '../relay/server';
import { type DeviceClient, openSocket, pairDevice, type TestDevice } from '../test/helpers/device';

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const fmt = (ms: number) => `${ms.toFixed(2)} ms`;

async function time(n: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    out.push(performance.now() - t);
  }
  return out;
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'commandr-bench-'));
  const relay = await createRelay({ port: 0, host: '127.0.0.1', dataDir, demo: false, repos: [], appDir: path.join(dataDir, 'none') });
  const rows: [string, string, string][] = [];
  try {
    const devices: TestDevice[] = [];
    const pairing = await time(50, async () => devices.push(await pairDevice(relay)));
    rows.push(['pair (POST /api/pair)', fmt(pct(pairing, 50)), fmt(pct(pairing, 99))]);

    const handshake = await time(200, async (i) => (await openSocket(relay, devices[i % devices.length])).close());
    rows.push(['socket connect + auth handshake', fmt(pct(handshake, 50)), fmt(pct(handshake, 99))]);

    const client = await openSocket(relay, devices[0]);
    const reads = await time(1000, () => client.request({ type: 'device.list' }));
    rows.push(['read round trip (device.list)', fmt(pct(reads, 50)), fmt(pct(reads, 99))]);
    const acts = await time(500, (i) => client.request({ type: 'device.rename', device: devices[0]!.id, name: `n${i}` }));
    rows.push(['signed action round trip (device.rename)', fmt(pct(acts, 50)), fmt(pct(acts, 99))]);

    const t0 = performance.now();
    const clients: DeviceClient[] = await Promise.all(Array.from({ length: 100 }, (_, i) => openSocket(relay, devices[i % devices.length])));
    rows.push(['open 100 authenticated clients (total)', fmt(performance.now() - t0), '']);

    const token = fs.readFileSync(path.join(dataDir, 'hook-token'), 'utf8').trim();
    const fanout: number[] = [];
    for (let i = 0; i < 50; i++) {
      const t = performance.now();
      const arrived = clients.map((c) => c.next('live.event', (f) => f.event.summary === `e${i}`).then(() => performance.now() - t));
      await fetch(`${relay.url}/api/events`, {
        method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ v: 1, session: 'bench', kind: 'edit', summary: `e${i}` }),
      });
      fanout.push(...(await Promise.all(arrived)));
    }
    rows.push(['live event POST → 100 clients (per client)', fmt(pct(fanout, 50)), fmt(pct(fanout, 99))]);
    await Promise.all([client, ...clients].map((c) => c.close()));
    rows.push(['relay RSS after the run', `${(process.memoryUsage().rss / 1048576).toFixed(0)} MiB`, '(bench + relay in one process)']);
  } finally {
    await relay.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const w = Math.max(...rows.map((r) => r[0].length));
  process.stdout.write(`${'figure'.padEnd(w)}  p50 / total   p99\n`);
  for (const [name, a, b] of rows) process.stdout.write(`${name.padEnd(w)}  ${a.padEnd(12)}  ${b}\n`);
}

void main();
