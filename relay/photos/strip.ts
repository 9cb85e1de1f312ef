// What an attached photo really is and its bytes without metadata (PHOTO-2, PHOTO-4).
// The type comes from magic bytes only; each format is walked structurally, so a
// truncated or malformed file is refused instead of kept half-understood.
import { CommandrError } from '../../protocol/wire/errors';

export type PhotoType = 'jpg' | 'png' | 'webp';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The type by magic bytes; anything but JPEG, PNG or WebP is refused with what it looks like. */
export function photoType(bytes: Buffer): PhotoType {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  throw bad(`the photo is not a JPEG, PNG or WebP image (it starts like ${looksLike(bytes)}); attach a picture`);
}

/** The image's bytes with its metadata removed; throws E_BAD_FRAME when the file is not a whole image of its type. */
export function stripPhoto(bytes: Buffer): { type: PhotoType; bytes: Buffer } {
  const type = photoType(bytes);
  const strip = { jpg: stripJpeg, png: stripPng, webp: stripWebp }[type];
  return { type, bytes: strip(bytes) };
}

function bad(message: string): CommandrError {
  return new CommandrError('E_BAD_FRAME', message);
}

function looksLike(bytes: Buffer): string {
  const head = bytes.toString('latin1', 0, 64).trimStart().toLowerCase();
  if (head.startsWith('%pdf')) return 'a PDF';
  if (head.startsWith('<')) return 'HTML or XML text';
  if (bytes.length === 0) return 'an empty file';
  return `bytes ${bytes.subarray(0, 4).toString('hex')}`;
}

// ---- JPEG: keep SOI, APP0 (JFIF), APP14 "Adobe" (colour transform), tables, frames, scans, EOI.

const KEEP_APP = (marker: number, data: Buffer): boolean =>
  (marker === 0xe0 && data.toString('latin1', 0, 4) === 'JFIF') || (marker === 0xee && data.toString('latin1', 0, 5) === 'Adobe');

export function stripJpeg(bytes: Buffer): Buffer {
  const out: Buffer[] = [bytes.subarray(0, 2)];
  let at = 2;
  let frame = false;
  let scan = false;
  for (;;) {
    if (at + 2 > bytes.length) throw bad('the JPEG is truncated: it ends before its end-of-image marker');
    if (bytes[at] !== 0xff) throw bad(`the JPEG is malformed: no marker at byte ${at}`);
    const marker = bytes[at + 1]!;
    if (marker === 0xff) { at += 1; continue; } // fill byte
    if (marker === 0xd9) {
      if (!frame || !scan) throw bad('the JPEG has no image data (no frame or scan before its end)');
      out.push(bytes.subarray(at, at + 2)); // anything after EOI is dropped
      return Buffer.concat(out);
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) { out.push(bytes.subarray(at, at + 2)); at += 2; continue; }
    if (at + 4 > bytes.length) throw bad('the JPEG is truncated inside a segment header');
    const length = bytes.readUInt16BE(at + 2);
    const end = at + 2 + length;
    if (length < 2 || end > bytes.length) throw bad('the JPEG is truncated: a segment runs past the end of the file');
    const data = bytes.subarray(at + 4, end);
    const isApp = marker >= 0xe0 && marker <= 0xef;
    if (!(isApp && !KEEP_APP(marker, data)) && marker !== 0xfe) out.push(bytes.subarray(at, end));
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) frame = true;
    at = end;
    if (marker === 0xda) {
      if (!frame) throw bad('the JPEG is malformed: a scan comes before its frame header');
      scan = true;
      const dataEnd = entropyEnd(bytes, at);
      out.push(bytes.subarray(at, dataEnd));
      at = dataEnd;
    }
  }
}

/** Where a scan's entropy-coded data ends: the next marker that is not a stuffed 0x00 or a restart. */
function entropyEnd(bytes: Buffer, from: number): number {
  for (let i = from; i + 1 < bytes.length; i++) {
    if (bytes[i] !== 0xff) continue;
    const next = bytes[i + 1]!;
    if (next === 0x00 || (next >= 0xd0 && next <= 0xd7) || next === 0xff) continue;
    return i;
  }
  throw bad('the JPEG is truncated: its image data ends without an end-of-image marker');
}

// ---- PNG: every chunk CRC-checked; text, EXIF and time chunks dropped; nothing after IEND.

const PNG_DROP = new Set(['tEXt', 'iTXt', 'zTXt', 'eXIf', 'tIME']);

export function stripPng(bytes: Buffer): Buffer {
  const out: Buffer[] = [PNG_SIGNATURE];
  let at = 8;
  let first = true;
  for (;;) {
    if (at + 12 > bytes.length) throw bad('the PNG is truncated: it ends before its IEND chunk');
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const end = at + 12 + length;
    if (length > 0x7fffffff || end > bytes.length) throw bad(`the PNG is truncated: chunk ${JSON.stringify(type)} runs past the end of the file`);
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== bytes.readUInt32BE(at + 8 + length)) throw bad(`the PNG is damaged: chunk ${JSON.stringify(type)} fails its checksum`);
    if (first && type !== 'IHDR') throw bad('the PNG is malformed: it does not start with IHDR');
    first = false;
    if (!PNG_DROP.has(type)) out.push(bytes.subarray(at, end));
    at = end;
    if (type === 'IEND') return Buffer.concat(out);
  }
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

// ---- WebP: EXIF and XMP chunks dropped, VP8X flags and the RIFF size fixed.

const VP8X_EXIF = 0x08;
const VP8X_XMP = 0x04;

export function stripWebp(bytes: Buffer): Buffer {
  const riffEnd = 8 + bytes.readUInt32LE(4);
  if (riffEnd > bytes.length) throw bad('the WebP is truncated: the file is shorter than its RIFF header says');
  const chunks: Buffer[] = [];
  let at = 12;
  let image = false;
  while (at < riffEnd) {
    if (at + 8 > riffEnd) throw bad('the WebP is truncated inside a chunk header');
    const fourcc = bytes.toString('latin1', at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    const end = at + 8 + size + (size & 1);
    if (end > riffEnd) throw bad(`the WebP is truncated: chunk ${JSON.stringify(fourcc)} runs past the end of the file`);
    if (chunks.length === 0 && !['VP8 ', 'VP8L', 'VP8X'].includes(fourcc)) throw bad('the WebP is malformed: its first chunk is not VP8, VP8L or VP8X');
    if (fourcc === 'VP8 ' || fourcc === 'VP8L' || fourcc === 'ANMF') image = true;
    if (fourcc !== 'EXIF' && fourcc !== 'XMP ') {
      const chunk = Buffer.from(bytes.subarray(at, end));
      if (fourcc === 'VP8X' && size >= 1) chunk[8] = chunk[8]! & ~(VP8X_EXIF | VP8X_XMP);
      chunks.push(chunk);
    }
    at = end;
  }
  if (!image) throw bad('the WebP has no image data');
  const body = Buffer.concat(chunks);
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(body.length + 4, 4);
  header.write('WEBP', 8, 'latin1');
  return Buffer.concat([header, body]);
}
