// Launch intents (RUN-n): what a headless job may do, as neutral command prefixes
// plus whether file edits are allowed. Each adapter renders this in its own rule
// language; nothing here grants a blanket allow.
export const MODES = ['work', 'act-pr', 'review'] as const;
export type Mode = (typeof MODES)[number];

export interface Grants {
  mode: Mode;
  /** Plain command prefixes the job may run (`git commit`, `npm test`). */
  commands: string[];
  /** Prefixes that must stay denied even if a user-level rule allowed them. */
  denied: string[];
  edits: boolean;
}

export class IntentError extends Error {
  constructor(readonly code: 'E_BAD_MODE' | 'E_BAD_PREFIX' | 'E_NO_PROMPT' | 'E_BAD_CWD', message: string) {
    super(message);
    this.name = 'IntentError';
  }
}

const READ_GIT = ['git status', 'git diff', 'git log', 'git show'];
const WORK_GIT = ['git add', 'git commit'];
const PR_READ = ['gh pr view', 'gh pr diff'];

/** A prefix is words of plain characters: no shell metacharacters, no rule syntax (`*`, `(`, `)`, trailing `:`). */
const PREFIX_PATTERN = /^[A-Za-z0-9_./@%+=:-]+(?: [A-Za-z0-9_./@%+=:-]+)*$/;

export function parseMode(value: string | undefined): Mode {
  const mode = (value ?? '').trim() || 'work';
  if (!(MODES as readonly string[]).includes(mode)) {
    throw new IntentError('E_BAD_MODE', `AGENT_MODE ${JSON.stringify(mode)} is not one of ${MODES.join(', ')}`);
  }
  return mode as Mode;
}

/** `AGENT_COMMANDS`: comma-separated plain prefixes; blanks dropped, inner whitespace collapsed. */
export function parseCommands(value: string | undefined): string[] {
  const out: string[] = [];
  for (const raw of (value ?? '').split(',')) {
    const prefix = raw.trim().replace(/\s+/g, ' ');
    if (prefix === '') continue;
    if (!PREFIX_PATTERN.test(prefix) || prefix.startsWith('-') || prefix.endsWith(':')) {
      throw new IntentError(
        'E_BAD_PREFIX',
        `AGENT_COMMANDS entry ${JSON.stringify(raw.trim())} is not a plain command prefix: use words of letters, digits and ._/@%+=:- only, without shell metacharacters or rule syntax such as * ( ) or a trailing :`,
      );
    }
    if (!out.includes(prefix)) out.push(prefix);
  }
  return out;
}

export function grantsFor(mode: Mode, projectCommands: string[]): Grants {
  const unique = (list: string[]) => [...new Set(list)];
  switch (mode) {
    case 'work':
      return { mode, commands: unique([...READ_GIT, ...WORK_GIT, ...projectCommands]), denied: ['git push'], edits: true };
    case 'act-pr':
      return { mode, commands: unique([...READ_GIT, ...WORK_GIT, 'git push', ...PR_READ, 'gh api', ...projectCommands]), denied: [], edits: true };
    case 'review':
      return { mode, commands: unique([...READ_GIT, ...PR_READ, 'gh pr review', 'gh pr comment']), denied: ['git push', 'git commit', 'git add'], edits: false };
  }
}
