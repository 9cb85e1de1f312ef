// Conformance of `annotate-write` and the annotation files it creates (ANNOT-n, ID-SAFE-3, ID-SAFE-4).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listAnnotations, markConsumed, writeAnnotation } from '../../bus/annotations';
import { type World, runAsync, useInstall } from './harness';

const fixture = useInstall();

const annotate = (w: World, args: string[], input?: string) => w.tool('annotate-write', ['--bus', w.bus, ...args], { cwd: w.home, input });
const dirOf = (w: World, task: string) => path.join(w.bus, 'annotations', task);

describe('annotate-write', () => {
  it('ANNOT-1: creates annotations/<task>/<turn:4>-<seq:4>.json with seq from 0000, defaults anchor general and author human', () => {
    const world = fixture.world();
    const first = annotate(world, ['--task', 'T-1', '--turn', '3', '--body', 'use the **cache**']);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(`annotation:${path.join(dirOf(world, 'T-1'), '0003-0000.json')}\n`);
    expect(annotate(world, ['--task', 'T-1', '--turn', '3']).code).toBe(0);
    expect(annotate(world, ['--task', 'T-1', '--turn', '12', '--anchor', 'line:src/a.ts:40', '--author', 'ana']).code).toBe(0);
    expect(fs.readdirSync(dirOf(world, 'T-1')).sort()).toEqual(['0003-0000.json', '0003-0001.json', '0012-0000.json']);
    const note = JSON.parse(fs.readFileSync(path.join(dirOf(world, 'T-1'), '0003-0000.json'), 'utf8')) as Record<string, unknown>;
    expect(note).toMatchObject({ task: 'T-1', turn: 3, anchor: 'general', author: 'human', body: 'use the **cache**', consumed: false });
  });

  it('ANNOT-1: --body - reads the markdown body from stdin', () => {
    const world = fixture.world();
    const body = '# Heads up\n\n- multi\n- line "quoted"\n';
    expect(annotate(world, ['--task', 'T-1', '--turn', '0', '--body', '-'], body).code).toBe(0);
    const note = JSON.parse(fs.readFileSync(path.join(dirOf(world, 'T-1'), '0000-0000.json'), 'utf8')) as { body: string };
    expect(note.body).toBe(body);
  });

  it('ANNOT-2: the file holds exactly task, turn, anchor, ts, author, body, consumed; existing files are never touched', () => {
    const world = fixture.world();
    const existing = world.write('annotations/T-1/0001-0000.json', '{"hand":"written"}');
    expect(annotate(world, ['--task', 'T-1', '--turn', '1', '--body', '']).code).toBe(0);
    expect(fs.readFileSync(existing, 'utf8')).toBe('{"hand":"written"}');
    const note = JSON.parse(fs.readFileSync(path.join(dirOf(world, 'T-1'), '0001-0001.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(note)).toEqual(['task', 'turn', 'anchor', 'ts', 'author', 'body', 'consumed']);
    expect(note.body).toBe('');
    expect(Number.isInteger(note.turn)).toBe(true);
  });

  it('ANNOT-3: one task_annotation event follows the file, carrying seq and never the body', () => {
    const world = fixture.world();
    annotate(world, ['--task', 'T-1', '--turn', '2', '--anchor', 'card:src/x.ts', '--author', 'ana', '--body', 'secret body']);
    annotate(world, ['--task', 'T-1', '--turn', '2']);
    expect(world.events()).toEqual([
      { ts: expect.any(String), event: 'task_annotation', task: 'T-1', turn: 2, anchor: 'card:src/x.ts', author: 'ana', seq: 0 },
      { ts: expect.any(String), event: 'task_annotation', task: 'T-1', turn: 2, anchor: 'general', author: 'human', seq: 1 },
    ]);
    expect(world.eventsText()).not.toContain('secret body');
  });

  it('ANNOT-4: concurrent writers on one turn each get their own file (exclusive create, retry past the highest seq on collision), however many race', async () => {
    const world = fixture.world();
    // 48 processes at once: more than a fixed window of tries survives (32 tries lost 4–7 of them).
    const n = 48;
    const results = await Promise.all(Array.from({ length: n }, (_, i) =>
      runAsync(fixture.install.bin('annotate-write'), ['--bus', world.bus, '--task', 'T-1', '--turn', '5', '--body', `note ${i}`], { cwd: world.home, env: world.env })));
    expect(results.filter((r) => r.code !== 0).map((r) => r.stderr)).toEqual([]);
    const files = fs.readdirSync(dirOf(world, 'T-1')).sort();
    expect(files).toEqual(Array.from({ length: n }, (_, i) => `0005-${String(i).padStart(4, '0')}.json`));
    const bodies = files.map((f) => (JSON.parse(fs.readFileSync(path.join(dirOf(world, 'T-1'), f), 'utf8')) as { body: string }).body).sort();
    expect(bodies).toEqual(Array.from({ length: n }, (_, i) => `note ${i}`).sort());
    expect(world.events().map((e) => e.seq).sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: n }, (_, i) => i));
  }, 180_000); // a deadline that only bounds a hang: 48 node starts take a minute on a loaded 2-core machine

  it('ANNOT-5: listing is in ascending file order and marking consumed flips only that field', () => {
    const world = fixture.world();
    annotate(world, ['--task', 'T-1', '--turn', '2', '--body', 'b']);
    annotate(world, ['--task', 'T-1', '--turn', '1', '--body', 'a']);
    const notes = listAnnotations(world.bus, 'T-1');
    expect(notes.map((n) => n.note.body)).toEqual(['a', 'b']);
    const before = JSON.parse(fs.readFileSync(notes[0]!.file, 'utf8')) as Record<string, unknown>;
    markConsumed(world.bus, 'T-1', notes[0]!.file);
    const after = JSON.parse(fs.readFileSync(notes[0]!.file, 'utf8')) as Record<string, unknown>;
    expect(after).toEqual({ ...before, consumed: true });
    expect(listAnnotations(world.bus, 'T-1').map((n) => n.note.consumed)).toEqual([true, false]);
    expect(fs.readdirSync(dirOf(world, 'T-1')).sort()).toEqual(['0001-0000.json', '0002-0000.json']);
  });

  const hostile: Array<[string, string[]]> = [
    ['task with ..', ['--task', '..', '--turn', '1']],
    ['task with slash', ['--task', 'a/../../b', '--turn', '1']],
    ['task with quote', ['--task', 'a"b', '--turn', '1']],
    ['anchor escaping with ..', ['--task', 'T', '--turn', '1', '--anchor', 'card:../../etc/passwd']],
    ['absolute anchor path', ['--task', 'T', '--turn', '1', '--anchor', 'line:/etc/passwd:1']],
    ['anchor with newline', ['--task', 'T', '--turn', '1', '--anchor', 'card:a\nb']],
    ['negative turn', ['--task', 'T', '--turn', '-1']],
    ['huge turn', ['--task', 'T', '--turn', '10000']],
    ['unknown option', ['--task', 'T', '--turn', '1', '--path', '/etc']],
  ];
  it.each(hostile)('ID-SAFE-3: %s is refused (exit 2) and nothing is written', (_label, args) => {
    const world = fixture.world();
    const r = annotate(world, args);
    expect(r.code).toBe(2);
    expect(fs.existsSync(path.join(world.bus, 'annotations'))).toBe(false);
    expect(world.eventsText()).toBe('');
  });

  it('ID-SAFE-3: --bus must be a bus: a plain directory is refused and left untouched', () => {
    const world = fixture.world();
    const r = world.tool('annotate-write', ['--bus', world.home, '--task', 'T', '--turn', '1'], { cwd: world.home });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('E_BUS_MISSING_DIR');
    expect(fs.existsSync(path.join(world.home, 'annotations'))).toBe(false);
  });

  /** Every entry under `dir` (type, mode, bytes): "byte-for-byte unchanged" checks. */
  const tree = (dir: string): Record<string, string> => {
    const out: Record<string, string> = {};
    const walk = (d: string): void => {
      for (const name of fs.readdirSync(d).sort()) {
        const p = path.join(d, name);
        const st = fs.lstatSync(p);
        out[path.relative(dir, p)] = st.isDirectory() ? `dir ${st.mode}` : `${st.mode} ${fs.readFileSync(p).toString('base64')}`;
        if (st.isDirectory()) walk(p);
      }
    };
    walk(dir);
    return out;
  };
  /** `<world>/outside`, a directory beside the repo holding one file. */
  const victim = (w: World): string => {
    const outside = path.join(w.dir, 'outside');
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, '0001-0000.json'), '{"mine":true}\n');
    return outside;
  };

  it('ID-SAFE-4: annotations/T-9 as a symlink to a directory outside the repo is refused (exit 2, E_BAD_PATH); nothing is written there, no temp file either', () => {
    const world = fixture.world();
    const outside = victim(world);
    fs.mkdirSync(path.join(world.bus, 'annotations'), { recursive: true });
    fs.symlinkSync(outside, dirOf(world, 'T-9'));
    const before = tree(outside);
    for (const turn of ['0', '1']) {
      const r = annotate(world, ['--task', 'T-9', '--turn', turn, '--body', 'pwned']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('E_BAD_PATH');
      expect(r.stderr).toContain(`${dirOf(world, 'T-9')} leads outside the bus`);
    }
    expect(tree(outside)).toEqual(before);
    expect(world.eventsText()).toBe('');
    expect(() => writeAnnotation(world.bus, { task: 'T-9', turn: 0, body: 'pwned' })).toThrow(expect.objectContaining({ code: 'E_BAD_PATH' }));
    expect(tree(outside)).toEqual(before);
  });

  it('ID-SAFE-4: a symlinked annotations/ parent (or a dangling link) gets no directory created through it', () => {
    const world = fixture.world();
    const outside = victim(world);
    fs.rmSync(path.join(world.bus, 'annotations'), { recursive: true, force: true });
    fs.symlinkSync(path.relative(world.bus, outside), path.join(world.bus, 'annotations'));
    const before = tree(outside);
    const r = annotate(world, ['--task', 'T-9', '--turn', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${path.join(world.bus, 'annotations')} leads outside the bus`);
    expect(tree(outside)).toEqual(before);
    expect(fs.existsSync(path.join(outside, 'T-9'))).toBe(false);
    // A link to a place that does not exist yet: mkdir never follows it, and the write is refused.
    fs.rmSync(path.join(world.bus, 'annotations'));
    fs.symlinkSync(path.join(outside, 'later'), path.join(world.bus, 'annotations'));
    const dangling = annotate(world, ['--task', 'T-9', '--turn', '1']);
    expect(dangling.code).toBe(2);
    expect(dangling.stderr).toContain('E_BAD_PATH');
    expect(tree(outside)).toEqual(before);
    expect(world.eventsText()).toBe('');
  });

  it('ID-SAFE-4: markConsumed does not replace a note reached through a link out of the bus; a link that stays inside the bus is allowed', () => {
    const world = fixture.world();
    const outside = victim(world);
    fs.mkdirSync(path.join(world.bus, 'annotations'), { recursive: true });
    fs.symlinkSync(outside, dirOf(world, 'T-9'));
    const before = tree(outside);
    // A note the outside file would pass for, so only the link check stands in the way.
    fs.writeFileSync(path.join(outside, '0002-0000.json'), JSON.stringify({ task: 'T-9', turn: 2, anchor: 'general', ts: new Date().toISOString(), author: 'human', body: '', consumed: false }));
    const withNote = tree(outside);
    expect(() => markConsumed(world.bus, 'T-9', path.join(dirOf(world, 'T-9'), '0002-0000.json'))).toThrow(expect.objectContaining({ code: 'E_BAD_PATH' }));
    expect(tree(outside)).toEqual(withNote);
    expect(Object.keys(withNote).length).toBe(Object.keys(before).length + 1);
    // Inside the bus: annotations/T-8 -> ../done/notes (simplest rule: only the real path counts).
    fs.mkdirSync(path.join(world.bus, 'done', 'notes'));
    fs.symlinkSync(path.join('..', 'done', 'notes'), dirOf(world, 'T-8'));
    expect(annotate(world, ['--task', 'T-8', '--turn', '1']).code).toBe(0);
    expect(fs.readdirSync(path.join(world.bus, 'done', 'notes'))).toEqual(['0001-0000.json']);
  });
});
