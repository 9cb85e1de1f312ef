// Concurrency stress of the bus (CLAIM-2, EVENTS-1): many claimers draining one
// inbox, many writers appending to one log, all real processes on real files.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Install, World, buildInstall, packet, runAsync } from '../conformance/harness';

let install: Install;
let driver: string;
let world: World | undefined;
beforeAll(async () => {
  install = await buildInstall();
  const { build } = await import('esbuild');
  driver = path.join(install.root, 'append-driver.cjs');
  await build({ entryPoints: [path.join(__dirname, 'append-driver.ts')], outfile: driver, bundle: true, platform: 'node', format: 'cjs', logLevel: 'error' });
});
afterAll(() => {
  world?.cleanup();
  fs.rmSync(install.root, { recursive: true, force: true });
});

function exitOf(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('close', resolve);
  });
}

describe('bus stress', () => {
  it('CLAIM-2: 8 concurrent claim processes drain 300 packets; each is claimed exactly once with exactly one task_claimed', async () => {
    world = new World(install);
    const w = world;
    const total = 300;
    for (let i = 0; i < total; i++) w.write(`inbox/${String(i).padStart(4, '0')}.md`, packet({ id: `S-${i}` }));
    const claimers = Array.from({ length: 8 }, async () => {
      const won: string[] = [];
      for (;;) {
        const r = await runAsync(install.bin('claim'), [], { cwd: w.repo, env: w.env });
        if (r.code !== 0) throw new Error(`claim failed: ${r.stderr}`);
        if (r.stdout === 'inbox:empty\n') return won;
        won.push(r.stdout.split('\n')[0]!);
      }
    });
    const won = (await Promise.all(claimers)).flat();
    expect(won).toHaveLength(total);
    const originals = won.map((line) => path.basename(line).split('_').slice(2).join('_'));
    expect(new Set(originals).size).toBe(total);
    expect(w.list('inbox')).toEqual([]);
    expect(w.list('claimed')).toHaveLength(total);
    const claimed = w.events().filter((e) => e.event === 'task_claimed').map((e) => e.task as string);
    expect(claimed).toHaveLength(total);
    expect(new Set(claimed).size).toBe(total);
    w.cleanup();
    world = undefined;
  }, 300_000);

  it('EVENTS-1: 16 processes appending 1,000 progress events each leave 16,000 complete, parseable lines', async () => {
    world = new World(install);
    const w = world;
    const codes = await Promise.all(Array.from({ length: 16 }, (_, i) => exitOf(process.execPath, [driver, w.bus, String(i), '1000'], w.env)));
    expect(codes).toEqual(Array(16).fill(0));
    const text = w.eventsText();
    expect(text.endsWith('\n')).toBe(true);
    // A writer that sees the log end mid-line (another append still landing page by
    // page) starts on a fresh line; the blank lines that leaves are skipped by readers.
    const lines = text.split('\n').slice(0, -1).filter((l) => l.length > 0);
    expect(lines).toHaveLength(16_000);
    const perWorker = new Map<string, number[]>();
    for (const line of lines) {
      const e = JSON.parse(line) as { event: string; task: string; note: string };
      expect(e.event).toBe('task_progress');
      const step = Number(/step (\d+) of/.exec(e.note)![1]);
      perWorker.set(e.task, [...(perWorker.get(e.task) ?? []), step]);
    }
    expect(perWorker.size).toBe(16);
    // Each writer's own lines appear complete and in the order it wrote them.
    for (const steps of perWorker.values()) expect(steps).toEqual(Array.from({ length: 1000 }, (_, i) => i));
  }, 300_000);
});
