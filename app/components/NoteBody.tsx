// A note's (or message's) text as a person reads it: the relay's photo line (PHOTO-6) shows as
// "Photo attached", never as the path on the relay's machine.
import { splitPhotoLine } from '../lib/photo-line';
import { PHOTO } from '../lib/words';

export function NoteBody({ body }: { body: string }) {
  const { text, photo } = splitPhotoLine(body);
  return (
    <>
      {text ? <p className="task-note-body">{text}</p> : null}
      {photo ? <p className="task-note-body muted" data-testid="note-photo-attached" data-photo={photo}>📷 {PHOTO.attached}</p> : null}
    </>
  );
}
