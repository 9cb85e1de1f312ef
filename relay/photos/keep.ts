// Keeping an attached photo (PHOTO-3..6): decoded, capped, type-checked and stripped
// before anything touches the disk, then written whole (temp + rename) under the
// relay's own name, the sha256 of the kept bytes. Never the client's name.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../../bus/fs-atomic';
import { MAX_PHOTO_BYTES, PHOTO_LINE_PREFIX } from '../../protocol/photos';
import { CommandrError } from '../../protocol/wire/errors';
import { stripPhoto } from './strip';

export interface CleanPhoto {
  /** `<sha256>.<jpg|png|webp>` */
  name: string;
  bytes: Buffer;
}

/** Base64 from the action → the bytes to keep; throws a CommandrError saying what is wrong, having written nothing. */
export function cleanPhoto(base64: string): CleanPhoto {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length % 4 !== 0) {
    throw new CommandrError('E_BAD_FRAME', 'the photo is not valid base64');
  }
  const raw = Buffer.from(base64, 'base64');
  if (raw.length > MAX_PHOTO_BYTES) {
    throw new CommandrError('E_TOO_LARGE', `the photo is ${raw.length} bytes; the limit is ${MAX_PHOTO_BYTES} bytes (700 KiB)`);
  }
  const { type, bytes } = stripPhoto(raw);
  return { name: `${crypto.createHash('sha256').update(bytes).digest('hex')}.${type}`, bytes };
}

/**
 * Writes the photo into `dir` (which the caller made safe) and returns its absolute path
 * and whether this call created it: the same photo twice is one file. Always written by
 * rename, which replaces whatever entry held the name (a planted symbolic link included)
 * instead of trusting it.
 */
export function writePhoto(dir: string, photo: CleanPhoto): { file: string; created: boolean } {
  const file = path.join(dir, photo.name);
  const existed = fs.lstatSync(file, { throwIfNoEntry: false }) !== undefined;
  writeFileAtomic(file, photo.bytes, 0o644);
  return { file, created: !existed };
}

/** The text with the line naming the photo, which the agent's prompt carries (PHOTO-6). */
export function withPhotoLine(text: string, file: string): string {
  const line = `${PHOTO_LINE_PREFIX}${file}`;
  return text.trim() === '' ? line : `${text.replace(/\s+$/, '')}\n\n${line}`;
}
