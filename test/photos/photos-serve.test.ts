// Several photos on one note or message (PHOTO-8) and a kept photo served back to a paired
// device only (PHOTO-9), over a real socket to a real relay and bus, and through the real
// commander service with the fake adapter.
import * as fs from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MAX_PHOTOS_TOTAL_BYTES, PHOTO_FILE_PATTERN } from '../../protocol/photos';
import { commanderMessage } from '../../relay/actions/commander-actions';
import type { TaskActionContext } from '../../relay/actions/task-common';
import { photoRead } from '../../relay/photos/serve';
import { openSocket } from '../helpers/device';
import { makeFixture, outputText, settled, untilState } from '../commanders/helpers';
import { watchedWorld } from '../relay-watch/fixture';

const fx = watchedWorld({ inbox: ['M-1', 'M-2', 'M-3', 'M-4'], device: 'Pixel photos' });
const notesDir = (task: string): string => path.join(fx.world.bus, 'annotations', task);
const entries = (task: string): string[] => (fs.existsSync(notesDir(task)) ? fs.readdirSync(notesDir(task)).sort() : []);
const logBytes = (): number => fs.statSync(path.join(fx.world.bus, 'events.jsonl')).size;
type Refusal = { code: string; message: string };
const refusal = (p: Promise<unknown>): Promise<Refusal | undefined> => p.then(() => undefined, (e: unknown) => e as Refusal);

const jpeg = (r: number): Promise<Buffer> => sharp({ create: { width: 24, height: 16, channels: 3, background: { r, g: 90, b: 30 } } }).jpeg().toBuffer();
/** A PNG of noise: it does not compress, so its size is about width × height × 3. */
const noisyPng = (side: number): Promise<Buffer> => sharp({ create: { width: side, height: side, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } } }).png({ compressionLevel: 0 }).toBuffer();

describe('several photos on one note (PHOTO-8)', () => {
  it('PHOTO-8: a note with two photos keeps both beside it and names each on its own line, in the order attached', async () => {
    const [a, b] = [await jpeg(10), await jpeg(200)];
    await fx.client.request({ type: 'task.annotate', repo: fx.repo, task: 'M-1', turn: 0, anchor: 'general', body: 'Before and after', photos: [a.toString('base64'), b.toString('base64')] });
    const kept = entries('M-1').filter((n) => PHOTO_FILE_PATTERN.test(n));
    expect(kept).toHaveLength(2);
    const note = JSON.parse(fs.readFileSync(path.join(notesDir('M-1'), '0000-0000.json'), 'utf8')) as { body: string };
    const lines = note.body.split('\n');
    expect(lines.slice(0, 2)).toEqual(['Before and after', '']);
    expect(lines.slice(2)).toHaveLength(2);
    for (const line of lines.slice(2)) expect(line).toMatch(/^Photo attached: \/.*\/annotations\/M-1\/[0-9a-f]{64}\.jpg$/);
    // In the order attached: the first line's file holds the first photo (re-encoded bytes differ, the colour does not).
    const first = await sharp(fs.readFileSync(lines[2]!.slice('Photo attached: '.length))).raw().toBuffer();
    expect(first[0]).toBeLessThan(100);
  });

  it('PHOTO-8: five photos, or photos adding up to more than the total cap, are refused before anything is written', async () => {
    const before = logBytes();
    const one = (await jpeg(50)).toString('base64');
    const five = await refusal(fx.client.request({ type: 'task.annotate', repo: fx.repo, task: 'M-2', turn: 0, anchor: 'general', body: 'x', photos: [one, one, one, one, one] }));
    expect(five).toMatchObject({ code: 'E_BAD_FRAME' });
    const four = await refusal(fx.client.request({ type: 'task.annotate', repo: fx.repo, task: 'M-2', turn: 0, anchor: 'general', body: 'x', photo: one, photos: [one, one, one, one] }));
    expect(four).toMatchObject({ code: 'E_BAD_FRAME' });
    expect(four!.message).toMatch(/5 photos were attached; at most 4/);
    // Each ~368 KB, under the one-photo cap; the two are over the total, and their base64 still fits one frame.
    const [big1, big2] = [await noisyPng(350), await noisyPng(350)];
    expect(big1.length).toBeLessThan(MAX_PHOTOS_TOTAL_BYTES);
    expect(big1.length + big2.length).toBeGreaterThan(MAX_PHOTOS_TOTAL_BYTES);
    const total = await refusal(fx.client.request({ type: 'task.annotate', repo: fx.repo, task: 'M-2', turn: 0, anchor: 'general', body: 'x', photos: [big1.toString('base64'), big2.toString('base64')] }));
    expect(total).toMatchObject({ code: 'E_TOO_LARGE' });
    expect(total!.message).toMatch(/together they may be at most 716800 bytes/);
    expect(entries('M-2')).toEqual([]);
    expect(logBytes()).toBe(before);
  });
});

