// The OpenCode plugin's hook processes hand over live events in the order they happened even
// when the machine starts them out of order (LIVE-DELIVER-1). The generated plugin runs in a
// real Node process standing in for OpenCode (`stand-ins/opencode-host.ts`: it calls the plugin's
// hooks as OpenCode does, then exits right after `dispose`); its hook is the real hook behind a wrapper that can make the first
// hook process slow to get going, as a process starved by a busy machine is. The plugin starts
// the next batch only once the one before has queued its events, so nothing overtakes it; a hook
// that cannot queue (a sandboxed job's) posts before it says so.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SWEEP_GRACE_MS } from '../../adapters/lib/tool-order';
import { pluginSource } from '../../adapters/opencode/lib/plugin-source';
import { eventually, ROOT, runProcess, tempDir } from '../adapters/harness';
import { hookWorld } from '../adapters/world';
import { writeOpenCodeHost } from '../stand-ins/opencode-host';
import { slowRelay } from './slow-relay';

const REAL_HOOK = path.join(ROOT, 'adapters', 'opencode', 'hooks', 'hook');
const SLOW_START_MS = 1500;

/** A hook that is the real one, with this world's environment; with `slowFirst`, the first process of it starts `SLOW_START_MS` late. */
function wrappedHook(dir: string, env: Record<string, string | undefined>, slowFirst: boolean): string {
  fs.writeFileSync(path.join(dir, 'env.json'), JSON.stringify(env));
  fs.writeFileSync(path.join(dir, 'hook'), `
const fs = require('node:fs');
const path = require('node:path');
Object.assign(process.env, JSON.parse(fs.readFileSync(path.join(__dirname, 'env.json'), 'utf8')));
let first = ${slowFirst};
if (first) try { fs.mkdirSync(path.join(__dirname, 'slowed')); } catch { first = false; }
if (first) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${SLOW_START_MS});
require(${JSON.stringify(REAL_HOOK)});
`);
  // The plugin's permission step (a sibling named \`permission\`): no verdict, OpenCode's own rules.
  fs.writeFileSync(path.join(dir, 'permission'), '');
  return path.join(dir, 'hook');
}

const EXPECTED = [
  'touch call-1.txt:running', 'command touch call-1.txt',
  'touch call-2.txt:running', 'command touch call-2.txt',
  'touch call-3.txt:running', 'command touch call-3.txt',
  'idle', 'end',
];

interface ChainOptions {
  /** The first hook process starts `SLOW_START_MS` late. */
  slowFirst: boolean;
  /** False: a file where the outbox would be, as a sandboxed job's hook finds it (the data dir hidden). */
  outboxWritable: boolean;
  /** The URL the hooks post to, given the relay's. */
  relayUrl?: (url: string) => Promise<string>;
  /** The turn ends only once the relay has this many events of the session (so the plugin's batches are not started by its exit). */
  turnEndsAfter?: number;
}

