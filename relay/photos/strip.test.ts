// The strippers on real image bytes (PHOTO-2..5): images made here by libvips (sharp)
// with real metadata in them, stripped, and decoded again by libvips, an independent decoder.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MAX_PHOTO_BYTES, PHOTO_FILE_PATTERN } from '../../protocol/photos';
import { CommandrError } from '../../protocol/wire/errors';
import { cleanPhoto, writePhoto } from './keep';
import { crc32, stripPhoto } from './strip';

const SECRET = 'GPS-SECRET-Lat-48.8584';
const base = () => sharp({ create: { width: 32, height: 24, channels: 3, background: { r: 200, g: 30, b: 90 } } });
const exif = { IFD0: { Copyright: SECRET, Make: 'PhonyPhone' }, IFD3: { GPSLatitudeRef: 'N', GPSLongitudeRef: 'E' } };

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A PNG with a tEXt, an iTXt, an eXIf and a tIME chunk inserted after IHDR (8 + 25 bytes). */
async function pngWithText(): Promise<Buffer> {
  const png = await base().png().toBuffer();
  const extra = [
    pngChunk('tEXt', Buffer.from(`Comment\0${SECRET}`, 'latin1')),
    pngChunk('iTXt', Buffer.from(`Author\0\0\0\0\0${SECRET}`, 'latin1')),
    pngChunk('eXIf', Buffer.from(`MM\0*${SECRET}`, 'latin1')),
    pngChunk('tIME', Buffer.from([0x07, 0xea, 12, 3, 22, 0, 0])),
  ];
  return Buffer.concat([png.subarray(0, 33), ...extra, png.subarray(33)]);
}

/** A JPEG with EXIF (GPS), an XMP APP1, an APP13 and a COM segment. */
async function jpegWithExif(): Promise<Buffer> {
  const jpeg = await base().jpeg().withExif(exif).toBuffer();
  const seg = (marker: number, data: Buffer) => {
    const head = Buffer.from([0xff, marker, 0, 0]);
    head.writeUInt16BE(data.length + 2, 2);
    return Buffer.concat([head, data]);
  };
  const extra = [
    seg(0xe1, Buffer.from(`http://ns.adobe.com/xap/1.0/\0<x:xmpmeta>${SECRET}</x:xmpmeta>`, 'latin1')),
    seg(0xed, Buffer.from(`Photoshop 3.0\0${SECRET}`, 'latin1')),
    seg(0xfe, Buffer.from(SECRET, 'latin1')),
  ];
  return Buffer.concat([jpeg.subarray(0, 2), ...extra, jpeg.subarray(2)]);
}

