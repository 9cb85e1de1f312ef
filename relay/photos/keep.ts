// Keeping an attached photo (PHOTO-3..6): decoded, capped, type-checked and stripped
// before anything touches the disk, then written whole (temp + rename) under the
// relay's own name, the sha256 of the kept bytes. Never the client's name.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../../bus/fs-atomic';
import { MAX_PHOTO_BYTES, MAX_PHOTOS, MAX_PHOTOS_TOTAL_BYTES, PHOTO_LINE_PREFIX } from '../../protocol/photos';
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

/** An action's photos (its `photo` and `photos`, PHOTO-8): at most MAX_PHOTOS, together at most MAX_PHOTOS_TOTAL_BYTES, each cleaned; all checked before anything is written. */
export function cleanPhotos(frame: { photo?: string; photos?: string[] }): CleanPhoto[] {
  const all = [...(frame.photo === undefined ? [] : [frame.photo]), ...(frame.photos ?? [])];
  if (all.length > MAX_PHOTOS) throw new CommandrError('E_BAD_FRAME', `${all.length} photos were attached; at most ${MAX_PHOTOS} may be`);
  const cleaned = all.map(cleanPhoto);
  const total = cleaned.reduce((n, p) => n + p.bytes.length, 0);
  if (total > MAX_PHOTOS_TOTAL_BYTES) {
    throw new CommandrError('E_TOO_LARGE', `the photos add up to ${total} bytes; together they may be at most ${MAX_PHOTOS_TOTAL_BYTES} bytes (700 KiB)`);
  }
  const seen = new Set<string>();
  return cleaned.filter((p) => !seen.has(p.name) && seen.add(p.name)); // the same photo twice is named once
}

/** Writes every photo into `dir`; when one write fails, the ones this call created are removed again. */
export function writePhotos(dir: string, photos: CleanPhoto[]): { file: string; created: boolean }[] {
  const kept: { file: string; created: boolean }[] = [];
  try {
    for (const photo of photos) kept.push(writePhoto(dir, photo));
  } catch (error) {
    removeCreated(kept);
    throw error;
  }
  return kept;
}

/** Removes the files a failed action created (none it found already there). */
export function removeCreated(kept: { file: string; created: boolean }[]): void {
  for (const k of kept) if (k.created) fs.rmSync(k.file, { force: true });
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
  // The person's own picture: readable by them (and so by their agent, which runs as them), by no other user.
  writeFileAtomic(file, photo.bytes, 0o600);
  return { file, created: !existed };
}

/** The text with the line naming the photo, which the agent's prompt carries (PHOTO-6). */
export function withPhotoLine(text: string, file: string): string {
  return withPhotoLines(text, [file]);
}

/** The text with one `Photo attached: <path>` line per photo, in the order attached (PHOTO-6, PHOTO-8). */
export function withPhotoLines(text: string, files: string[]): string {
  if (files.length === 0) return text;
  const lines = files.map((f) => `${PHOTO_LINE_PREFIX}${f}`).join('\n');
  return text.trim() === '' ? lines : `${text.replace(/\s+$/, '')}\n\n${lines}`;
}
