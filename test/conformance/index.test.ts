// Conformance of `index refresh` (INDEX-n, EVENTS-3) over real repos.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { IndexFile } from '../../protocol/bus/index-file';
import { type World, packet, snapshot, useInstall } from './harness';
import { expectStrace } from '../helpers/strace';

const fixture = useInstall();

const readIndex = (w: World) => JSON.parse(fs.readFileSync(w.env.AGENTS_INDEX_FILE!, 'utf8')) as IndexFile;

/** A repo with one task in each state, progress notes, a verdict. */
function populate(w: World): void {
  w.write('inbox/1.md', packet({ id: 'IN-1' }));
  w.write('inbox/2.md', packet({ id: 'CL-1' }));
  w.write('inbox/3.md', packet({ id: 'DN-1' }));
  w.tool('claim');
  w.tool('progress', ['IN-1', 'not started yet but noted']);
  const cl = w.tool('claim').stdout.split('\n')[0]!.slice('claimed:'.length);
  w.tool('progress', ['CL-1', 'first note']);
  w.tool('progress', ['CL-1', 'second note']);
  const dn = w.tool('claim').stdout.split('\n')[0]!.slice('claimed:'.length);
  void cl;
  w.tool('complete', [dn, 'pass']);
  // the first claim took IN-1; put it back into the inbox to have all three states
  const first = fs.readdirSync(path.join(w.bus, 'claimed')).find((n) => n.endsWith('_1.md'))!;
  fs.renameSync(path.join(w.bus, 'claimed', first), path.join(w.bus, 'inbox', '1.md'));
  w.write('council/DN-1.json', JSON.stringify({ task: 'DN-1', verdict: 'PASS', ts: '2026-01-01T00:00:00.000Z', votes: [
    { dimension: 'acceptance-criteria', vote: 'PASS', reason: '' }, { dimension: 'code-quality', vote: 'PASS', reason: '' }, { dimension: 'style', vote: 'ABSTAIN', reason: '' },
  ] }));
}

