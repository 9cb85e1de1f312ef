// Permission prompts across the fleet link (`npx tsx bench/fleet-prompts.ts`, FLEETX-3):
// a hook's real long-poll to a MEMBER relay's `POST /api/permissions` until the card
// reaches a device paired with the home, and the device's signed allow until the
// member's hook has its answer; the same two figures for a prompt raised on the home
// itself, for comparison. Loopback, two relays in this process.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRelay, type Relay } from '../relay/server';
import { createJoinCode } from '../relay/fleet/machines';
import { joinHome } from '../relay/fleet/member';
import { connectDevice, type DeviceClient } from '../test/helpers/device';

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

const relayAt = (dataDir: string) =>
  createRelay({ port: 0, host: '127.0.0.1', dataDir, repos: [], registryFile: path.join(dataDir, 'registry'), demo: false, logger: { info() {}, warn() {}, error() {} } });

function ask(relay: Relay, summary: string): Promise<string> {
  const token = fs.readFileSync(path.join(relay.dataDir, 'hook-token'), 'utf8').trim();
  const body = JSON.stringify({ session: 's', tool: 'Bash', summary, detail: summary, cwd: '/tmp', key: `k-${crypto.randomBytes(8).toString('hex')}`, timeoutMs: 30_000 });
  return new Promise((resolve, reject) => {
    const req = http.request(`${relay.url}/api/permissions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function round(device: DeviceClient, relay: Relay, summary: string): Promise<[number, number]> {
  const start = process.hrtime.bigint();
  const answered = ask(relay, summary);
  const card = await device.next('permission.request', (f) => f.request.summary === summary && f.request.status === 'pending', 30_000);
  const shown = ms(start);
  const decided = process.hrtime.bigint();
  await device.request({ type: 'permission.decide', request: card.request.id, decision: 'allow' });
  const reply = JSON.parse(await answered) as { decision?: string };
  if (reply.decision !== 'allow') throw new Error(`the hook got ${JSON.stringify(reply)}`);
  return [shown, ms(decided)];
}

async function main(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-fleet-prompts-'));
  const relays: Relay[] = [];
  try {
    const home = await relayAt(path.join(root, 'home'));
    relays.push(home);
    const member = await relayAt(path.join(root, 'member'));
    relays.push(member);
    await joinHome(member.dataDir, home.url, createJoinCode(home.dataDir, 'm').code, 'm');
    const device = await connectDevice(home);
    await device.request({ type: 'subscribe' });
    await device.next('machine.state', (f) => f.machine.online, 30_000);
    const N = 30;
    const figures: Record<'member' | 'home', [number[], number[]]> = { member: [[], []], home: [[], []] };
    for (let i = 0; i < N + 3; i++) {
      for (const where of ['member', 'home'] as const) {
        const [shown, decided] = await round(device, where === 'member' ? member : home, `${where} ${i}`);
        if (i < 3) continue; // warm-up
        figures[where][0].push(shown);
        figures[where][1].push(decided);
      }
    }
    await device.close();
    const rows = [
      ['prompt on a member: hook ask → card on the home device', median(figures.member[0])],
      ['allow on the home device → the member hook answered', median(figures.member[1])],
      ['prompt on the home: hook ask → card on the device', median(figures.home[0])],
      ['allow on the device → the home hook answered', median(figures.home[1])],
    ] as const;
    const width = Math.max(...rows.map((r) => r[0].length));
    process.stdout.write(`${'figure'.padEnd(width)}  p50 (ms, ${N} warm runs)\n`);
    for (const [name, value] of rows) process.stdout.write(`${name.padEnd(width)}  ${value.toFixed(1)}\n`);
  } finally {
    for (const r of relays.reverse()) await r.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
