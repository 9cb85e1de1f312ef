// `task.annotate` (ANNOTATE-WIRE-n): a person's note for the agent's next turn,
// written by bus/annotations (file first, then the task_annotation event). Hostile anchors write nothing.
// An attached photo (PHOTO-n) is kept beside the note first and named by the note's last line.
import * as path from 'node:path';
import type * as z from 'zod/mini';
import { writeAnnotation } from '../../bus/annotations';
import { ensureBusDir } from '../../bus/inside';
import { annotationsDir, assertBus } from '../../bus/layout';
import { Anchor } from '../../protocol/bus/annotation';
import { CommandrError } from '../../protocol/wire/errors';
import type { TaskAnnotate } from '../../protocol/wire/frames';
import { cleanPhotos, removeCreated, withPhotoLines, writePhotos } from '../photos/keep';
import { type TaskActionContext, taskPlace, wireError } from './task-common';

export async function taskAnnotate(ctx: TaskActionContext, frame: z.infer<typeof TaskAnnotate>): Promise<{ file: string; seq: number }> {
  checkAnchor(frame.anchor);
  const place = taskPlace(ctx.services, frame.repo, frame.task);
  const photos = cleanPhotos(frame); // refused before anything is written (PHOTO-2..4, PHOTO-8)
  let kept: { file: string; created: boolean }[] = [];
  try {
    let body = frame.body;
    if (photos.length > 0) {
      assertBus(place.bus);
      const dir = annotationsDir(place.bus, frame.task);
      ensureBusDir(place.bus, dir); // ID-SAFE-4: never through a link out of the bus
      kept = writePhotos(dir, photos);
      body = withPhotoLines(body, kept.map((k) => k.file));
    }
    const written = writeAnnotation(place.bus, { task: frame.task, turn: frame.turn, anchor: frame.anchor, author: ctx.device.name, body });
    return { file: path.basename(written.path), seq: written.seq };
  } catch (error) {
    removeCreated(kept); // no photo without its note
    throw wireError(error);
  }
}

/** `general`, `card:<path>` or `line:<path>:<n>`; a path that is absolute or climbs out is E_BAD_PATH. */
export function checkAnchor(anchor: string): void {
  const match = /^(card|line):(.*)$/s.exec(anchor);
  if (match) {
    const file = match[1] === 'line' ? match[2]!.replace(/:[0-9]*$/, '') : match[2]!;
    if (file.includes('\0') || path.isAbsolute(file) || /^[A-Za-z]:/.test(file) || file.split(/[\\/]/).includes('..')) {
      throw new CommandrError('E_BAD_PATH', `anchor path ${JSON.stringify(file)} must be relative to the repo and stay inside it`);
    }
  }
  if (!Anchor.safeParse(anchor).success) throw new CommandrError('E_BAD_FRAME', 'anchor must be general, card:<path> or line:<path>:<n>');
}
