// The prompt a task job starts with: which task, where its packet is, what the
// mode allows, and how to finish (the agent calls `complete` itself; JOB-4).
import * as fs from 'node:fs';

export type JobMode = 'work' | 'review';

export function jobPrompt(req: { task: string; mode: JobMode; packet: string }, cwd: string): string {
  let body = '';
  try {
    body = fs.readFileSync(req.packet, 'utf8');
  } catch {
    body = '(the packet could not be read)';
  }
  const how = req.mode === 'work'
    ? [
      `Work on task ${req.task} in this worktree (${cwd}, branch agent/${req.task}).`,
      'Edit, test and commit here; do not push.',
      `When you are finished, run \`complete ${req.packet} pass\` (or \`fail\` if the acceptance criteria are not met).`,
    ]
    : [
      `Review the work on task ${req.task}, read-only: do not edit files or commit.`,
      'End with one line `VERDICT: pass` or `VERDICT: fail` and your reasons.',
    ];
  return [...how, '', `The task packet (${req.packet}):`, '', body].join('\n');
}
