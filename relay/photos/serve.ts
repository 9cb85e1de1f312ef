// `photo.read` (PHOTO-9): a kept photo back to a paired device, so the app can show it.
// Dispatch has already checked the device (an unpaired or revoked one never gets here).
// The file is found from the relay's own name only (`<sha256>.<ext>`, checked again here,
// never a client's path) inside the one directory the note's task or the commander owns,
// opened without following a link, and must be a regular file under the photo cap.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as z from 'zod/mini';
import { annotationsDir } from '../../bus/layout';
import { MAX_PHOTO_BYTES, PHOTO_FILE_PATTERN, PHOTO_MIME } from '../../protocol/photos';
import { CommandrError } from '../../protocol/wire/errors';
import type { PhotoRead } from '../../protocol/wire/frames';
import { commandersOf } from '../commanders';
import { type TaskActionContext, taskPlace } from '../actions/task-common';

export interface ServedPhoto {
  name: string;
  mime: string;
  base64: string;
}

export async function photoRead(ctx: TaskActionContext, frame: z.infer<typeof PhotoRead>): Promise<ServedPhoto> {
  const match = PHOTO_FILE_PATTERN.exec(frame.name);
  if (!match || path.basename(frame.name) !== frame.name) {
    throw new CommandrError('E_BAD_PATH', 'a photo is asked for by its kept name, <sha256>.jpg|png|webp, never a path');
  }
  const forTask = frame.repo !== undefined && frame.task !== undefined;
  if (forTask === (frame.commander !== undefined) || (!forTask && (frame.repo !== undefined || frame.task !== undefined))) {
    throw new CommandrError('E_BAD_FRAME', 'photo.read names either a task (repo and task) or a commander, not both');
  }
  let dir: string;
  if (forTask) {
    const place = taskPlace(ctx.services, frame.repo!, frame.task!);
    dir = annotationsDir(place.bus, frame.task!);
  } else {
    if (frame.commander!.includes('.')) throw new CommandrError('E_UNAVAILABLE', 'photos of a member machine\'s commander are not served through the home yet');
    const commanders = commandersOf(ctx.services);
    commanders.get(frame.commander!); // E_NOT_FOUND for an unknown one
    dir = path.join(commanders.store.dir(frame.commander!), 'photos');
  }
  return { name: frame.name, mime: PHOTO_MIME[match[1]!]!, base64: readKept(path.join(dir, frame.name), frame.name).toString('base64') };
}

/** The kept file's bytes: a regular file, not a link, no larger than a photo can be. */
function readKept(file: string, name: string): Buffer {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch {
    throw new CommandrError('E_NOT_FOUND', `no kept photo ${name} there`);
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.size > MAX_PHOTO_BYTES) throw new CommandrError('E_NOT_FOUND', `no kept photo ${name} there`);
    const bytes = Buffer.alloc(st.size);
    let at = 0;
    while (at < st.size) {
      const n = fs.readSync(fd, bytes, at, st.size - at, at);
      if (n === 0) break;
      at += n;
    }
    return bytes.subarray(0, at);
  } finally {
    fs.closeSync(fd);
  }
}
