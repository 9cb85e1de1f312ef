// `adapters/opencode/run`: one headless OpenCode job from AGENT_* env (RUN-n). The
// permissions travel as inline config in OPENCODE_CONFIG_CONTENT, merged over any given.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { findBinary, runJob, runVendor, sessionAnnouncer, type JobInput } from '../../lib/run-job';
import { inlineConfig } from '../lib/permissions';
import { currentPluginSource } from '../lib/plugin-source';
import { withOpencodeMcp } from '../../mcp/wire';

async function main(input: JobInput): Promise<number> {
  // The reporting and permission plugin `wire` writes is git-ignored, so a job's checkout never
  // holds it: the job brings its own copy, in a private temp dir removed after the run (OCJOB-1).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'commandr-opencode-'));
  try {
    const pluginFile = path.join(dir, 'commandr.js');
    fs.writeFileSync(pluginFile, currentPluginSource(), { mode: 0o600 });
    const config = withPlugin(withOpencodeMcp(inlineConfig(process.env.OPENCODE_CONFIG_CONTENT, input.grants)), pathToFileURL(pluginFile).href);
    return await runOpencode(input, { ...process.env, OPENCODE_CONFIG_CONTENT: config });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The inline config with `plugin` (OpenCode 1.18: an array of specifiers) extended by `url`. */
function withPlugin(content: string, url: string): string {
  const doc = JSON.parse(content) as Record<string, unknown>;
  const given = Array.isArray(doc.plugin) ? doc.plugin.filter((p): p is string => typeof p === 'string') : [];
  return JSON.stringify({ ...doc, plugin: [...given, url] });
}

function runOpencode(input: JobInput, env: NodeJS.ProcessEnv): Promise<number> {
  const args = ['run', input.prompt, '--format', 'json'];
  if (input.resume) args.push('--session', input.resume);
  const announce = sessionAnnouncer();
  // The final text is the text of the last assistant message.
  let lastMessage: string | undefined;
  const texts = new Map<string, string[]>();
  let failed = false;
  const command = findBinary('opencode', process.env.COMMANDR_OPENCODE_BIN);
  return runVendor({ command, args, cwd: input.cwd, env }, {
    onObject(value) {
      announce(value.sessionID);
      const part = (value.part ?? {}) as Record<string, unknown>;
      if (value.type === 'text' && typeof part.text === 'string' && typeof part.messageID === 'string') {
        lastMessage = part.messageID;
        texts.set(part.messageID, [...(texts.get(part.messageID) ?? []), part.text]);
      }
      if (value.type === 'error') {
        failed = true;
        process.stderr.write(`run: opencode: ${JSON.stringify(value.error ?? value).slice(0, 2000)}\n`);
      }
    },
    finalText: () => (lastMessage ? texts.get(lastMessage)!.join('') : undefined),
    failedDespiteZero: () => failed,
  });
}

runJob('opencode', main);
