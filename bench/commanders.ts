// Commander start latency (target ≤ 3 s): from Start pressed (the phone sends a
// signed commander.create) to the first output at that phone, and to the end of
// the first turn — with the REAL Claude Code CLI against the Messages API stand-in,
// and with the fake adapter to show the platform's own share. Run: npx tsx bench/commanders.ts
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRelay } from '../relay/server';
import { connectDevice } from '../test/helpers/device';
import { startMessagesApi } from '../test/stand-ins/messages-api';

const ROOT = path.resolve(__dirname, '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

interface Sample { ack: number; firstOutput: number; turnDone: number }

async function measure(adapter: 'claude' | 'fake', tmp: string): Promise<Sample[]> {
  const dataDir = path.join(tmp, `data-${adapter}`);
  const memos = path.join(tmp, 'allowed', 'memos');
  fs.mkdirSync(memos, { recursive: true });
  fs.mkdirSync(path.join(dataDir, 'adapters'), { recursive: true });
  if (adapter === 'fake') fs.symlinkSync(path.join(ROOT, 'test', 'stand-ins', 'fake-adapter'), path.join(dataDir, 'adapters', 'fake'));
  process.env.COMMANDR_AGENT_ADAPTER = adapter;
  const relay = await createRelay({
    port: 0, host: '127.0.0.1', dataDir, repos: [], registryFile: path.join(tmp, 'no-registry'), demo: false,
    allowRoots: [path.join(tmp, 'allowed')], appDir: path.join(tmp, 'no-app'),
  });
  const phone = await connectDevice(relay);
  const samples: Sample[] = [];
  try {
    for (let i = 0; i < RUNS; i += 1) {
      const t0 = performance.now();
      const ack = await phone.request({ type: 'commander.create', name: `bench ${i}`, referencePath: memos });
      const tAck = performance.now();
      const { id } = (ack.result as { commander: { id: string } }).commander;
      await phone.next('commander.output', (f) => f.commander === id, 60_000);
      const tOut = performance.now();
      await phone.next('commander.state', (f) => f.commander.id === id && f.commander.status === 'idle', 60_000);
      const tDone = performance.now();
      samples.push({ ack: tAck - t0, firstOutput: tOut - t0, turnDone: tDone - t0 });
      await phone.request({ type: 'commander.delete', commander: id });
    }
  } finally {
    await phone.close();
    await relay.close();
  }
  return samples;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${Math.round(x)} ms`.padStart(9);

function row(label: string, samples: Sample[], key: keyof Sample): string {
  const xs = samples.map((s) => s[key]);
  return `| ${label.padEnd(38)} | ${ms(median(xs))} | ${ms(Math.min(...xs))} | ${ms(Math.max(...xs))} |`;
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'adapters', 'claude', 'run.cjs'))) throw new Error('run `node scripts/build.mjs` first');
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-cmdr-')));
  const api = await startMessagesApi({ apiKey: 'sk-test', reply: () => ({ text: 'Oriented on the memos folder.' }) });
  Object.assign(process.env, {
    HOME: path.join(tmp, 'home'), FAKE_ADAPTER_HOME: path.join(tmp, 'home'), ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: 'sk-test',
    DISABLE_TELEMETRY: '1', DISABLE_AUTOUPDATER: '1', DISABLE_ERROR_REPORTING: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CLAUDE_CODE_MAX_RETRIES: '0', COMMANDR_CLAUDE_BIN: path.join(ROOT, 'node_modules', '.bin', 'claude'),
  });
  fs.mkdirSync(path.join(tmp, 'home'));
  try {
    const claude = await measure('claude', tmp);
    const fake = await measure('fake', tmp);
    console.log(`commander start, ${RUNS} runs each (target: first output ≤ 3000 ms)\n`);
    console.log('| measure (from Start pressed)           |    median |       min |       max |');
    console.log('|----------------------------------------|-----------|-----------|-----------|');
    console.log(row('claude: ack (record, dir, CLAUDE.md)', claude, 'ack'));
    console.log(row('claude: first output at the phone', claude, 'firstOutput'));
    console.log(row('claude: first turn finished (idle)', claude, 'turnDone'));
    console.log(row('fake adapter: first output', fake, 'firstOutput'));
    console.log(row('fake adapter: first turn finished', fake, 'turnDone'));
    const verdict = median(claude.map((s) => s.firstOutput)) <= 3000 ? 'MET' : 'MISSED';
    console.log(`\ntarget ≤ 3 s for first output with real Claude Code: ${verdict}`);
  } finally {
    await api.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
