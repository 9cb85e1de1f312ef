// `adapters/opencode/run`: one headless OpenCode job from AGENT_* env (RUN-n). The
// permissions travel as inline config in OPENCODE_CONFIG_CONTENT, merged over any given.
import { findBinary, runJob, runVendor, sessionAnnouncer, type JobInput } from '../../lib/run-job';
import { inlineConfig } from '../lib/permissions';
import { withOpencodeMcp } from '../../mcp/wire';

async function main(input: JobInput): Promise<number> {
  const args = ['run', input.prompt, '--format', 'json'];
  if (input.resume) args.push('--session', input.resume);
  const env = { ...process.env, OPENCODE_CONFIG_CONTENT: withOpencodeMcp(inlineConfig(process.env.OPENCODE_CONFIG_CONTENT, input.grants)) };
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
