// The relay names each kept photo on the last lines of a note or message (PHOTO-6, PHOTO-8):
// `Photo attached: /abs/…/<sha256>.<ext>`, one a line, after a blank line when there is text.
// Screens show the photos there (PHOTO-10), never the machine path.
import { PHOTO_LINE_PREFIX } from '../../protocol/photos';

const ONE = new RegExp(`^${PHOTO_LINE_PREFIX}/[^\\n]*/([0-9a-f]{64}\\.(?:jpg|png|webp))$`);

/** The text without its photo lines, and the kept files' names in the order attached. */
export function splitPhotoLines(text: string): { text: string; photos: string[] } {
  const lines = text.split('\n');
  let i = lines.length;
  const photos: string[] = [];
  for (let m = i > 0 ? ONE.exec(lines[i - 1]!) : null; m; m = i > 0 ? ONE.exec(lines[i - 1]!) : null) {
    photos.unshift(m[1]!);
    i -= 1;
  }
  if (photos.length === 0) return { text, photos };
  if (i === 0) return { text: '', photos };
  if (lines[i - 1] !== '') return { text, photos: [] }; // the relay puts a blank line between text and photos
  return { text: lines.slice(0, i - 1).join('\n'), photos };
}

/** The text without the photo lines, and the first kept file's name when there is one. */
export function splitPhotoLine(text: string): { text: string; photo: string | null } {
  const { text: rest, photos } = splitPhotoLines(text);
  return { text: rest, photo: photos[0] ?? null };
}
