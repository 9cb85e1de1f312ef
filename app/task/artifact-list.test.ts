// The task screen's artifact list (ARTUI-1): folded from the task's bus events.
import { describe, expect, it } from 'vitest';
import { artifactName, artifactsOf, downloadName, formatBytes } from './artifact-list';
import { busItems } from './timeline';

const digest = `sha256:${'a'.repeat(64)}`;
const emitted = (artifact: string, extra: Record<string, unknown> = {}) => ({
  ts: '2026-01-01T00:00:01Z', event: 'artifact_emitted', task: 'T-1', artifact, path: 'shots/home.png', worktree: '/w', kind: 'image', bytes: 68, digest, ...extra,
});

describe('artifactsOf', () => {
  it('ARTUI-1: lists the task\'s own artifact_emitted events newest first, once per id, and skips malformed or foreign ones', () => {
    const items = busItems([
      { event: emitted('a-00000000000000000001') },
      { event: { ts: '2026-01-01T00:00:02Z', event: 'task_progress', task: 'T-1', note: 'x' } },
      { event: emitted('a-00000000000000000002', { path: 'report.md', kind: 'markdown', ts: '2026-01-01T00:00:03Z' }) },
      { event: emitted('a-00000000000000000003', { task: 'T-2' }) },
      { event: emitted('not-an-id') },
      { event: emitted('a-00000000000000000004', { bytes: 'many' }) },
      { event: emitted('a-00000000000000000001', { ts: '2026-01-01T00:00:04Z' }) },
    ]);
    expect(artifactsOf(items, 'T-1').map((a) => [a.artifact, a.kind])).toEqual([
      ['a-00000000000000000001', 'image'], ['a-00000000000000000002', 'markdown'],
    ]);
  });

  it('ARTUI-1: the name is the title, else the file name; a download name carries no path or hostile characters', () => {
    const [a] = artifactsOf(busItems([{ event: emitted('a-00000000000000000001', { path: 'out/<img src=x onerror=alert(1)>.png' }) }]), 'T-1');
    expect(artifactName(a!)).toBe('<img src=x onerror=alert(1)>.png');
    expect(downloadName(a!)).toBe('_img_src_x_onerror_alert_1__.png');
    expect(downloadName({ ...a!, path: 'dir/..' })).toBe('artifact');
    expect(artifactName({ ...a!, title: '  Home screen ' })).toBe('Home screen');
    expect(artifactName({ ...a!, title: '   ' })).toBe('<img src=x onerror=alert(1)>.png');
  });

  it('ARTUI-1: sizes read as bytes, KB or MB', () => {
    expect([formatBytes(1), formatBytes(68), formatBytes(3 * 1024 + 300), formatBytes(200 * 1024), formatBytes(10 * 1024 * 1024)])
      .toEqual(['1 byte', '68 bytes', '3.3 KB', '200 KB', '10.0 MB']);
  });
});
