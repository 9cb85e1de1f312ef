// A photo attached to a note or a commander message (PHOTO-n), end to end on the relay:
// the signed `task.annotate` over a real socket to a real relay and bus, the real Claude Code
// prompt hook process reading the note, and the real commander turn through the fake adapter.
import * as fs from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MAX_PHOTO_BYTES, PHOTO_FILE_PATTERN } from '../../protocol/photos';
import { CommanderMessage, TaskAnnotate } from '../../protocol/wire/frames';
import { commanderMessage } from '../../relay/actions/commander-actions';
import type { TaskActionContext } from '../../relay/actions/task-common';
import { ROOT, runProcess } from '../adapters/harness';
import { makeFixture, outputText, settled, untilState } from '../commanders/helpers';
import { watchedWorld } from '../relay-watch/fixture';

const fx = watchedWorld({ inbox: ['P-1', 'P-2', 'P-3'], device: 'Pixel photo' });
const SECRET = 'GPS-48.8584N-SECRET';

async function jpegWithGps(): Promise<Buffer> {
  return sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 10, g: 120, b: 200 } } })
    .jpeg().withExif({ IFD0: { Copyright: SECRET }, IFD3: { GPSLatitudeRef: 'N' } }).toBuffer();
}

const notesDir = (task: string): string => path.join(fx.world.bus, 'annotations', task);
const entries = (task: string): string[] => (fs.existsSync(notesDir(task)) ? fs.readdirSync(notesDir(task)).sort() : []);
const logBytes = (): number => fs.statSync(path.join(fx.world.bus, 'events.jsonl')).size;

