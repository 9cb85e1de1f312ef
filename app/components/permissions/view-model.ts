// What the "Needs you" section shows (PERM-UI-n): open requests first, newest
// first; decided and expired ones stay briefly so the person sees what happened.
import type { PermissionRequestView } from '../../../protocol/wire/views';

export type CardStatus = PermissionRequestView['status'];

/** The status to show: a pending request past its expiry is shown expired even before the relay says so. */
export function shownStatus(r: PermissionRequestView, now: number): CardStatus {
  return r.status === 'pending' && Date.parse(r.expiresAt) <= now ? 'expired' : r.status;
}

export function needsYou(requests: Record<string, PermissionRequestView>, now: number): PermissionRequestView[] {
  const rank = (r: PermissionRequestView) => (shownStatus(r, now) === 'pending' ? 0 : 1);
  return Object.values(requests).sort((a, b) => rank(a) - rank(b) || b.createdAt.localeCompare(a.createdAt));
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