describe('a kept photo served back (PHOTO-9)', () => {
  it('PHOTO-9: a paired device reads a note\'s photo back by its kept name: the same bytes and its type', async () => {
    const photo = await jpeg(120);
    await fx.client.request({ type: 'task.annotate', repo: fx.repo, task: 'M-3', turn: 0, anchor: 'general', body: 'look', photos: [photo.toString('base64')] });
    const name = entries('M-3').find((n) => PHOTO_FILE_PATTERN.test(n))!;
    const ack = await fx.client.request({ type: 'photo.read', repo: fx.repo, task: 'M-3', name });
    const served = ack.result as { name: string; mime: string; base64: string };
    expect([served.name, served.mime]).toEqual([name, 'image/jpeg']);
    expect(Buffer.from(served.base64, 'base64').equals(fs.readFileSync(path.join(notesDir('M-3'), name)))).toBe(true);
    // A kept name that is not there: not found, nothing else read.
    expect(await refusal(fx.client.request({ type: 'photo.read', repo: fx.repo, task: 'M-4', name }))).toMatchObject({ code: 'E_NOT_FOUND' });
  });

  it('PHOTO-9: a hostile name (a path, a traversal, the note beside it, a planted link) reads nothing', async () => {
    fs.mkdirSync(notesDir('M-4'), { recursive: true });
    const secret = path.join(fx.world.bus, 'annotations', 'secret.txt');
    fs.writeFileSync(secret, 'TOP-SECRET');
    const planted = `${'a'.repeat(64)}.jpg`;
    fs.symlinkSync(secret, path.join(notesDir('M-4'), planted));
    const hostile = ['../secret.txt', '../M-3/0000-0000.json', secret, `../${'b'.repeat(64)}.jpg/../../secret.txt`, '0000-0000.json', `${'c'.repeat(64)}.jpg\u0000`];
    for (const name of hostile) {
      const refused = await refusal(fx.client.request({ type: 'photo.read', repo: fx.repo, task: 'M-4', name }));
      expect(refused, name).toMatchObject({ code: expect.stringMatching(/^E_BAD_(FRAME|PATH)$/) });
    }
    expect(await refusal(fx.client.request({ type: 'photo.read', repo: fx.repo, task: 'M-4', name: planted }))).toMatchObject({ code: 'E_NOT_FOUND' });
    // The handler itself checks the name too, whatever the schema let through.
    const ctx = { services: fx.relay.services } as unknown as TaskActionContext;
    for (const name of ['../secret.txt', '../M-3/0000-0000.json']) {
      expect(await refusal(photoRead(ctx, { type: 'photo.read', id: 'r1', repo: fx.repo, task: 'M-4', name }))).toMatchObject({ code: 'E_BAD_PATH' });
    }
  });

  it('PHOTO-9: an unpaired socket asking for a photo gets E_UNAUTHORIZED and no bytes', async () => {
    const name = entries('M-3').find((n) => PHOTO_FILE_PATTERN.test(n))!;
    const stranger = await openSocket(fx.relay, undefined);
    await stranger.next('auth.challenge');
    stranger.send({ type: 'photo.read', id: 'abcdefgh2', repo: fx.repo, task: 'M-3', name });
    expect((await stranger.next('error')).error.code).toBe('E_UNAUTHORIZED');
    expect((await stranger.closed).code).toBe(1008);
    expect(stranger.received.map((f) => f.type)).toEqual(['auth.challenge', 'error']);
  });

  it('PHOTO-8 PHOTO-9: a commander message with two photos names both in its turn, and each is served back from the commander\'s photos/', async () => {
    const c = makeFixture();
    try {
      const v = c.commanders.create('albums', path.join(c.root, 'memos'));
      await untilState(c.commanders, v.id, settled);
      const ctx = { services: { commanders: c.commanders } } as unknown as TaskActionContext;
      const photos = [(await jpeg(20)).toString('base64'), (await sharp({ create: { width: 8, height: 8, channels: 4, background: '#00ff0080' } }).png().toBuffer()).toString('base64')];
      await commanderMessage(ctx, { type: 'commander.message', id: 'a1', ts: Date.now(), commander: v.id, text: 'compare these', photos } as never);
      const dir = path.join(c.dataDir, 'commanders', v.id, 'photos');
      const names = fs.readdirSync(dir).sort();
      expect(names.map((n) => path.extname(n))).toEqual(expect.arrayContaining(['.jpg', '.png']));
      await untilState(c.commanders, v.id, (s) => settled(s) && outputText(c.commanders, v.id).includes('Photo attached'));
      for (const n of names) expect(outputText(c.commanders, v.id)).toContain(`Photo attached: ${path.join(dir, n)}`);
      for (const n of names) {
        const served = await photoRead(ctx, { type: 'photo.read', id: 'r2', commander: v.id, name: n });
        expect(Buffer.from(served.base64, 'base64').equals(fs.readFileSync(path.join(dir, n)))).toBe(true);
      }
      expect(await refusal(photoRead(ctx, { type: 'photo.read', id: 'r3', commander: v.id, name: '../record.json' }))).toMatchObject({ code: 'E_BAD_PATH' });
      expect(await refusal(photoRead(ctx, { type: 'photo.read', id: 'r4', commander: 'c-nobody', name: names[0]! }))).toMatchObject({ code: 'E_NOT_FOUND' });
    } finally {
      await c.cleanup();
    }
  });
});
