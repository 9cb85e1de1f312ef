// Conformance of `complete` and `progress` and of the event log they write
// (COMPLETE-n, PROGRESS-n, EVENTS-n, ID-SAFE-n) through the real executables.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type World, packet, useInstall } from './harness';

const fixture = useInstall();

function claimOne(w: World, id: string): string {
  w.write(`inbox/${id}.md`, packet({ id }));
  const r = w.tool('claim');
  expect(r.code).toBe(0);
  return r.stdout.split('\n')[0]!.slice('claimed:'.length);
}

describe('complete', () => {
  it('COMPLETE-1: moves the packet to done/ keeping its claimed name and prints done:<absolute path>, from any cwd', () => {
    const world = fixture.world();
    const claimed = claimOne(world, 'T-1');
    const r = world.tool('complete', [claimed], { cwd: world.home });
    expect(r.code).toBe(0);
    const done = path.join(world.bus, 'done', path.basename(claimed));
    expect(r.stdout).toBe(`done:${done}\n`);
    expect(fs.existsSync(done)).toBe(true);
    expect(fs.existsSync(claimed)).toBe(false);
  });

  it('COMPLETE-1: a relative path is resolved against the cwd and the bus is its grandparent', () => {
    const world = fixture.world();
    const claimed = claimOne(world, 'T-2');
    const r = world.tool('complete', [path.relative(path.join(world.bus, 'claimed'), claimed)], { cwd: path.join(world.bus, 'claimed') });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`done:${path.join(world.bus, 'done', path.basename(claimed))}\n`);
  });

  it('COMPLETE-2: a path that does not exist exits non-zero with nothing on stdout', () => {
    const world = fixture.world();
    const r = world.tool('complete', [path.join(world.bus, 'claimed', 'nope.md')]);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('nope.md');
    expect(world.eventsText()).toBe('');
  });

  it('COMPLETE-2: a packet that is not in claimed/ is refused and left where it is', () => {
    const world = fixture.world();
    const inbox = world.write('inbox/x.md', packet({ id: 'X' }));
    const r = world.tool('complete', [inbox]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(world.list('inbox')).toEqual(['x.md']);
  });

  it('COMPLETE-3: appends task_complete with result pass (default) or fail; any other result is a usage error', () => {
    const world = fixture.world();
    const a = claimOne(world, 'A');
    const b = claimOne(world, 'B');
    const c = claimOne(world, 'C');
    expect(world.tool('complete', [a]).code).toBe(0);
    expect(world.tool('complete', [b, 'fail']).code).toBe(0);
    const bad = world.tool('complete', [c, 'maybe']);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(fs.existsSync(c)).toBe(true);
    const completes = world.events().filter((e) => e.event === 'task_complete');
    expect(completes).toEqual([
      { ts: expect.any(String), event: 'task_complete', task: 'A', result: 'pass' },
      { ts: expect.any(String), event: 'task_complete', task: 'B', result: 'fail' },
    ]);
  });
});

