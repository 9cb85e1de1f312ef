// How soon an OpenCode tool call's live events reach the relay (LIVE-DELIVER-1). The generated
// plugin, loaded in a Node process that calls its hooks as `opencode run` does
// (test/stand-ins/opencode-host.ts), hands events to the real hook in batches, one batch at a
// time; this times each event from the moment the plugin saw it (its `seq`) to the moment a real
// relay in this process recorded it. Two shapes of turn: calls spaced as a model's answers space
// them (every 150 ms), and a burst (no pause at all), the worst case for one batch at a time.
// Reports medians and the worst over all rounds.
// `npx tsx bench/opencode-events.ts [rounds=5] [calls=5] [plugin.mjs]`: with a plugin file (one an
// older `wire` wrote, its paths this checkout's), that one is timed instead of the current one.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pluginSource } from '../adapters/opencode/lib/plugin-source';
import { createRelay } from '../relay/server';
import { writeOpenCodeHost } from '../test/stand-ins/opencode-host';
import { makeBenchRepo, median } from './lib/claude-turns';

const ROOT = path.resolve(__dirname, '..');

const nowUs = (): number => (performance.timeOrigin + performance.now()) * 1000;

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 5);
  const calls = Number(process.argv[3] ?? 5);
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-oc-events-')));
  const data = path.join(base, 'data');
  const home = path.join(base, 'home');
  fs.mkdirSync(home);
  const relay = await createRelay({ port: 0, host: '127.0.0.1', demo: false, repos: [], dataDir: data, registryFile: path.join(base, 'none'), appDir: path.join(base, 'no-app') });
  // When each event of a session reached the relay's record, in µs since the epoch.
  const arrived = new Map<string, Array<{ seq: number; at: number; kind: string; running: boolean }>>();
  const record = relay.services.live.record.bind(relay.services.live);
  relay.services.live.record = (event, at) => {
    const list = arrived.get(event.session) ?? [];
    list.push({ seq: event.seq ?? 0, at: nowUs(), kind: event.kind, running: event.running === true });
    arrived.set(event.session, list);
    return record(event, at);
  };
  try {
    const repo = makeBenchRepo(base, 'r');
    // The real hook; the plugin's permission step (its sibling) is not what is timed here: one that gives no verdict.
    const hooks = path.join(base, 'hooks');
    fs.mkdirSync(hooks);
    fs.symlinkSync(path.join(ROOT, 'adapters', 'opencode', 'hooks', 'hook'), path.join(hooks, 'hook'));
    fs.writeFileSync(path.join(hooks, 'permission'), '');
    const plugin = path.join(base, 'commandr.mjs');
    const given = process.argv[4];
    fs.writeFileSync(plugin, given ? fs.readFileSync(given, 'utf8').replace(/^const HOOK = .*$/m, `const HOOK = ${JSON.stringify(path.join(hooks, 'hook'))};`) : pluginSource(process.execPath, path.join(hooks, 'hook'), { type: 'local', command: ['true'] }));
    const host = writeOpenCodeHost(base);
    const env = { PATH: process.env.PATH, HOME: home, COMMANDR_HOME: data, COMMANDR_URL: relay.url, AGENTS_TASK_ID: 'T-bench' } as unknown as NodeJS.ProcessEnv;
    const expected = calls * 2 + 2;
    const rows: string[] = [];
    for (const [shape, gapMs] of [['spaced 150 ms', 150], ['burst', 0]] as const) {
      const lags: number[] = [];
      let worst = { ms: 0, kind: '' };
      const lasts: number[] = [];
      for (let r = 0; r < rounds; r++) {
        const session = `ses-${shape.split(' ')[0]}-${r}`;
        await new Promise<void>((resolve, reject) => {
          const child = spawn(process.execPath, [host, plugin, repo, session, String(calls), String(gapMs)], { cwd: repo, env, stdio: 'ignore' });
          child.on('error', reject);
          child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the OpenCode stand-in exited ${code}`))));
        });
        const deadline = Date.now() + 60_000;
        while ((arrived.get(session)?.length ?? 0) < expected) {
          if (Date.now() > deadline) throw new Error(`${session}: ${arrived.get(session)?.length ?? 0} of ${expected} events`);
          await new Promise((r) => setTimeout(r, 10));
        }
        const events = arrived.get(session)!;
        // Every event but the session's end (OpenCode's exit, not a call) and the closing ones without seq.
        for (const e of events) {
          if (e.kind === 'end' || e.seq <= 0) continue;
          const ms = (e.at - e.seq) / 1000;
          lags.push(ms);
          if (ms > worst.ms) worst = { ms, kind: `${e.kind}${e.running ? ' (start)' : ''}` };
        }
        const first = Math.min(...events.filter((e) => e.seq > 0).map((e) => e.seq));
        lasts.push((Math.max(...events.filter((e) => e.kind === 'idle').map((e) => e.at)) - first) / 1000);
      }
      rows.push(`| ${shape} | ${lags.length} | ${median(lags).toFixed(0)} ms | ${worst.ms.toFixed(0)} ms (${worst.kind}) | ${median(lasts).toFixed(0)} ms |`);
    }
    process.stdout.write(`OpenCode plugin${process.argv[4] ? ` ${process.argv[4]}` : ''} → relay, ${calls} calls a turn, ${rounds} turns a shape, warm; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
    process.stdout.write('| turn | events | seen → recorded, median | worst | first event → idle recorded, median |\n|---|---|---|---|---|\n');
    process.stdout.write(rows.join('\n') + '\n');
  } finally {
    await relay.close();
    fs.rmSync(base, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
