import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseSimpleFrontMatter } from './front-matter';

const failsafe = (text: string): unknown => {
  try {
    return parse(text, { schema: 'failsafe' });
  } catch {
    return 'YAML-ERROR';
  }
};

/** Lines that mix the subset's forms with ones it must hand to the YAML library. */
const LINES = [
  'id: T-1', 'id: "T-1"', "id: 'T-1'", 'id: 0042', 'id: true', 'id: ~', 'id: null', 'id: a b', 'id: a  b', 'id: a # c', 'id: "a\\nb"', "id: 'it''s'",
  'id:', 'id:x', 'type: implementation', 'scope: src/**', 'scope: **/*.ts', 'scope: "**/*.ts"', 'scope: *alias', 'scope: &anchor x', 'scope: a: b',
  'blocked-by: []', 'blocked-by: [A, "B", \'C\']', 'blocked-by: [A,,B]', 'blocked-by: [A, [B]]', 'blocked-by: [A, B,]', 'blocking:', '  - A', '- B', '  - "C"',
  '  -A', '# comment', '', '   ', 'x: {a: 1}', 'x: |', '  text', 'x: >-', 'k: v\t', '\tk: v', 'id: T-1', '? complex', 'x-y_z: 1.5', 'x: -1', 'x: .5', 'x: a,b',
];

function* documents(): Generator<string> {
  for (const a of LINES) for (const b of LINES) yield `${a}\n${b}\n`;
  for (let i = 0; i < 3000; i++) {
    let seed = i * 2654435761;
    const pick = () => LINES[(seed = (seed * 1103515245 + 12345) >>> 0) % LINES.length]!;
    yield [pick(), pick(), pick(), pick()].join('\n');
  }
}

describe('front matter fast path', () => {
  it('PACKET-1: wherever the fast path answers, it answers exactly what failsafe YAML does', () => {
    let answered = 0;
    for (const doc of documents()) {
      const fast = parseSimpleFrontMatter(doc);
      if (fast === undefined) continue;
      answered++;
      expect(fast, JSON.stringify(doc)).toEqual(failsafe(doc) ?? {});
    }
    expect(answered).toBeGreaterThan(200);
  });

  it('PACKET-1 PACKET-2: list items indented differently from the first item are never answered differently from YAML (`  - B` then ` - C` is an error)', () => {
    expect(parseSimpleFrontMatter('id: Y-1\nblocking:\n  - B\n - C\n')).toBeUndefined();
    const indents = ['', ' ', '  ', '   ', '    '];
    for (const a of indents) for (const b of indents) for (const c of indents) {
      const doc = `id: Y-1\nblocking:\n${a}- B\n${b}- C\n${c}- D\ntype: review\n`;
      const fast = parseSimpleFrontMatter(doc);
      if (a === b && b === c) expect(fast, JSON.stringify(doc)).toEqual(failsafe(doc));
      else expect(fast, JSON.stringify(doc)).toBeUndefined();
    }
  });

  it('PACKET-1: the usual packet header takes the fast path', () => {
    expect(parseSimpleFrontMatter('id: T-1\ntype: implementation\nscope: "src/**"\nblocked-by: [A, B]\nblocking:\n  - C\n')).toEqual({
      id: 'T-1', type: 'implementation', scope: 'src/**', 'blocked-by': ['A', 'B'], blocking: ['C'],
    });
  });
});
