// Claude Code `UserPromptSubmit` hook: injects the task's unconsumed annotations as one
// labelled context block, and marks them consumed only once that output is written.
import * as fs from 'node:fs';
import { onPrompt } from '../../lib/hook-actions';
import { runHook } from '../../lib/hook-io';
import { sessionRef } from '../lib/payload';

runHook((payload) => {
  const ref = sessionRef(payload);
  if (!ref) return;
  onPrompt(ref, process.env, (block) => {
    const out = JSON.stringify({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: block } });
    fs.writeSync(1, out + '\n');
  });
});
