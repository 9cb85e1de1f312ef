// Live events on a slow relay from a SANDBOXED OpenCode job (LIVE-DELIVER-4, SANDBOX-5): the REAL
// `opencode run` through the opencode adapter's `run` inside the real OS sandbox, as the relay
// starts every job, its plugin's hooks posting through a loopback proxy that answers after 1 s.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { adapterBin, eventually, OPENCODE_BIN, opencodeEnv, runSandboxed } from '../adapters/harness';
import { planChat } from '../adapters/opencode-script';
import { useOpenCodeWorld } from '../adapters/world';
import { slowRelay } from './slow-relay';

const TASK = 'T-oc-boxed-slow';
const w = useOpenCodeWorld({ wired: false });
const kindsOf = (session: string) => w.relay.live().filter((e) => e.session === session).map((e) => (e.running ? `${e.kind}:running` : e.kind));

describe('a sandboxed OpenCode job on a slow relay', () => {
  it('LIVE-DELIVER-4: with the relay answering live events after 1 s, every event of a sandboxed OpenCode job arrives once, in order, though the job ended first', { timeout: 300_000 }, async () => {
    const slow = await slowRelay(w.relay.relay.url, { delayMs: 1000 });
    const token = fs.readFileSync(path.join(w.h.commandrHome, 'hook-token'), 'utf8').trim();
    planChat(w.api, [
      { name: 'bash', arguments: { command: 'touch boxed-1.txt', description: 'first file' } },
      { name: 'bash', arguments: { command: 'touch boxed-2.txt', description: 'second file' } },
    ], 'job finished');
    const ran = await runSandboxed(adapterBin('opencode', 'run'), [], {
      cwd: w.repo, repo: w.repo, dataDir: w.h.commandrHome, timeoutMs: 240_000,
      env: opencodeEnv(w.h, w.api.url, {
        COMMANDR_OPENCODE_BIN: OPENCODE_BIN, AGENT_CWD: w.repo, AGENT_PROMPT: 'make the files', AGENT_MODE: 'work', AGENT_COMMANDS: 'touch',
        COMMANDR_TASK: TASK, COMMANDR_AGENT_ID: 'opencode-boxed-1', COMMANDR_URL: slow.url, COMMANDR_HOOK_TOKEN: token,
      }),
    });
    expect(ran.code, ran.stderr.slice(-2000)).toBe(0);
    expect(fs.existsSync(path.join(w.repo, 'boxed-2.txt'))).toBe(true);
    const session = /^SESSION: (\S+)$/m.exec(ran.stdout)![1]!;
    const expected = ['command:running', 'command', 'command:running', 'command', 'idle', 'end'];
    await eventually(() => kindsOf(session).length >= expected.length || undefined, 60_000, () => `all ${expected.length} events (have ${kindsOf(session).join(',')})`);
    const kept = w.relay.relay.services.live.recent(session).map((s) => s.event);
    expect(kept.map((e) => (e.running ? `${e.kind}:running` : e.kind))).toEqual(expected);
  });
});
