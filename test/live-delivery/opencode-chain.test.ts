// The OpenCode plugin's hook processes hand over live events in the order they happened even
// when the machine starts them out of order (LIVE-DELIVER-1). The generated plugin runs in a
// real Node process standing in for OpenCode (it calls the plugin's hooks as OpenCode does, then
// exits right after `dispose`); its hook is the real hook behind a wrapper that makes the first
// hook process slow to get going, as a process starved by a busy machine is. The plugin starts
// the next batch only once the one before has queued its events, so nothing overtakes it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pluginSource } from '../../adapters/opencode/lib/plugin-source';
import { eventually, ROOT, runProcess, tempDir } from '../adapters/harness';
import { hookWorld } from '../adapters/world';

const REAL_HOOK = path.join(ROOT, 'adapters', 'opencode', 'hooks', 'hook');
const SLOW_START_MS = 1500;

/** A hook that is the real one, with this world's environment; the first process of it starts `SLOW_START_MS` late. */
function slowFirstHook(dir: string, env: Record<string, string | undefined>): string {
  fs.writeFileSync(path.join(dir, 'env.json'), JSON.stringify(env));
  fs.writeFileSync(path.join(dir, 'hook'), `
const fs = require('node:fs');
const path = require('node:path');
Object.assign(process.env, JSON.parse(fs.readFileSync(path.join(__dirname, 'env.json'), 'utf8')));
let first = true;
try { fs.mkdirSync(path.join(__dirname, 'slowed')); } catch { first = false; }
if (first) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${SLOW_START_MS});
require(${JSON.stringify(REAL_HOOK)});
`);
  // The plugin's permission step (a sibling named \`permission\`): no verdict, OpenCode's own rules.
  fs.writeFileSync(path.join(dir, 'permission'), '');
  return path.join(dir, 'hook');
}

/** Calls the plugin's hooks as \`opencode run\` does for `calls` shell commands, then disposes it and exits. */
const DRIVER = `
const [plugin, repo, session, calls] = process.argv.slice(2);
const { Commandr } = await import(plugin);
const quiet = async () => {};
const hooks = await Commandr({ client: { app: { log: quiet }, tui: { showToast: quiet } }, directory: repo, worktree: repo });
const status = (type) => hooks.event({ event: { type: 'session.status', properties: { sessionID: session, status: { type } } } });
await status('busy');
for (let i = 1; i <= Number(calls); i++) {
  const input = { sessionID: session, callID: 'call-' + i, tool: 'bash' };
  const args = { command: 'touch chain-' + i + '.txt' };
  await hooks['tool.execute.before'](input, { args });
  await hooks['tool.execute.after']({ ...input, args }, { output: '', metadata: { exit: 0 } });
}
await status('idle');
await hooks.dispose();
`;

describe('OpenCode plugin: hook processes in order', () => {
  it('LIVE-DELIVER-1: when the first hook process starts late, the events after it still reach the relay after it, in the order they happened', { timeout: 60_000 }, async () => {
    const w = await hookWorld({ relay: true });
    const dir = tempDir('commandr-oc-chain-');
    const hook = slowFirstHook(dir, { HOME: w.h.home, COMMANDR_HOME: w.h.commandrHome, COMMANDR_URL: w.relay.relay.url, PATH: process.env.PATH });
    const plugin = path.join(dir, 'commandr.mjs');
    fs.writeFileSync(plugin, pluginSource(process.execPath, hook, { type: 'local', command: ['true'] }));
    const driver = path.join(dir, 'driver.mjs');
    fs.writeFileSync(driver, DRIVER);
    const session = 'ses-chain';
    const ran = await runProcess(process.execPath, [driver, plugin, w.repo, session, '3'], { cwd: w.repo, env: { PATH: process.env.PATH, HOME: w.h.home } });
    expect(ran.code, ran.stderr).toBe(0);

    const kinds = () => w.relay.live().filter((e) => e.session === session).map((e) => (e.running ? `${e.cmd}:running` : `${e.kind}${e.cmd ? ` ${e.cmd}` : ''}`));
    await eventually(() => kinds().includes('end') || undefined, 30_000, 'the session end');
    expect(kinds()).toEqual([
      'touch chain-1.txt:running', 'command touch chain-1.txt',
      'touch chain-2.txt:running', 'command touch chain-2.txt',
      'touch chain-3.txt:running', 'command touch chain-3.txt',
      'idle', 'end',
    ]);
    const seqs = w.relay.live().filter((e) => e.session === session).map((e) => e.seq!);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    // The late process really was the first one, and it did start late.
    expect(fs.existsSync(path.join(dir, 'slowed'))).toBe(true);
  });
});
