// Whether the agent's commands run inside an OS sandbox (POLPATH-5): Commandr's own
// wrapper (`COMMANDR_SANDBOX` set for the whole agent process tree) or Claude Code's
// sandbox turned on for the project. Commands that run the project's own code (tests,
// package scripts) are allowed unasked only then: that code is the agent's to write.
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface SandboxState {
  sandboxed: boolean;
  /** What decided, for `commandr policy check` and the card: `COMMANDR_SANDBOX=bwrap`, … */
  why: string;
}

export interface SandboxOptions {
  /**
   * Whether Claude Code's own sandbox can apply to this call: false for another agent CLI
   * (OpenCode never reads `.claude/`) and for a Bash call with `dangerouslyDisableSandbox`.
   */
  claude?: boolean;
}

/** `sandbox.enabled` of one Claude Code settings file; undefined when the file does not say. */
function claudeSetting(file: string): { enabled: boolean; excludes: boolean } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  const sandbox = (parsed as { sandbox?: unknown } | null)?.sandbox;
  if (typeof sandbox !== 'object' || sandbox === null || typeof (sandbox as { enabled?: unknown }).enabled !== 'boolean') return undefined;
  const excluded = (sandbox as { excludedCommands?: unknown }).excludedCommands;
  return { enabled: (sandbox as { enabled: boolean }).enabled, excludes: Array.isArray(excluded) && excluded.length > 0 };
}

/** Claude Code's sandbox for the project: the local file overrides the shared one, as Claude Code reads them. */
function claudeSandbox(projectDir: string): { on: boolean; why: string } {
  for (const name of ['settings.local.json', 'settings.json']) {
    const file = path.join(projectDir, '.claude', name);
    const setting = claudeSetting(file);
    if (!setting) continue;
    if (!setting.enabled) return { on: false, why: `Claude Code sandbox off in .claude/${name}` };
    // Commands it excludes run outside the sandbox, and which those are is the project's to say.
    if (setting.excludes) return { on: false, why: `Claude Code sandbox in .claude/${name} excludes some commands` };
    return { on: true, why: `Claude Code sandbox on in .claude/${name}` };
  }
  return { on: false, why: 'Claude Code sandbox off' };
}

/** Whether, and why, the agent runs sandboxed. */
export function sandboxState(env: Record<string, string | undefined>, projectDir: string | undefined, options: SandboxOptions = {}): SandboxState {
  const value = env.COMMANDR_SANDBOX?.trim();
  if (value && !/^(0|off)$/i.test(value)) return { sandboxed: true, why: `COMMANDR_SANDBOX=${value}` };
  const own = value ? `COMMANDR_SANDBOX=${value}` : 'no COMMANDR_SANDBOX';
  if (options.claude === false) return { sandboxed: false, why: `${own}, Claude Code sandbox does not apply` };
  const claude = projectDir ? claudeSandbox(projectDir) : { on: false, why: 'Claude Code sandbox off' };
  return claude.on ? { sandboxed: true, why: claude.why } : { sandboxed: false, why: `${own}, ${claude.why}` };
}

/** True when the agent's commands run inside an OS sandbox (Commandr's or Claude Code's). */
export function agentSandboxed(env: Record<string, string | undefined>, projectDir: string | undefined, options: SandboxOptions = {}): boolean {
  return sandboxState(env, projectDir, options).sandboxed;
}