/** The real Claude Code prompt hook for the task, as Claude Code runs it. */
async function promptHook(task: string): Promise<string> {
  const input = JSON.stringify({ session_id: `s-${task}`, cwd: fx.world.repo, hook_event_name: 'UserPromptSubmit', prompt: 'next step' });
  const env = { PATH: process.env.PATH, HOME: fx.world.env.HOME ?? fx.relay.dataDir, COMMANDR_HOME: fx.relay.dataDir, AGENTS_TASK_ID: task };
  const ran = await runProcess(path.join(ROOT, 'adapters', 'claude', 'hooks', 'user-prompt-submit'), [], { cwd: fx.world.repo, input, env });
  expect(ran.code, ran.stderr).toBe(0);
  return (JSON.parse(ran.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
}

describe('photos on notes (relay and prompt hook)', () => {
  it('PHOTO-5 PHOTO-6: a note with a photo keeps it beside the note under its sha256, stripped, and the agent prompt names it by absolute path', async () => {
    const photo = await jpegWithGps();
    const ack = await fx.client.request({ type: 'task.annotate', repo: fx.repo, task: 'P-1', turn: 0, anchor: 'general', body: 'Like this screenshot', photo: photo.toString('base64') });
    expect(ack.result).toEqual({ file: '0000-0000.json', seq: 0 });
    const kept = entries('P-1').filter((n) => PHOTO_FILE_PATTERN.test(n));
    expect(kept).toHaveLength(1);
    expect(entries('P-1')).toEqual(['0000-0000.json', kept[0]].sort());
    const file = path.join(notesDir('P-1'), kept[0]!);
    const bytes = fs.readFileSync(file);
    expect(bytes.toString('latin1')).not.toContain(SECRET);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600); // the person's picture: no other OS user reads it
    const meta = await sharp(bytes).metadata();
    expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(['jpeg', 40, 30, undefined]);
    const note = JSON.parse(fs.readFileSync(path.join(notesDir('P-1'), '0000-0000.json'), 'utf8'));
    expect(note.body).toBe(`Like this screenshot\n\nPhoto attached: ${file}`);
    expect(path.isAbsolute(file)).toBe(true);
    await fx.bus.event('task_annotation', 'P-1');

    const context = await promptHook('P-1');
    expect(context).toContain('commandr-annotations');
    expect(context).toContain(`Photo attached: ${file}`);
  });

  it('PHOTO-2 PHOTO-3: a PDF or HTML page, a truncated JPEG and an oversized photo are refused with clear errors; no file, no note, no event', async () => {
    const base = { type: 'task.annotate', repo: fx.repo, task: 'P-2', turn: 0, anchor: 'general', body: 'see photo' };
    const jpeg = await jpegWithGps();
    const big = Buffer.concat([jpeg.subarray(0, 2), Buffer.alloc(MAX_PHOTO_BYTES, 0x41)]);
    const before = logBytes();
    const cases: Array<[Buffer, string, RegExp]> = [
      [Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n'), 'E_BAD_FRAME', /not a JPEG, PNG or WebP image.*PDF/],
      [Buffer.from('<html><body onload=alert(1)>'), 'E_BAD_FRAME', /not a JPEG, PNG or WebP image.*HTML/],
      [jpeg.subarray(0, jpeg.length - 30), 'E_BAD_FRAME', /JPEG is truncated/],
      [big, 'E_TOO_LARGE', /limit is 716800 bytes/],
    ];
    for (const [bytes, code, message] of cases) {
      const refused = await fx.client.request({ ...base, photo: bytes.toString('base64') }).then(() => undefined, (e: unknown) => e as { code: string; message: string });
      expect(refused, `${code} ${message}`).toMatchObject({ code });
      expect(refused!.message).toMatch(message);
    }
    expect(entries('P-2')).toEqual([]);
    expect(logBytes()).toBe(before);
  });

  it('PHOTO-5: no field carries a client file name; a body naming a hostile path is the person\'s text, the kept file is the relay\'s hash', async () => {
    for (const frame of [TaskAnnotate, CommanderMessage]) expect(Object.keys(frame.shape).filter((k) => /name|file|path/i.test(k))).toEqual([]);
    const photo = (await jpegWithGps()).toString('base64');
    await fx.client.request({ type: 'task.annotate', repo: fx.repo, task: 'P-2', turn: 0, anchor: 'general', body: '../../../../evil.jpg', photo });
    const names = entries('P-2');
    expect(names.filter((n) => PHOTO_FILE_PATTERN.test(n))).toHaveLength(1);
    expect(names).toHaveLength(2);
    const note = JSON.parse(fs.readFileSync(path.join(notesDir('P-2'), names.find((n) => n.endsWith('.json'))!), 'utf8'));
    expect(note.body).toMatch(/^\.\.\/\.\.\/\.\.\/\.\.\/evil\.jpg\n\nPhoto attached: \/.*\/annotations\/P-2\/[0-9a-f]{64}\.jpg$/);
  });
  it('PHOTO-6: when the note cannot be written (every seq of the turn taken) its photo is removed again: no photo without its note', async () => {
    fs.mkdirSync(notesDir('P-3'), { recursive: true });
    const last = JSON.stringify({ task: 'P-3', turn: 0, anchor: 'general', ts: '2026-01-01T00:00:00.000Z', author: 'me', body: 'x', consumed: true });
    fs.writeFileSync(path.join(notesDir('P-3'), '0000-9999.json'), last);
    const before = logBytes();
    const refused = await fx.client.request({ type: 'task.annotate', repo: fx.repo, task: 'P-3', turn: 0, anchor: 'general', body: 'late', photo: (await jpegWithGps()).toString('base64') })
      .then(() => undefined, (e: unknown) => e as { code: string });
    expect(refused).toBeDefined();
    expect(entries('P-3')).toEqual(['0000-9999.json']);
    expect(logBytes()).toBe(before);
  });
});

describe('photos on commander messages', () => {
  it('PHOTO-7: a commander message with a photo keeps it in the commander\'s photos/ and the turn prompt names it by absolute path', async () => {
    const c = makeFixture();
    try {
      const v = c.commanders.create('memos', path.join(c.root, 'memos'));
      await untilState(c.commanders, v.id, settled);
      const ctx = { services: { commanders: c.commanders } } as unknown as TaskActionContext;
      const png = await sharp({ create: { width: 8, height: 8, channels: 4, background: '#00ff0080' } }).png().toBuffer();
      await commanderMessage(ctx, { type: 'commander.message', id: 'a1', ts: Date.now(), commander: v.id, text: 'what is on this?', photo: png.toString('base64') } as never);
      const dir = path.join(c.dataDir, 'commanders', v.id, 'photos');
      const names = fs.readdirSync(dir);
      expect(names).toHaveLength(1);
      expect(names[0]).toMatch(PHOTO_FILE_PATTERN);
      expect(names[0]).toMatch(/\.png$/);
      expect(fs.statSync(path.join(dir, names[0]!)).mode & 0o777).toBe(0o600);
      await untilState(c.commanders, v.id, (s) => settled(s) && outputText(c.commanders, v.id).includes('Photo attached'));
      expect(outputText(c.commanders, v.id)).toContain(`echo: Photo attached: ${path.join(dir, names[0]!)}`);

      const refused = await commanderMessage(ctx, { type: 'commander.message', id: 'a2', ts: Date.now(), commander: v.id, text: 'and this', photo: Buffer.from('%PDF-1.7').toString('base64') } as never)
        .then(() => undefined, (e: unknown) => e as { code: string; message: string });
      expect(refused).toMatchObject({ code: 'E_BAD_FRAME' });
      expect(fs.readdirSync(dir)).toEqual(names);
    } finally {
      await c.cleanup();
    }
  });
});
