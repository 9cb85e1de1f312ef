// A commander's transcripts: its agent's tool activity as lines of its conversation (CHAT-7), and
// where an agent CLI keeps the transcripts of sessions run in a commander's directory, so that
// deleting a commander leaves nothing behind (CMDR-DEL-1). Claude Code: one project folder per
// working directory under `$HOME/.claude/projects/`, named by the path with every character
// other than a letter or digit replaced by `-`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LiveEvent } from '../../protocol/live-events';
import { toolLine } from '../../protocol/commander-transcript';

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

const NOT_TOOLS = new Set(['session', 'end', 'idle']);
const RAN = new Set(['command', 'test', 'git', 'check']);
const DETAIL_KEEP = 2000;

/**
 * CHAT-7: one completed tool event of a commander's turn as a line of its conversation: "Ran npm
 * test", "Read app/page.tsx", with what it did (its output, the file, a failure) folded under it.
 * An action still in flight, a turn's end or a session's are no tool lines.
 */
export function toolLineOf(event: LiveEvent): string | null {
  if (event.running || NOT_TOOLS.has(event.kind)) return null;
  const summary = RAN.has(event.kind) ? `Ran ${event.cmd ?? event.summary}` : event.summary;
  const detail: string[] = [];
  if (event.file && !summary.includes(event.file)) detail.push(event.file);
  if (event.detail) detail.push(event.detail.length > DETAIL_KEEP ? `${event.detail.slice(0, DETAIL_KEEP)}…` : event.detail);
  if (event.ok === false) detail.push('(failed)');
  return toolLine(summary, detail.join('\n'));
}