describe('index refresh', () => {
  it('INDEX-1: folds the given repos, prints index:<output path>, exit 0', () => {
    const world = fixture.world();
    populate(world);
    const r = world.tool('index', ['refresh', world.repo], { cwd: world.home });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`index:${world.env.AGENTS_INDEX_FILE}\n`);
    expect(IndexFile.safeParse(readIndex(world)).success).toBe(true);
  });

  it('INDEX-1: without arguments the registry is read (blank and # lines skipped); a missing or other verb exits 2', () => {
    const world = fixture.world();
    populate(world);
    fs.appendFileSync(world.env.AGENTS_INDEX_REPOS!, '\n# comment\n\n');
    const r = world.tool('index', ['refresh'], { cwd: world.home });
    expect(r.code).toBe(0);
    expect(readIndex(world).repos.map((x) => x.path)).toEqual([world.repo]);
    expect(world.tool('index', []).code).toBe(2);
    expect(world.tool('index', ['update']).code).toBe(2);
  });

  it('INDEX-2: repos carry path as given, scanned_at, ok, events_mtime; tasks have exactly the seven keys with null for absent values', () => {
    const world = fixture.world();
    populate(world);
    const given = path.relative(world.home, world.repo);
    world.tool('index', ['refresh', given], { cwd: world.home });
    const index = readIndex(world);
    expect(index.tool).toMatch(/^index\/\d+\.\d+\.\d+$/);
    expect(index.repos).toEqual([{ path: given, scanned_at: expect.any(String), ok: true, events_mtime: expect.any(String) }]);
    const byId = Object.fromEntries(index.tasks.map((t) => [t.id, t]));
    for (const t of index.tasks) expect(Object.keys(t).sort()).toEqual(['id', 'last_event_ts', 'last_note', 'owner', 'repo', 'state', 'verdict']);
    expect(byId['IN-1']).toMatchObject({ repo: 'repo', state: 'inbox', owner: null, verdict: null, last_note: 'not started yet but noted' });
    expect(byId['CL-1']).toMatchObject({ state: 'claimed', owner: expect.stringMatching(/^[^_]+_[0-9]+$/), verdict: null, last_note: 'second note' });
    expect(byId['DN-1']).toMatchObject({ state: 'done', verdict: 'PASS', last_note: null, last_event_ts: expect.any(String) });
    const events = world.events();
    expect(byId['DN-1']!.last_event_ts).toBe(events.filter((e) => e.task === 'DN-1').at(-1)!.ts);
  });

  it('INDEX-3: a missing repo and a repo without a bus are recorded ok:false with an error; the fold goes on', () => {
    const world = fixture.world();
    populate(world);
    const nobus = path.join(world.dir, 'nobus');
    fs.mkdirSync(nobus);
    const r = world.tool('index', ['refresh', path.join(world.dir, 'missing'), nobus, world.repo], { cwd: world.home });
    expect(r.code).toBe(0);
    const index = readIndex(world);
    expect(index.repos.map((x) => [x.ok, typeof x.error])).toEqual([[false, 'string'], [false, 'string'], [true, 'undefined']]);
    expect(index.tasks.length).toBe(3);
  });

  it('INDEX-4: the write is atomic (parent dirs created, no residue), never inside a bus, and the fold is idempotent', () => {
    const world = fixture.world();
    populate(world);
    const out = path.join(world.dir, 'deep', 'er', 'index.json');
    const env = { AGENTS_INDEX_FILE: out };
    expect(world.tool('index', ['refresh', world.repo], { env }).code).toBe(0);
    const first = JSON.parse(fs.readFileSync(out, 'utf8')) as IndexFile;
    expect(world.tool('index', ['refresh', world.repo], { env }).code).toBe(0);
    const second = JSON.parse(fs.readFileSync(out, 'utf8')) as IndexFile;
    expect(second.tasks).toEqual(first.tasks);
    expect(fs.readdirSync(path.dirname(out))).toEqual(['index.json']);
    const busBefore = snapshot(world.bus);
    const inBus = world.tool('index', ['refresh', world.repo], { env: { AGENTS_INDEX_FILE: path.join(world.bus, 'index.json') } });
    expect(inBus.code).toBe(1);
    expect(inBus.stderr).toContain('E_INDEX_IN_BUS');
    fs.symlinkSync(world.bus, path.join(world.dir, 'bus-link'));
    const viaLink = world.tool('index', ['refresh', world.repo], { env: { AGENTS_INDEX_FILE: path.join(world.dir, 'bus-link', 'sub', 'index.json') } });
    expect(viaLink.code).toBe(1);
    expect(viaLink.stderr).toContain('E_INDEX_IN_BUS');
    expect(snapshot(world.bus)).toEqual(busBefore);
    // Nor inside the bus of a repo that is not being folded.
    const other = fixture.world();
    const otherBefore = snapshot(other.bus);
    const intoOther = world.tool('index', ['refresh', world.repo], { env: { AGENTS_INDEX_FILE: path.join(other.bus, 'index.json') } });
    expect(intoOther.code).toBe(1);
    expect(intoOther.stderr).toContain(`inside the bus ${fs.realpathSync(other.bus)}`);
    expect(snapshot(other.bus)).toEqual(otherBefore);
  });

  it('INDEX-5: one pass per bus — events.jsonl is opened once per repo whatever the number of packets', () => {
    expectStrace();
    const world = fixture.world();
    for (let i = 0; i < 40; i++) world.write(`inbox/${i}.md`, packet({ id: `T-${i}` }));
    world.write('events.jsonl', Array.from({ length: 400 }, (_, i) => JSON.stringify({ ts: new Date(i).toISOString(), event: 'task_progress', task: `T-${i % 40}`, note: `note ${i}` }) + '\n').join(''));
    const log = path.join(world.dir, 'strace.log');
    const r = spawnSync('strace', ['-f', '-e', 'trace=open,openat', '-o', log, fixture.install.bin('index'), 'refresh', world.repo], { cwd: world.home, env: world.env, encoding: 'utf8' });
    expect(r.status).toBe(0);
    const opens = fs.readFileSync(log, 'utf8').split('\n').filter((l) => l.includes('events.jsonl"'));
    expect(opens).toHaveLength(1);
    expect(readIndex(world).tasks).toHaveLength(40);
  });

  it('EVENTS-3: junk lines and a torn last line are skipped with a warning; later lines and unknown events are still read', () => {
    const world = fixture.world();
    world.write('inbox/a.md', packet({ id: 'A' }));
    world.write('events.jsonl', [
      '{"ts":"2026-01-01T00:00:00.000Z","event":"task_progress","task":"A","note":"early"}',
      '',
      '\u0000\u0001 binary junk {',
      '{"ts":"2026-01-01T00:00:01.000Z","event":"some_future_event","task":"A","extra":{"x":1}}',
      '[1,2,3]',
      '{"ts":"2026-01-01T00:00:02.000Z","event":"task_progress","task":"A","note":"late","unknown_field":true}',
      '{"ts":"2026-01-01T00:00:03.000Z","event":"task_progress","task":"A","note":"torn',
    ].join('\n'));
    const r = world.tool('index', ['refresh', world.repo], { cwd: world.home });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('warning');
    const task = readIndex(world).tasks.find((t) => t.id === 'A')!;
    expect(task.last_note).toBe('late');
    expect(task.last_event_ts).toBe('2026-01-01T00:00:02.000Z');
  });

  it('INDEX-6: a log over 2 GiB folds in bounded memory: the line over the limit is skipped with a warning, later lines are read, a long note is cut to what a follower shows', () => {
    const world = fixture.world();
    world.write('inbox/a.md', packet({ id: 'A' }));
    const log = world.write('events.jsonl', '{"ts":"2026-01-01T00:00:00.000Z","event":"task_progress","task":"A","note":"before"}\n');
    // A hole of 2.1 GiB (a sparse file: no disk used) ends the first line's successor: one huge line.
    fs.truncateSync(log, 2100 * 1024 * 1024);
    fs.appendFileSync(log, '\n' + JSON.stringify({ ts: '2026-01-01T00:00:01.000Z', event: 'task_progress', task: 'A', note: 'é'.repeat(3000) }) + '\n');
    expect(fs.statSync(log).size).toBeGreaterThan(2 ** 31);
    const r = world.tool('index', ['refresh', world.repo], { cwd: world.home });
    expect(r.stderr).toContain('skipped 1 unreadable line(s)');
    expect(r.code).toBe(0);
    const task = readIndex(world).tasks.find((t) => t.id === 'A')!;
    expect(task.last_event_ts).toBe('2026-01-01T00:00:01.000Z');
    expect(task.last_note).toBe('é'.repeat(1024)); // SHOWN_FIELD_BYTES: 2,048 bytes, no character split
  }, 180_000);
});
