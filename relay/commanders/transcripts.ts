// Where an agent CLI keeps the transcripts of sessions run in a commander's directory, so that
// deleting a commander leaves nothing behind (CMDR-DEL-1). Claude Code: one project folder per
// working directory under `$HOME/.claude/projects/`, named by the path with every character
// other than a letter or digit replaced by `-`.
import * as fs from 'node:fs';
import * as path from 'node:path';

export function claudeProjectDir(home: string, cwd: string): string {
  return path.join(home, '.claude', 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'));
}

/** Removes the Claude Code transcripts of sessions whose working directory was `cwd`. */
export function removeTranscripts(home: string | undefined, cwd: string): void {
  if (!home) return;
  const dir = claudeProjectDir(home, cwd);
  // Only ever a direct child of projects/: the name cannot hold a separator or be `..`.
  if (path.dirname(dir) !== path.join(home, '.claude', 'projects')) return;
  fs.rmSync(dir, { recursive: true, force: true });
}
