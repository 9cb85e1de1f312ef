// The fast front-matter reader must agree with YAML or step aside (SNAPSHOT-1).
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { firstHeading, simpleFrontMatter } from './packet-scan';

describe('simple front matter', () => {
  it('SNAPSHOT-1: reads what YAML reads for plain scalars and lists, and declines anything else', () => {
    const same = [
      'id: T-1\ntype: implementation\nscope: src/**\n',
      'id: 0042\ntype: review\nscope: docs/*.md\nblocked-by: [A-1, B-2]\n',
      'id: T-2\ntype: research\nscope: .\nblocking:\n  - X-1\n  - X-2\n',
    ];
    for (const text of same) expect(simpleFrontMatter(text)).toEqual(parse(text, { schema: 'failsafe' }));
    const declined = ['id: "quoted"\n', 'id: T # comment\n', 'blocked-by:\n', 'scope: *alias\n', 'nested:\n  a: b\n', 'id: a: b\n'];
    for (const text of declined) expect(simpleFrontMatter(text)).toBeUndefined();
  });

  it('SNAPSHOT-1: the title is the first markdown heading of the body', () => {
    expect(firstHeading('intro\n\n## Demo: thing ##\n# later\n')).toBe('Demo: thing');
    expect(firstHeading('no heading')).toBeNull();
  });
});
