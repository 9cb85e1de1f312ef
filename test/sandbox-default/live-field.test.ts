// The live event's `sandbox` field (SBXDEF-6): declared once in protocol/live-events.ts, and set by
// the hook on every event it builds from what it can see — COMMANDR_SANDBOX, or Claude Code's own
// sandbox in the project's settings (Claude Code only). Real settings files in a temp project.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LiveEvent } from '../../protocol/live-events';
import { idleEvent, toolStartEvent } from '../../adapters/lib/hook-actions';
import { writeSandboxSettings } from '../../policy/sandbox';
import { tempDir } from '../permissions/helpers';

const cleanups: Array<() => unknown> = [];
afterEach(() => { while (cleanups.length) cleanups.pop()!(); });

const base = { v: 1, session: 's1', kind: 'command', summary: 'ls' } as const;

describe('live event: sandbox field', () => {
  it('SBXDEF-6: the schema takes sandbox on or off, or none, and nothing else', () => {
    expect(LiveEvent.safeParse({ ...base, sandbox: 'on' }).success).toBe(true);
    expect(LiveEvent.safeParse({ ...base, sandbox: 'off' }).success).toBe(true);
    expect(LiveEvent.safeParse(base).success).toBe(true);
    for (const bad of ['maybe', '', true, 1, null]) expect(LiveEvent.safeParse({ ...base, sandbox: bad }).success, String(bad)).toBe(false);
  });

  it('SBXDEF-6: a Claude Code hook says off until the project turns the sandbox on, and on with COMMANDR_SANDBOX; OpenCode only by COMMANDR_SANDBOX', () => {
    const root = tempDir('commandr-sbxlive-', cleanups);
    const project = path.join(root, 'app');
    fs.mkdirSync(project);
    const home = path.join(root, 'home');
    const ref = { session: 's1', cwd: project };
    const call = { tool: 'Bash', input: { command: 'ls' } };
    const claude = { HOME: root, COMMANDR_HOME: home, CLAUDE_PROJECT_DIR: project };
    const opencode = { HOME: root, COMMANDR_HOME: home };
    expect(toolStartEvent(ref, call, claude).sandbox).toBe('off');
    expect(toolStartEvent(ref, call, { ...claude, COMMANDR_SANDBOX: 'bwrap' }).sandbox).toBe('on');
    writeSandboxSettings(project, { dataDir: home, publicKey: path.join(home, 'approval', 'public.pem') });
    const on = idleEvent(ref, claude);
    expect(on.sandbox).toBe('on');
    expect(LiveEvent.safeParse(on).success).toBe(true);
    // OpenCode never reads .claude/: the same project's settings do not sandbox it.
    expect(toolStartEvent(ref, call, opencode).sandbox).toBe('off');
    expect(toolStartEvent(ref, call, { ...opencode, COMMANDR_SANDBOX: 'bwrap' }).sandbox).toBe('on');
  });
});
