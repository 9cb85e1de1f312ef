// How a commander's status reads to a person (CMDR-UI-1).
import type { CommanderStatus, CommanderView } from '../../protocol/wire/views';

export const STATUS_LABEL: Record<CommanderStatus, string> = {
  starting: 'starting', running: 'running', idle: 'idle', waiting: 'waiting for you', dead: 'needs a new session',
};
/** The pill's word: a commander whose start failed (CMDRFAIL-1) could not start; it does not need "a new session". */
export function statusLabel(c: Pick<CommanderView, 'status' | 'failure'>): string {
  return c.status === 'dead' && c.failure ? 'could not start' : STATUS_LABEL[c.status];
}

export const STATUS_TONE: Record<CommanderStatus, string | undefined> = {
  starting: undefined, running: 'ok', idle: undefined, waiting: 'warn', dead: 'danger',
};

/** A reference path made of an allowed root and an optional folder inside it. */
export function joinReference(root: string, inside: string): string {
  const sub = inside.trim().replace(/^\/+|\/+$/g, '');
  if (!sub) return root;
  return `${root.replace(/\/+$/, '')}/${sub}`;
}

/**
 * How a folder reads in a list of them: its own name first, since every allowed root of one
 * machine tends to share a long prefix that a phone's select cuts the name off after.
 */
export function folderChoice(root: string): string {
  const name = root.replace(/\/+$/, '').split('/').pop();
  return name ? `${name} — ${root}` : root;
}

/** Refuses `..` segments before the relay does, with a sentence. */
export function referenceProblem(inside: string): string | null {
  return inside.split('/').some((part) => part === '..') ? 'The folder must be inside the chosen root: “..” is not allowed.' : null;
}

/** A path typed for a member machine (FLEETUI-6): the member checks it against its own
 *  allowed roots, which the phone is never sent; here only a full path without `..`. */
export function typedPathProblem(typed: string): string | null {
  const p = typed.trim();
  if (!p) return null;
  if (!p.startsWith('/')) return 'Type the full path, starting with “/”.';
  return p.split('/').some((part) => part === '..') ? '“..” is not allowed in the path.' : null;
}
