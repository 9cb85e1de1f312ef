// SBXDEF-6 through the real hook: Claude Code's `report` hook (bash) sends COMMANDR_SANDBOX with its
// record, and the relay's event for it says `sandbox: on`; without it, in a project without Claude
// Code's sandbox, `off`. A real relay on port 0, the real hook script, a real temp project.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, startRelay, tempDir } from '../relay-core/setup';

const REPORT = path.resolve(__dirname, '..', '..', 'adapters', 'claude', 'hooks', 'report');
afterEach(cleanup);

function runHook(env: Record<string, string>, payload: object): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(REPORT, ['PreToolUse'], { env: { PATH: process.env.PATH!, ...env } as unknown as NodeJS.ProcessEnv, stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('error', reject);
    child.on('exit', resolve);
    child.stdin.end(JSON.stringify(payload));
  });
}

describe('hook report carries the sandbox', () => {
  it('SBXDEF-6: the report hook\'s COMMANDR_SANDBOX reaches the relay, whose live event says on; without it, off', async () => {
    const relay = await startRelay();
    const project = tempDir('commandr-sbxhook-');
    const base = { HOME: project, COMMANDR_HOME: relay.dataDir, CLAUDE_PROJECT_DIR: project };
    const call = (session: string) => ({ session_id: session, cwd: project, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: `t-${session}` });
    expect(await runHook({ ...base, COMMANDR_SANDBOX: 'bwrap' }, call('s-on'))).toBe(0);
    expect(await runHook(base, call('s-off'))).toBe(0);
    // The hook waits for the relay's 200 (REPORT-1), so the events are there when it exits.
    expect(relay.services.live.recent('s-on').map((s) => s.event.sandbox)).toEqual(['on']);
    expect(relay.services.live.recent('s-off').map((s) => s.event.sandbox)).toEqual(['off']);
    const spool = path.join(relay.dataDir, 'hook-state', 'spool');
    expect(fs.existsSync(spool) ? fs.readdirSync(spool).filter((f) => /^\d/.test(f)) : []).toEqual([]); // sent, not spooled
  });
});
