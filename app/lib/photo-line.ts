// The relay names a kept photo on the last line of a note or message (PHOTO-6):
// `Photo attached: /abs/…/<sha256>.<ext>`. Screens show "Photo attached" there, never the machine path.
import { PHOTO_LINE_PREFIX } from '../../protocol/photos';

const LINE = new RegExp(`(?:^|\\n\\n)${PHOTO_LINE_PREFIX}(/[^\\n]*/([0-9a-f]{64}\\.(?:jpg|png|webp)))$`);

/** The text without the photo line, and the kept file's name when there is one. */
export function splitPhotoLine(text: string): { text: string; photo: string | null } {
  const match = LINE.exec(text);
  if (!match) return { text, photo: null };
  return { text: text.slice(0, match.index), photo: match[2]! };
}
