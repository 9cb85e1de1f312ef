import { describe, expect, it } from 'vitest';
import { assertTaskId, claimHost, parseClaimedName, safeJoin } from './layout';

describe('layout helpers', () => {
  it('CLAIM-3: parseClaimedName splits on "_" at most twice from the left', () => {
    expect(parseClaimedName('vm_123_my_task_file.md')).toEqual({ host: 'vm', pid: '123', file: 'my_task_file.md' });
    expect(parseClaimedName('vm_123_a.md')).toEqual({ host: 'vm', pid: '123', file: 'a.md' });
    expect(parseClaimedName('a.md')).toBeUndefined();
    expect(parseClaimedName('_1_a.md')).toBeUndefined();
    expect(parseClaimedName('vm__a.md')).toBeUndefined();
    expect(parseClaimedName('vm_1_')).toBeUndefined();
  });

  it('CLAIM-1: claimHost replaces every "_" with "-"', () => {
    expect(claimHost('my_build_box')).toBe('my-build-box');
    expect(claimHost('vm')).toBe('vm');
  });

  it('ID-SAFE-1: assertTaskId accepts the pattern and names the bad id', () => {
    for (const ok of ['T-1', 'a', 'A.b_c-d', '0'.repeat(128)]) expect(() => assertTaskId(ok)).not.toThrow();
    for (const bad of ['', '.x', '-x', '_x', 'a/b', '..', 'a b', 'a\nb', '0'.repeat(129), 42, undefined]) {
      expect(() => assertTaskId(bad)).toThrow(expect.objectContaining({ code: 'E_BAD_ID' }));
    }
  });

  it('ID-SAFE-3: safeJoin keeps client paths inside the root', () => {
    expect(safeJoin('/bus', 'inbox/a.md')).toBe('/bus/inbox/a.md');
    for (const bad of ['../x', 'a/../../x', '/etc/passwd', '', 'a\0b', 'a\\..\\..\\x']) {
      expect(() => safeJoin('/bus', bad)).toThrow(expect.objectContaining({ code: 'E_BAD_PATH' }));
    }
  });
});
