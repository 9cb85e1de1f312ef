import { describe, expect, it } from 'vitest';
import { missingSections, parsePacket, splitFrontMatter } from './packet';

describe('packet parsing', () => {
  it('PACKET-1: front matter is between a first line --- and the next ---', () => {
    expect(splitFrontMatter('---\nid: a\n---\nbody')).toEqual({ yaml: 'id: a\n', body: 'body' });
    expect(splitFrontMatter('---\r\nid: a\r\n---\r\nbody')).toEqual({ yaml: 'id: a\r\n', body: 'body' });
    expect(splitFrontMatter('\n---\nid: a\n---\n')).toBeUndefined();
    expect(splitFrontMatter('---\nid: a\n')).toBeUndefined();
  });

  it('PACKET-1: scalars stay strings (failsafe YAML) and list fields default to []', async () => {
    const p = await parsePacket('---\nid: 0042\ntype: research\nscope: "**"\n---\n');
    expect(p).toMatchObject({ ok: true, front: { id: '0042', blocking: [], 'blocked-by': [] } });
  });

  it('PACKET-2: broken YAML, a non-mapping, NUL bytes and missing fields give a reason instead of a throw', async () => {
    const reasons = await Promise.all([
      '---\nid: [x\n---\n', '---\n- a\n---\n', '---\nid: a\0\n---\n', '---\ntype: review\nscope: x\n---\n', '---\nid: a\nid: b\ntype: review\nscope: x\n---\n',
    ].map(async (t) => parsePacket(t)));
    for (const r of reasons) expect(r).toMatchObject({ ok: false, reason: expect.any(String) });
  });

  it('PACKET-3: unknown fields are kept and ignored', async () => {
    expect(await parsePacket('---\nid: a\ntype: review\nscope: x\nfoo: {bar: 1}\n---\n')).toMatchObject({ ok: true });
  });

  it('PACKET-4: missingSections names every expected heading that is absent', () => {
    expect(missingSections('## Context\n### acceptance criteria:\n# Files to touch #\n')).toEqual(['Do not touch']);
    expect(missingSections('Context\nno headings')).toEqual(['Context', 'Acceptance criteria', 'Files to touch', 'Do not touch']);
  });
});
