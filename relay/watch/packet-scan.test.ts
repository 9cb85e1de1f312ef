// The fast front-matter reader must agree with YAML or step aside (SNAPSHOT-1).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { firstHeading, simpleFrontMatter } from './packet-scan';

const ROOT = path.join(__dirname, '..', '..');

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

  it('SNAPSHOT-1 PACKET-2: list items indented unlike the first are left to YAML (ragged items are a YAML error, not two items)', () => {
    expect(simpleFrontMatter('id: Y-1\nblocking:\n  - B\n - C\n')).toBeUndefined();
    expect(simpleFrontMatter('id: Y-1\nblocking:\n  - B\n    - C\n')).toBeUndefined();
    expect(simpleFrontMatter('id: Y-1\nblocking:\n\t- B\n')).toBeUndefined();
    const even = 'id: Y-1\nblocking:\n - B\n - C\n';
    expect(simpleFrontMatter(even)).toEqual(parse(even, { schema: 'failsafe' }));
  });

  it('SNAPSHOT-1: the title is the first markdown heading of the body', () => {
    expect(firstHeading('intro\n\n## Demo: thing ##\n# later\n')).toBe('Demo: thing');
    expect(firstHeading('no heading')).toBeNull();
  });

  it('PACKET-2 SNAPSHOT-1: a FIFO or directory named *.md in a packet dir is reported invalid, never read (the relay does not hang)', () => {
    const bus = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'scan-fifo-')), '.agents');
    for (const d of ['inbox', 'claimed', 'done']) fs.mkdirSync(path.join(bus, d), { recursive: true });
    expect(spawnSync('mkfifo', [path.join(bus, 'inbox', 'A-fifo.md')]).status).toBe(0);
    fs.mkdirSync(path.join(bus, 'inbox', 'B-dir.md'));
    fs.writeFileSync(path.join(bus, 'inbox', 'C.md'), '---\nid: C-1\ntype: review\nscope: x\n---\n# C\n');
    // The scan runs in its own process: a blocking read of the FIFO cannot be interrupted in-process;
    // the timeout turns such a hang into a failure (it synchronises nothing).
    const script = `import { PacketScan } from ${JSON.stringify(path.join(ROOT, 'relay', 'watch', 'packet-scan.ts'))};
const scan = new PacketScan(${JSON.stringify(bus)}, (m) => console.error(m));
await scan.rescan('inbox');
console.log(JSON.stringify({ ids: scan.all().map((e) => e.id), invalid: [...scan.invalid.get('inbox')].sort() }));`;
    const file = path.join(path.dirname(bus), 'scan.mts');
    fs.writeFileSync(file, script);
    try {
      const r = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'tsx'), [file], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
      expect(r.signal, r.stderr).toBeNull();
      expect(JSON.parse(r.stdout)).toEqual({ ids: ['C-1'], invalid: ['A-fifo.md', 'B-dir.md'] });
      expect(r.stderr).toMatch(/A-fifo\.md is invalid and not shown: a FIFO, not a regular file/);
    } finally {
      fs.rmSync(path.dirname(bus), { recursive: true, force: true });
    }
  });
});