function expectRefused(fn: () => unknown, code: string, words: RegExp): void {
  let thrown: unknown;
  try {
    fn();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(CommandrError);
  expect((thrown as CommandrError).code).toBe(code);
  expect((thrown as CommandrError).message).toMatch(words);
}

describe('photo strippers', () => {
  it('PHOTO-4: a JPEG loses its EXIF (GPS), XMP, APP13 and COM segments and still decodes to the same pixels size', async () => {
    const input = await jpegWithExif();
    expect(input.toString('latin1')).toContain(SECRET);
    expect((await sharp(input).metadata()).exif).toBeDefined();
    const { type, bytes } = stripPhoto(input);
    expect(type).toBe('jpg');
    const text = bytes.toString('latin1');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('Exif\0\0');
    expect(text).not.toContain('PhonyPhone');
    const meta = await sharp(bytes).metadata();
    expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(['jpeg', 32, 24, undefined]);
    const pixels = await sharp(bytes).raw().toBuffer();
    expect(pixels.length).toBe(32 * 24 * 3);
  });

  it('PHOTO-4: a PNG loses tEXt, iTXt, eXIf and tIME and still decodes (every chunk CRC intact)', async () => {
    const input = await pngWithText();
    expect((await sharp(input).metadata()).format).toBe('png'); // the input itself is a valid PNG
    const { type, bytes } = stripPhoto(input);
    expect(type).toBe('png');
    expect(bytes.toString('latin1')).not.toContain(SECRET);
    for (const chunk of ['tEXt', 'iTXt', 'eXIf', 'tIME']) expect(bytes.toString('latin1')).not.toContain(chunk);
    const meta = await sharp(bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 32, 24]);
    expect((await sharp(bytes).raw().toBuffer()).length).toBe(32 * 24 * 3);
  });

  it('PHOTO-4: a WebP loses its EXIF chunk, the VP8X EXIF flag is cleared and the RIFF size fixed', async () => {
    const input = await base().webp().withExif(exif).toBuffer();
    expect(input.toString('latin1')).toContain(SECRET);
    const { type, bytes } = stripPhoto(input);
    expect(type).toBe('webp');
    expect(bytes.toString('latin1')).not.toContain(SECRET);
    expect(bytes.toString('latin1')).not.toContain('EXIF');
    expect(bytes.readUInt32LE(4)).toBe(bytes.length - 8);
    const vp8x = bytes.indexOf('VP8X', 12, 'latin1');
    if (vp8x >= 0) expect(bytes[vp8x + 8]! & 0x0c).toBe(0);
    const meta = await sharp(bytes).metadata();
    expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(['webp', 32, 24, undefined]);
    expect((await sharp(bytes).raw().toBuffer()).length).toBe(32 * 24 * 3);
  });

  it('PHOTO-2: a PDF or an HTML page named .jpg is refused by its bytes, saying what it looks like', () => {
    const pdf = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF\n');
    const html = Buffer.from('<!doctype html><script>alert(1)</script>');
    expectRefused(() => cleanPhoto(pdf.toString('base64')), 'E_BAD_FRAME', /not a JPEG, PNG or WebP.*a PDF/);
    expectRefused(() => cleanPhoto(html.toString('base64')), 'E_BAD_FRAME', /not a JPEG, PNG or WebP.*HTML/);
    expectRefused(() => cleanPhoto(Buffer.from('GIF89a....').toString('base64')), 'E_BAD_FRAME', /not a JPEG, PNG or WebP/);
    expectRefused(() => cleanPhoto('not base64 at all!'), 'E_BAD_FRAME', /not valid base64/);
  });

  it('PHOTO-2: a truncated JPEG, PNG or WebP is refused as truncated, not kept half', async () => {
    const jpeg = await jpegWithExif();
    const png = await pngWithText();
    const webp = await base().webp().toBuffer();
    expectRefused(() => stripPhoto(jpeg.subarray(0, jpeg.length - 40)), 'E_BAD_FRAME', /JPEG is truncated/);
    expectRefused(() => stripPhoto(jpeg.subarray(0, 30)), 'E_BAD_FRAME', /JPEG is truncated/);
    expectRefused(() => stripPhoto(png.subarray(0, png.length - 20)), 'E_BAD_FRAME', /PNG is (truncated|damaged)/);
    expectRefused(() => stripPhoto(webp.subarray(0, webp.length - 10)), 'E_BAD_FRAME', /WebP is truncated/);
  });

  it('PHOTO-3: a photo over 700 KiB is refused with the limit named, before any check or write', () => {
    const big = Buffer.alloc(MAX_PHOTO_BYTES + 1, 0);
    big.set([0xff, 0xd8, 0xff], 0);
    expectRefused(() => cleanPhoto(big.toString('base64')), 'E_TOO_LARGE', /limit is 716800 bytes/);
  });

  it('PHOTO-5: the kept file is named by the sha256 of the kept bytes, written whole with no temp left, replacing a planted link', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'photo-keep-'));
    try {
      const photo = cleanPhoto((await jpegWithExif()).toString('base64'));
      expect(photo.name).toMatch(PHOTO_FILE_PATTERN);
      const first = writePhoto(dir, photo);
      expect(first.created).toBe(true);
      expect(writePhoto(dir, photo).created).toBe(false); // the same photo twice is one file
      expect(fs.readdirSync(dir)).toEqual([photo.name]);
      expect(fs.readFileSync(first.file).equals(photo.bytes)).toBe(true);
      // A link planted under the name the relay will use is replaced, never followed.
      const secret = path.join(dir, 'secret.txt');
      fs.writeFileSync(secret, 'private key');
      fs.rmSync(first.file);
      fs.symlinkSync(secret, first.file);
      expect(writePhoto(dir, photo).created).toBe(false);
      expect(fs.lstatSync(first.file).isFile()).toBe(true);
      expect(fs.readFileSync(first.file).equals(photo.bytes)).toBe(true);
      expect(fs.readFileSync(secret, 'utf8')).toBe('private key');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