/** Runs three calls and a turn end through the plugin and returns what the relay got of the session. */
async function runChain(options: ChainOptions): Promise<{ kinds: string[]; seqs: number[] }> {
  const w = await hookWorld({ relay: true });
  const url = options.relayUrl ? await options.relayUrl(w.relay.relay.url) : w.relay.relay.url;
  if (!options.outboxWritable) {
    fs.mkdirSync(path.join(w.h.commandrHome, 'hook-state'), { recursive: true });
    fs.writeFileSync(path.join(w.h.commandrHome, 'hook-state', 'outbox'), '');
  }
  const dir = tempDir('commandr-oc-chain-');
  const hook = wrappedHook(dir, { HOME: w.h.home, COMMANDR_HOME: w.h.commandrHome, COMMANDR_URL: url, PATH: process.env.PATH }, options.slowFirst);
  const plugin = path.join(dir, 'commandr.mjs');
  fs.writeFileSync(plugin, pluginSource(process.execPath, hook, { type: 'local', command: ['true'] }));
  const host = writeOpenCodeHost(dir);
  const session = 'ses-chain';
  const go = path.join(dir, 'go');
  const mine = () => w.relay.live().filter((e) => e.session === session);
  const kinds = () => mine().map((e) => (e.running ? `${e.cmd}:running` : `${e.kind}${e.cmd ? ` ${e.cmd}` : ''}`));
  const running = runProcess(process.execPath, [host, plugin, w.repo, session, '3', '0', ...(options.turnEndsAfter ? [go] : [])], { cwd: w.repo, env: { PATH: process.env.PATH, HOME: w.h.home } });
  if (options.turnEndsAfter) {
    await eventually(() => mine().length >= options.turnEndsAfter! || undefined, 30_000, () => `${options.turnEndsAfter} events before the turn ends (have ${kinds().join(', ')})`);
    fs.writeFileSync(go, '');
  }
  const ran = await running;
  expect(ran.code, ran.stderr).toBe(0);
  await eventually(() => kinds().includes('end') || undefined, 30_000, () => `the session end (have ${kinds().join(', ')})`);
  // The late process really was the first one, and it did start late.
  expect(fs.existsSync(path.join(dir, 'slowed'))).toBe(options.slowFirst);
  return { kinds: kinds(), seqs: mine().map((e) => e.seq!) };
}

describe('OpenCode plugin: hook processes in order', () => {
  it('LIVE-DELIVER-1: when the first hook process starts late, the events after it still reach the relay after it, in the order they happened', { timeout: 60_000 }, async () => {
    const { kinds, seqs } = await runChain({ slowFirst: true, outboxWritable: true });
    expect(kinds).toEqual(EXPECTED);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
  });

  it('LIVE-DELIVER-1: a hook that cannot write the outbox (a sandboxed job\'s) posts its events before the next batch starts, so a slow first answer keeps its place', { timeout: 60_000 }, async () => {
    const { kinds } = await runChain({
      slowFirst: false,
      outboxWritable: false,
      relayUrl: async (url) => (await slowRelay(url, { delayMs: 0, firstDelayMs: SLOW_START_MS })).url,
      turnEndsAfter: 2,
    });
    expect(kinds).toEqual(EXPECTED);
  });

  it('LIVE-EMIT-5 LIVE-DELIVER-1: with a plugin wired before batches (one hook process an event), the turn\'s idle reaches the relay at once, and a call that never ended is closed after the 3 s its end hook is given', { timeout: 60_000 }, async () => {
    const w = await hookWorld({ relay: true });
    const env = { PATH: process.env.PATH, HOME: w.h.home, COMMANDR_HOME: w.h.commandrHome, COMMANDR_URL: w.relay.relay.url };
    const session = 'ses-one-a-process';
    const mine = () => w.relay.live().filter((e) => e.session === session);
    const started = await runProcess(REAL_HOOK, ['tool-start'], { cwd: w.repo, env, input: JSON.stringify({ session, cwd: w.repo, call: 'denied', tool: 'bash', args: { command: 'rm -rf /' }, at: Date.now() * 1000 }) });
    expect(started.code).toBe(0);
    const ending = runProcess(REAL_HOOK, ['idle'], { cwd: w.repo, env, input: JSON.stringify({ session, cwd: w.repo, at: Date.now() * 1000 }) });
    await eventually(() => mine().some((e) => e.kind === 'idle') || undefined, 30_000, 'the idle');
    const idleSeen = Date.now();
    await eventually(() => mine().some((e) => e.kind === 'command' && e.ok === false) || undefined, 30_000, 'the closing of the call that never ended');
    // The closing waited for the grace; the idle did not wait with it.
    expect(Date.now() - idleSeen).toBeGreaterThanOrEqual(SWEEP_GRACE_MS - 1000);
    expect((await ending).code).toBe(0);
    expect(mine().map((e) => (e.running ? `${e.kind}:running` : e.kind))).toEqual(['command:running', 'idle', 'command']);
  });
});
