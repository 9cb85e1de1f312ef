// `adapters/claude/run`: one headless Claude Code job from AGENT_* env (RUN-n). The
// permissions are a generated settings file in a temp dir, passed with --settings.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findBinary, runJob, runVendor, sessionAnnouncer, type JobInput } from '../../lib/run-job';
import { claudeSettings } from '../lib/permissions';

async function main(input: JobInput): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'commandr-claude-'));
  try {
    const settingsFile = path.join(dir, 'settings.json');
    fs.writeFileSync(settingsFile, JSON.stringify(claudeSettings(input.grants), null, 2) + '\n', { mode: 0o600 });
    const args = ['-p', input.prompt, '--output-format', 'stream-json', '--verbose', '--settings', settingsFile];
    if (input.resume) args.push('--resume', input.resume);
    const announce = sessionAnnouncer();
    let result: Record<string, unknown> | undefined;
    const command = findBinary('claude', process.env.COMMANDR_CLAUDE_BIN);
    return await runVendor({ command, args, cwd: input.cwd, env: process.env }, {
      onObject(value) {
        if (value.type === 'system' && value.subtype === 'init') announce(value.session_id);
        if (value.type === 'result') result = value;
      },
      finalText: () => (typeof result?.result === 'string' ? result.result : undefined),
      failedDespiteZero: () => result === undefined || result.is_error === true,
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

runJob('claude', main);
