// Claude Code `UserPromptSubmit` hook: `user-prompt-submit [<part>]` prints part <part> (0 when
// absent) of the block of the task's unconsumed annotations as additional context. `wire`
// installs one hook per part, because Claude Code cuts a hook output above about 10 KB to a
// preview (NOTE-1). The notes are consumed when the turn completes, by the Stop hook (NOTE-2).
// Notes held back as not the person's (ANNOT-6) are named once, by part 0, in `systemMessage`
// (shown to the person, not the model) and on stderr.
import * as fs from 'node:fs';
import { onPrompt } from '../../lib/hook-actions';
import { runHook } from '../../lib/hook-io';
import { MAX_PARTS } from '../../lib/inject';
import { sessionRef } from '../lib/payload';

const part = Number(process.argv[2] ?? '0');

runHook((payload) => {
  const ref = sessionRef(payload);
  if (!ref || !Number.isInteger(part) || part < 0 || part >= MAX_PARTS) return;
  const got: { context?: string; warning?: string } = {};
  onPrompt(ref, process.env, part, (text) => { got.context = text; }, (text) => { got.warning = text; });
  const { context, warning } = got;
  if (warning) fs.writeSync(2, warning + '\n');
  if (context === undefined && warning === undefined) return;
  const out = JSON.stringify({
    ...(warning ? { systemMessage: warning } : {}),
    ...(context !== undefined ? { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: context } } : {}),
  });
  fs.writeSync(1, out + '\n');
});
