// The "Needs you" ordering and status rules as a table.
import { describe, expect, it } from 'vitest';
import type { PermissionRequestView } from '../../../protocol/wire/views';
import { diffLines, needsYou, shownStatus } from './view-model';

const at = (s: number) => new Date(1_700_000_000_000 + s * 1000).toISOString();
const request = (id: string, created: number, status: PermissionRequestView['status'] = 'pending', expires = created + 120): PermissionRequestView => ({
  id, session: 's', task: null, agent: null, repo: null, tool: 'Bash', summary: 'touch x', detail: 'touch x', cwd: '/r',
  createdAt: at(created), expiresAt: at(expires), status, decidedBy: null, reason: null,
});

describe('needs you', () => {
  it('PERM-UI-3: open requests first, newest first; a pending request past its expiry shows expired', () => {
    const now = Date.parse(at(100));
    const list = needsYou({ a: request('a', 0, 'allowed'), b: request('b', 10), c: request('c', 20), d: request('d', 5, 'pending', 50) }, now);
    expect(list.map((r) => r.id)).toEqual(['c', 'b', 'd', 'a']);
    expect(shownStatus(request('d', 0, 'pending', 50), now)).toBe('expired');
    expect(shownStatus(request('b', 10), now)).toBe('pending');
    expect(diffLines('--- a\n+++ a\n@@\n-old\n+new')).toEqual([{ mark: '@', text: '@@' }, { mark: '-', text: 'old' }, { mark: '+', text: 'new' }]);
    expect(diffLines('touch x')).toBeNull();
  });
});
