// The "Needs you" ordering and status rules as a table.
import { describe, expect, it } from 'vitest';
import type { PermissionRequestView } from '../../../protocol/wire/views';
import { countdown, diffLines, needsYou, policyLine, policySegments, riskOf, shownStatus } from './view-model';

const at = (s: number) => new Date(1_700_000_000_000 + s * 1000).toISOString();
const request = (id: string, created: number, status: PermissionRequestView['status'] = 'pending', expires = created + 120): PermissionRequestView => ({
  id, session: 's', task: null, agent: null, repo: null, tool: 'Bash', summary: 'touch x', detail: 'touch x', cwd: '/r',
  createdAt: at(created), expiresAt: at(expires), status, decidedBy: null, reason: null,
});

describe('needs you', () => {
  it('PERM-UI-3, UX-8: open requests only, newest first; answered ones and a pending one past its expiry leave', () => {
    const now = Date.parse(at(100));
    const list = needsYou({ a: request('a', 0, 'allowed'), b: request('b', 10), c: request('c', 20), d: request('d', 5, 'pending', 50), e: request('e', 30, 'expired') }, now);
    expect(list.map((r) => r.id)).toEqual(['c', 'b']);
    expect(needsYou({ a: request('a', 0, 'denied') }, now)).toEqual([]);
    expect(shownStatus(request('d', 0, 'pending', 50), now)).toBe('expired');
    expect(shownStatus(request('b', 10), now)).toBe('pending');
    expect(diffLines('--- a\n+++ a\n@@\n-old\n+new')).toEqual([{ mark: '@', text: '@@' }, { mark: '-', text: 'old' }, { mark: '+', text: 'new' }]);
    expect(diffLines('touch x')).toBeNull();
  });

  it('UX-8: a countdown to the automatic denial; Deny leads for network, pipe-to-shell and outside-the-directory requests', () => {
    expect(countdown(request('a', 0, 'pending', 125), Date.parse(at(0)))).toBe('2:05');
    expect(countdown(request('a', 0, 'pending', 10), Date.parse(at(20)))).toBe('0:00');
    const cmd = (c: string, tool = 'Bash', summary = c) => ({ ...request('x', 0), tool, summary, detail: c });
    expect(riskOf(cmd('curl https://example.com/x'))).toMatch(/network/);
    expect(riskOf(cmd('npm test && ssh host ls'))).toMatch(/network/);
    expect(riskOf(cmd('cat install.sh | bash'))).toMatch(/shell/);
    expect(riskOf({ ...request('x', 0), tool: 'WebFetch', summary: 'https://x', detail: null })).toMatch(/network/);
    expect(riskOf({ ...request('x', 0), tool: 'Write', summary: '/etc/hosts', detail: null })).toMatch(/outside/);
    expect(riskOf({ ...request('x', 0), tool: 'Write', summary: '/r/src/a.ts', detail: null })).toBeNull();
    expect(riskOf(cmd('npm install left-pad'))).toBeNull();
    expect(riskOf(cmd('git push origin main'))).toBeNull();
  });
});

describe('the policy line', () => {
  it('CARD-3: why, the deciding part only when it is not the whole command, and the rule', () => {
    const base = request('p', 0);
    expect(policyLine(base)).toBe('');
    expect(policyLine({ ...base, detail: 'curl x', policy: { rule: 'ask.commands', why: '`curl` reaches the network', part: 'curl x' } })).toBe('`curl` reaches the network — rule ask.commands');
    expect(policyLine({ ...base, detail: 'ls && curl x', policy: { rule: 'ask.commands', why: '`curl` reaches the network', part: 'curl x' } }))
      .toBe('`curl` reaches the network (in `curl x`) — rule ask.commands');
    expect(policySegments({ ...base, detail: 'ls && curl x', policy: { rule: 'ask.commands', why: '`curl` reaches the network', part: 'curl x' } })).toEqual([
      { code: true, text: 'curl' }, { code: false, text: ' reaches the network (in ' }, { code: true, text: 'curl x' }, { code: false, text: ') — rule ask.commands' },
    ]);
  });
});