describe('progress', () => {
  it('PROGRESS-1: appends task_progress with the note (agent from AGENTS_AGENT, omitted when unset)', () => {
    const world = fixture.world();
    expect(world.tool('progress', ['T-1', 'wired the parser; 3 of 5 criteria met']).code).toBe(0);
    expect(world.tool('progress', ['T-1', 'tests green'], { env: { AGENTS_AGENT: 'vm_77' } }).code).toBe(0);
    expect(world.events()).toEqual([
      { ts: expect.any(String), event: 'task_progress', task: 'T-1', note: 'wired the parser; 3 of 5 criteria met' },
      { ts: expect.any(String), event: 'task_progress', task: 'T-1', note: 'tests green', agent: 'vm_77' },
    ]);
  });

  const badNotes: Array<[string, string]> = [
    ['newline', 'line one\nline two'],
    ['carriage return', 'a\rb'],
    ['empty', ''],
    ['whitespace', '   '],
    ['tab', 'col\tcol'],
    ['escape', 'red \u001b[31m'],
    ['DEL', 'a\u007fb'],
    ['NUL-free C1', 'a\u0085b'],
    ['line separator', 'a\u2028b'],
  ];
  it.each(badNotes)('PROGRESS-2: a note with %s is rejected, nothing appended', (_label, note) => {
    const world = fixture.world();
    const r = world.tool('progress', ['T-1', note]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('E_BAD_NOTE');
    expect(world.eventsText()).toBe('');
  });

  const badIds = ['../x', 'a/b', 'a"b', "a'b", '', '.hidden', '-lead', 'a b', 'a\nb', 'x'.repeat(129), 'é'];
  it.each(badIds)('ID-SAFE-1: progress rejects the task id %j with a non-zero exit and writes nothing', (id) => {
    const world = fixture.world();
    const r = world.tool('progress', [id, 'fine note']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('E_BAD_ID');
    expect(world.eventsText()).toBe('');
  });

  const internals = ['ran tool_use Bash', 'PostToolUse hook fired', 'see transcript at /tmp/x.jsonl', 'session_id abc', 'used 12,000 tokens', 'PreToolUse ok'];
  it.each(internals)('PROGRESS-3: a note carrying harness internals (%s) is rejected', (note) => {
    const world = fixture.world();
    const r = world.tool('progress', ['T-1', note]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('harness internals');
    expect(world.eventsText()).toBe('');
  });

  it('PROGRESS-1: wrong argument count is a usage error (exit 2)', () => {
    const world = fixture.world();
    expect(world.tool('progress', ['T-1']).code).toBe(2);
    expect(world.tool('progress', ['T-1', 'a', 'b']).code).toBe(2);
    expect(world.eventsText()).toBe('');
  });
});

describe('event log', () => {
  it('EVENTS-1: every line is one JSON object with ts (ISO-8601 UTC) and event, newline-terminated, no null fields', () => {
    const world = fixture.world();
    const claimed = claimOne(world, 'T-1');
    world.tool('progress', ['T-1', 'halfway']);
    world.tool('complete', [claimed, 'pass']);
    const text = world.eventsText();
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.split('\n').slice(0, -1);
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      const event = JSON.parse(line) as Record<string, unknown>;
      expect(Object.keys(event).slice(0, 2)).toEqual(['ts', 'event']);
      expect(event.ts).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(Object.values(event)).not.toContain(null);
    }
  });

  it('ID-SAFE-2: JSON is built by a serializer: quotes, backslashes and braces in a note cannot forge fields', () => {
    const world = fixture.world();
    const note = 'said "hi", \\ then },{"event":"task_complete","result":"pass"} and ünïcode ✓';
    expect(world.tool('progress', ['T.1_a-b', note]).code).toBe(0);
    const events = world.events();
    expect(events).toHaveLength(1);
    expect(events[0]).toEqual({ ts: expect.any(String), event: 'task_progress', task: 'T.1_a-b', note });
  });

  it('EVENTS-2: the log is only appended to: junk and a torn tail already there stay byte for byte, the new event starts on its own line', () => {
    const world = fixture.world();
    const before = '{"ts":"2026-01-01T00:00:00.000Z","event":"task_progress","task":"OLD","note":"kept"}\nnot json at all\n{"ts":"2026-01-01T00:00:01.000Z","event":"future_event","x":1}\n{"ts":"2026-01-01T00:00:02.000Z","ev';
    world.write('events.jsonl', before);
    expect(world.tool('progress', ['T-1', 'after the tear']).code).toBe(0);
    const after = world.eventsText();
    expect(after.startsWith(before)).toBe(true);
    const added = after.slice(before.length);
    expect(added.startsWith('\n')).toBe(true);
    expect(JSON.parse(added.trim())).toMatchObject({ event: 'task_progress', task: 'T-1', note: 'after the tear' });
  });
});
