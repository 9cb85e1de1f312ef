// Live events on a slow relay from a CLI run by hand in the sandbox (`commandr sandbox`, SANDBOX-7,
// LIVE-DELIVER-4): the REAL Claude Code in a wired repo, started through the built `commandr
// sandbox`, whose hooks reach the relay through a loopback proxy that answers after 1 s (the
// relay's recorded address, relay.json, names the proxy).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { planTurn } from '../adapters/claude-script';
import { CLAUDE_BIN, claudeEnv, eventually, ROOT, runProcess } from '../adapters/harness';
import { useClaudeWorld } from '../adapters/world';
import { slowRelay } from './slow-relay';

const TASK = 'T-sandbox-cli-slow';
const w = useClaudeWorld();
const kindsOf = (session: string) => w.relay.live().filter((e) => e.session === session).map((e) => (e.running ? `${e.kind}:running` : e.kind));

describe('a CLI run by hand in the sandbox, on a slow relay', () => {
  it('LIVE-DELIVER-4: `commandr sandbox -- claude` exits only once its hooks delivered: every event arrives once, in order', { timeout: 240_000 }, async () => {
    const slow = await slowRelay(w.relay.relay.url, { delayMs: 1000 });
    const infoFile = path.join(w.h.commandrHome, 'relay.json');
    const info = fs.readFileSync(infoFile, 'utf8');
    fs.writeFileSync(infoFile, JSON.stringify({ ...JSON.parse(info), url: slow.url }));
    try {
      planTurn(w.api, [{ name: 'Bash', input: { command: 'touch by-hand.txt' } }], 'done by hand');
      const ran = await runProcess(path.join(ROOT, 'bin', 'commandr'), ['sandbox', '--', CLAUDE_BIN, '-p', 'go', '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Bash(touch:*)'], {
        cwd: w.repo, env: claudeEnv(w.h, w.api.url, { AGENTS_TASK_ID: TASK, AGENT_COMMANDS: 'touch' }), timeoutMs: 180_000,
      });
      expect(ran.code, ran.stderr.slice(-2000)).toBe(0);
      expect(ran.stderr.split('\n')[0]).toMatch(/^commandr: sandbox \(bwrap\)/);
      expect(fs.existsSync(path.join(w.repo, 'by-hand.txt'))).toBe(true);
      const session = ran.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((o) => o.type === 'system').session_id as string;
      const expected = ['command:running', 'command', 'idle', 'end'];
      await eventually(() => kindsOf(session).length >= expected.length || undefined, 60_000, () => `all ${expected.length} events (have ${kindsOf(session).join(',')})`);
      const kept = w.relay.relay.services.live.recent(session).map((s) => s.event);
      expect(kept.map((e) => (e.running ? `${e.kind}:running` : e.kind))).toEqual(expected);
    } finally {
      fs.writeFileSync(infoFile, info);
    }
  });
});
