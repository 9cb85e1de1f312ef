// A photo attached to a note or a commander message (PHOTO-n, protocol/spec/photos.md):
// it travels base64 inside the signed action, so it must fit one frame with the text.
import * as z from 'zod/mini';

/** The largest photo the relay keeps, in bytes (PHOTO-3); its base64 (~934 KiB) fits MAX_FRAME_BYTES with the text. */
export const MAX_PHOTO_BYTES = 700 * 1024;
/** The long side the app scales a photo down to before sending (PHOTO-1). */
export const PHOTO_MAX_SIDE = 2048;

/** Base64 of the image bytes; the schema only bounds it, the relay decodes and checks it (PHOTO-2, PHOTO-3). */
export const PhotoData = z.string().check(z.minLength(1), z.maxLength(1024 * 1024));

/** The relay's own file name for a kept photo: the sha256 of the kept bytes and the type's extension (PHOTO-5). */
export const PHOTO_FILE_PATTERN = /^[0-9a-f]{64}\.(jpg|png|webp)$/;

/** The line that names a kept photo in a note's body and a commander message (PHOTO-6). */
export const PHOTO_LINE_PREFIX = 'Photo attached: ';
