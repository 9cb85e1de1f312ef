// The relay's packet scan reads packets as the bus does and as YAML does (SNAPSHOT-1, PACKET-2).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { firstHeading, PacketScan } from './packet-scan';

const ROOT = path.join(__dirname, '..', '..');

/** A bus whose inbox holds these packets (file name → text), scanned as the relay scans it. */
async function scanned(packets: Record<string, string>): Promise<{ entries: Array<{ id: string; blockedBy: string[] }>; invalid: string[] }> {
  const bus = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'scan-')), '.agents');
  try {
    for (const d of ['inbox', 'claimed', 'done']) fs.mkdirSync(path.join(bus, d), { recursive: true });
    for (const [name, text] of Object.entries(packets)) fs.writeFileSync(path.join(bus, 'inbox', name), text);
    const scan = new PacketScan(bus, () => undefined);
    await scan.rescan('inbox');
    return { entries: scan.all().map((e) => ({ id: e.id, blockedBy: e.blockedBy })), invalid: [...scan.invalid.get('inbox')!].sort() };
  } finally {
    fs.rmSync(path.dirname(bus), { recursive: true, force: true });
  }
}

describe('packet scan', () => {
  it('SNAPSHOT-1: the scan reads a packet\'s front matter as YAML does: plain scalars, quoted ones, flow and block lists', async () => {
    const headers = [
      'id: T-1\ntype: implementation\nscope: src/**\n',
      'id: 0042\ntype: review\nscope: docs/*.md\nblocked-by: [A-1, B-2]\n',
      'id: T-2\ntype: research\nscope: .\nblocking:\n  - X-1\n  - X-2\nblocked-by:\n - C-3\n',
      'id: "T-3"\ntype: review\nscope: x # a comment\nblocked-by: [\'D-4\']\n',
    ];
    const { entries, invalid } = await scanned(Object.fromEntries(headers.map((h, i) => [`p${i}.md`, `---\n${h}---\n# P${i}\n`])));
    expect(invalid).toEqual([]);
    const byId = Object.fromEntries(entries.map((e) => [e.id, e.blockedBy]));
    for (const h of headers) {
      const yaml = parse(h, { schema: 'failsafe' }) as { id: string; 'blocked-by'?: string[] };
      expect(byId[yaml.id], h).toEqual(yaml['blocked-by'] ?? []);
    }
  });

  it('SNAPSHOT-1 PACKET-2: list items indented unlike the first are what YAML says (an error), never two items', async () => {
    const ragged = '---\nid: Y-1\ntype: review\nscope: x\nblocked-by:\n  - B\n - C\n---\n# Y\n';
    const even = '---\nid: Y-2\ntype: review\nscope: x\nblocked-by:\n - B\n - C\n---\n# Y\n';
    expect(await scanned({ 'ragged.md': ragged, 'even.md': even })).toEqual({ entries: [{ id: 'Y-2', blockedBy: ['B', 'C'] }], invalid: ['ragged.md'] });
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
