// A note's (or message's) text as a person reads it: the relay's photo lines (PHOTO-6) show as
// thumbnails of the photos (PHOTO-10), never as the path on the relay's machine.
import { splitPhotoLines } from '../lib/photo-line';
import { PHOTO } from '../lib/words';
import { PhotoThumbs, type PhotoSource } from './PhotoThumbs';

export function NoteBody({ body, source }: { body: string; source?: PhotoSource }) {
  const { text, photos } = splitPhotoLines(body);
  return (
    <>
      {text ? <p className="task-note-body">{text}</p> : null}
      {photos.length > 0 && source ? <PhotoThumbs names={photos} source={source} testId="note-thumb" /> : null}
      {photos.length > 0 && !source ? <p className="task-note-body muted" data-testid="note-photo-attached" data-photo={photos[0]}>📷 {PHOTO.attached}</p> : null}
    </>
  );
}
