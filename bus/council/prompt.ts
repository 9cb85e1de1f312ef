// What each council member is asked (COUNCIL-7): the dimension's question, the
// mission packet and the task's diff, written to a private temp file that the
// caller removes before it returns. Prompts never go on the bus.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CouncilDimension } from '../../protocol/bus/verdict';

/** Enough for a reviewer to judge; beyond this the diff is cut and says so. */
export const MAX_DIFF_CHARS = 200_000;

const QUESTIONS: Record<CouncilDimension, string> = {
  'acceptance-criteria': 'Does the change meet every acceptance criterion of the mission packet, without touching what the packet says not to touch?',
  'code-quality': 'Is the change correct, tested, free of obvious bugs, security holes and dead code, and no bigger than the task needs?',
  style: 'Does the change read well: clear names, small functions, comments that say why, consistent with the surrounding code?',
};

export interface PromptSource {
  /** The packet's full markdown, or undefined in diff mode. */
  packet?: string;
  /** The unified diff under review; empty when there is none. */
  diff: string;
  /** Why there is no diff, said to the reviewer instead of an empty section. */
  noDiffNote?: string;
}

export function buildPrompt(dimension: CouncilDimension, source: PromptSource): string {
  const diff = source.diff.length > MAX_DIFF_CHARS
    ? source.diff.slice(0, MAX_DIFF_CHARS) + `\n[diff cut: ${source.diff.length - MAX_DIFF_CHARS} more characters not shown]\n`
    : source.diff;
  const parts = [
    `# Council review — dimension: ${dimension}`,
    QUESTIONS[dimension],
    'Judge only this dimension. Answer with a line `VOTE: PASS` or `VOTE: FAIL`, then a line `REASON: <one sentence>`.',
  ];
  if (source.packet !== undefined) parts.push('## Mission packet', fence(source.packet));
  parts.push('## The change under review', diff.length > 0 ? fence(diff, 'diff') : `(${source.noDiffNote ?? 'no diff'})`);
  return parts.join('\n\n') + '\n';
}

/** A fence longer than any backtick run inside, so packet or diff text cannot close it. */
function fence(text: string, lang = ''): string {
  let longest = 2;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${lang}\n${text}${text.endsWith('\n') ? '' : '\n'}${ticks}`;
}

/** One private directory per council run; `dispose` removes it and everything in it. */
export function promptFiles(): { write(dimension: CouncilDimension, prompt: string): string; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'council-'));
  return {
    write(dimension, prompt) {
      const file = join(dir, `${dimension}.md`);
      writeFileSync(file, prompt, { mode: 0o600 });
      return file;
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
