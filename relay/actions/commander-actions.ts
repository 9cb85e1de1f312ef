// Client frames for commanders (CMDR-WIRE-n): the signed actions create, message,
// replace, addReference, delete, and the catch-up read `commander.output`.
// A message's photo (PHOTO-n) is kept in the commander's `photos/` and named by the message's last line.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as z from 'zod/mini';
import type {
  CommanderAddReference, CommanderCreate, CommanderDelete, CommanderMessage, CommanderOutputRequest, CommanderReplace,
} from '../../protocol/wire/frames';
import type { CommanderView } from '../../protocol/wire/views';
import { commandersOf } from '../commanders';
import { cleanPhotos, removeCreated, withPhotoLines, writePhotos } from '../photos/keep';
import type { TaskActionContext } from './task-common';

type Ctx = TaskActionContext;

export async function commanderCreate(ctx: Ctx, f: z.infer<typeof CommanderCreate>): Promise<{ commander: CommanderView }> {
  const start = { ...(f.agent === undefined ? {} : { agent: f.agent }), ...(f.message === undefined ? {} : { message: f.message }) };
  return { commander: commandersOf(ctx.services).create(f.name, f.referencePath, start) };
}

export async function commanderMessage(ctx: Ctx, f: z.infer<typeof CommanderMessage>): Promise<{ queued: number }> {
  const commanders = commandersOf(ctx.services);
  if (f.photo === undefined && f.photos === undefined) return commanders.message(f.commander, f.text);
  const photos = cleanPhotos(f); // refused before anything is written (PHOTO-2..4, PHOTO-8)
  commanders.get(f.commander); // E_NOT_FOUND before a directory is made
  const dir = path.join(commanders.store.dir(f.commander), 'photos');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const kept = writePhotos(dir, photos);
  try {
    return commanders.message(f.commander, withPhotoLines(f.text, kept.map((k) => k.file)));
  } catch (error) {
    removeCreated(kept);
    throw error;
  }
}

export async function commanderReplace(ctx: Ctx, f: z.infer<typeof CommanderReplace>): Promise<{ commander: CommanderView }> {
  return { commander: await commandersOf(ctx.services).replace(f.commander) };
}

export async function commanderAddReference(ctx: Ctx, f: z.infer<typeof CommanderAddReference>): Promise<{ commander: CommanderView }> {
  return { commander: commandersOf(ctx.services).addReference(f.commander, f.path) };
}

export async function commanderDelete(ctx: Ctx, f: z.infer<typeof CommanderDelete>): Promise<{ deleted: string }> {
  await commandersOf(ctx.services).delete(f.commander);
  return { deleted: f.commander };
}

/** Sends the kept output as `commander.output` frames to this client, then acks with the last seq. */
export async function commanderOutputRead(ctx: Ctx, f: z.infer<typeof CommanderOutputRequest>): Promise<{ session: string | null; lastSeq: number }> {
  const { session, chunks, lastSeq } = commandersOf(ctx.services).output(f.commander);
  for (const c of chunks) ctx.send({ type: 'commander.output', commander: f.commander, ...c });
  return { session, lastSeq };
}

/** Wraps `subscribe` so a subscriber also gets the commander list (with allowed roots) right after its snapshots. */
export function withCommanderList<F>(read: (ctx: Ctx, frame: F) => Promise<unknown>): (ctx: Ctx, frame: F) => Promise<unknown> {
  return async (ctx, frame) => {
    const result = await read(ctx, frame);
    const commanders = ctx.services.commanders;
    if (commanders !== undefined) ctx.send(commandersOf(ctx.services).listFrame());
    return result;
  };
}
