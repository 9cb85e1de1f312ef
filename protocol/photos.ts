// A photo attached to a note or a commander message (PHOTO-n, protocol/spec/photos.md):
// it travels base64 inside the signed action, so it must fit one frame with the text.
import * as z from 'zod/mini';

/** The largest photo the relay keeps, in bytes (PHOTO-3); its base64 (~934 KiB) fits MAX_FRAME_BYTES with the text. */
export const MAX_PHOTO_BYTES = 700 * 1024;
/** The long side the app scales a photo down to before sending (PHOTO-1). */
export const PHOTO_MAX_SIDE = 2048;

/** The most photos one note or one commander message carries (PHOTO-8). */
export const MAX_PHOTOS = 4;
/** The most decoded bytes all of one action's photos add up to (PHOTO-8): the same as one photo's cap, so the frame still fits MAX_FRAME_BYTES. */
export const MAX_PHOTOS_TOTAL_BYTES = MAX_PHOTO_BYTES;

/** Base64 of the image bytes; the schema only bounds it, the relay decodes and checks it (PHOTO-2, PHOTO-3). */
export const PhotoData = z.string().check(z.minLength(1), z.maxLength(1024 * 1024));
/** Up to MAX_PHOTOS photos in one action (PHOTO-8). */
export const PhotoList = z.array(PhotoData).check(z.minLength(1), z.maxLength(MAX_PHOTOS));

/** The relay's own file name for a kept photo: the sha256 of the kept bytes and the type's extension (PHOTO-5). */
export const PHOTO_FILE_PATTERN = /^[0-9a-f]{64}\.(jpg|png|webp)$/;
/** A kept photo's name as a client may ask for it back (PHOTO-9): only the relay's own names, never a path. */
export const PhotoName = z.string().check(z.regex(PHOTO_FILE_PATTERN, 'must be a kept photo\'s name: <sha256>.jpg|png|webp'));
/** The MIME type a kept photo is served with, by its extension (PHOTO-9). */
export const PHOTO_MIME: Record<string, string> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };

/** The line that names a kept photo in a note's body and a commander message (PHOTO-6). */
export const PHOTO_LINE_PREFIX = 'Photo attached: ';
