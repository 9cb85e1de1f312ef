// What the "Needs you" section shows (PERM-UI-n): open requests first, newest
// first; decided and expired ones stay briefly so the person sees what happened.
import type { PermissionRequestView } from '../../../protocol/wire/views';

export type CardStatus = PermissionRequestView['status'];

/** The status to show: a pending request past its expiry is shown expired even before the relay says so. */
export function shownStatus(r: PermissionRequestView, now: number): CardStatus {
  return r.status === 'pending' && Date.parse(r.expiresAt) <= now ? 'expired' : r.status;
}

/** Only what still needs a person (UX-8): answered and expired requests leave, newest first. */
export function needsYou(requests: Record<string, PermissionRequestView>, now: number): PermissionRequestView[] {
  return Object.values(requests).filter((r) => shownStatus(r, now) === 'pending').sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** "1:05" until the automatic denial, never below 0:00. */
export function countdown(r: PermissionRequestView, now: number): string {
  const left = Math.max(0, Math.ceil((Date.parse(r.expiresAt) - now) / 1000));
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
}

const NETWORK = /(^|[;&|(\s])(curl|wget|ssh|scp|sftp|rsync|nc|ncat|netcat|telnet|ftp)(\s|$)/;
const PIPE_TO_SHELL = /\|\s*(sudo\s+)?(sh|bash|zsh|dash|ksh|python3?|node|perl|ruby)(\s|$)/;

/** Why Deny should be the default answer, or null: network access, piping into a shell, outside the repo (UX-8). */
export function riskOf(r: PermissionRequestView): string | null {
  const command = r.detail ?? r.summary;
  if (/^(webfetch|websearch)$/i.test(r.tool)) return 'It reaches the network.';
  if (PIPE_TO_SHELL.test(command)) return 'It pipes something into a shell.';
  if (NETWORK.test(command)) return 'It reaches the network.';
  const file = r.summary.trim();
  if (/^(edit|write|multiedit|notebookedit)$/i.test(r.tool) && file.startsWith('/') && !file.startsWith(`${r.cwd.replace(/\/+$/, '')}/`)) return 'It changes a file outside the working directory.';
  return null;
}

/** A detail that is a unified diff is shown line by line with +/− marks. */
export function diffLines(detail: string): Array<{ mark: '+' | '-' | ' ' | '@'; text: string }> | null {
  if (!detail.startsWith('--- ')) return null;
  return detail.split('\n').slice(2).map((line) => {
    const c = line[0];
    if (c === '+' || c === '-') return { mark: c, text: line.slice(1) };
    if (c === '@') return { mark: '@', text: line };
    return { mark: ' ', text: line.slice(1) };
  });
}

export const STATUS_TEXT: Record<CardStatus, string> = {
  pending: 'Waiting for you', allowed: 'Allowed', denied: 'Denied', expired: 'Expired — denied because no one answered',
};

/** Descriptions longer than this are folded to three lines until the person opens them (CARD-3). */
export const SAID_FOLD_AT = 160;

/** The policy's reason as one sentence (CARD-3): why, the part of a compound command that decided, the rule. */
export function policyLine(r: PermissionRequestView): string {
  if (!r.policy) return '';
  const { why, part, rule } = r.policy;
  const shownPart = part && part !== (r.detail ?? r.summary).trim() ? ` (in \`${part}\`)` : '';
  return `${why}${shownPart} — rule ${rule}`;
}

/** The policy line cut at its backticks: odd pieces are code (a program, a command part), shown as such — still text only. */
export function policySegments(r: PermissionRequestView): Array<{ code: boolean; text: string }> {
  return policyLine(r).split('`').map((text, i) => ({ code: i % 2 === 1, text })).filter((s) => s.text !== '');
}
