// `adapters/claude/run`: one headless Claude Code job from AGENT_* env (RUN-n). The
// permissions are a generated settings file in a temp dir, passed with --settings.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findBinary, runJob, runVendor, sessionAnnouncer, type JobInput } from '../../lib/run-job';
import { claudeSettings } from '../lib/permissions';
import { editRoots } from '../../lib/permission-roots';
import { wiredHookSpecs } from '../lib/permission-spec';
import { mergeHooks } from '../lib/settings-merge';
import { jobMcpConfig } from '../../mcp/wire';

async function main(input: JobInput): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'commandr-claude-'));
  try {
    // The permission hook reads the job's mode and roots from its environment (GUARD-8).
    // MCP-ONE-8: headless Claude Code starts the turn after 5 s without a server that has not
    // connected yet; on a busy machine the commandr server can take longer, and the job would
    // run without its tools. 30 s, unless the environment says otherwise.
    const jobEnv = { MCP_CONNECT_TIMEOUT_MS: '30000', ...process.env, AGENT_MODE: input.grants.mode, AGENT_CWD: input.cwd };
    const settingsFile = path.join(dir, 'settings.json');
    // The reporting and permission hooks travel with the job's own settings (JOB-5): a job
    // reports whatever the checkout holds. Identical hooks from a committed .claude/settings.json
    // are the same commands, which Claude Code runs once. Edits stay under the job's roots (GUARD-8).
    const grants = claudeSettings(input.grants, editRoots(jobEnv));
    grants.permissions.allow.push('mcp__commandr'); // the commandr tools (MCP-8): every intent may use them
    const settings = mergeHooks(grants as unknown as Record<string, unknown>, wiredHookSpecs()).settings;
    fs.writeFileSync(settingsFile, JSON.stringify(settings, null, 2) + '\n', { mode: 0o600 });
    const mcpFile = path.join(dir, 'mcp.json');
    fs.writeFileSync(mcpFile, JSON.stringify(jobMcpConfig()) + '\n', { mode: 0o600 });
    const args = ['-p', input.prompt, '--output-format', 'stream-json', '--verbose', '--settings', settingsFile, '--mcp-config', mcpFile];
    if (input.resume) args.push('--resume', input.resume);
    const announce = sessionAnnouncer();
    let result: Record<string, unknown> | undefined;
    // Assistant text goes out as it arrives, so a phone watching the job sees it live;
    // the result repeats the last of it, which is then not printed twice.
    let streamed = '';
    const command = findBinary('claude', process.env.COMMANDR_CLAUDE_BIN);
    return await runVendor({ command, args, cwd: input.cwd, env: jobEnv }, {
      onObject(value) {
        if (value.type === 'system' && value.subtype === 'init') announce(value.session_id);
        if (value.type === 'assistant') {
          const text = assistantText(value);
          if (text.trim() !== '') {
            process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
            streamed = text;
          }
        }
        if (value.type === 'result') {
          result = value;
          reportDenials(value.permission_denials);
        }
      },
      finalText: () => {
        const text = typeof result?.result === 'string' ? result.result : undefined;
        return text !== undefined && text.trim() === streamed.trim() ? undefined : text;
      },
      failedDespiteZero: () => result === undefined || result.is_error === true,
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The text blocks of one `assistant` line of stream-json. */
function assistantText(value: Record<string, unknown>): string {
  const content = (value.message as { content?: unknown } | undefined)?.content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((b): b is { type: 'text'; text: string } => !!b && (b as { type?: unknown }).type === 'text' && typeof (b as { text?: unknown }).text === 'string')
    .map((b) => b.text)
    .join('');
}

/** Denied tool calls go to stderr so the job log says why something did not happen. */
function reportDenials(denials: unknown): void {
  if (!Array.isArray(denials)) return;
  for (const d of denials as Array<{ tool_name?: unknown; tool_input?: { command?: unknown; file_path?: unknown } }>) {
    const what = d.tool_input?.command ?? d.tool_input?.file_path ?? '';
    process.stderr.write(`run: claude: denied ${String(d.tool_name)} ${String(what).slice(0, 200)}\n`);
  }
}

runJob('claude', main);
