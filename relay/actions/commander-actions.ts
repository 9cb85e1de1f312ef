// Client frames for commanders (CMDR-WIRE-n): the signed actions create, message,
// replace, addReference, delete, and the catch-up read `commander.output`.
import type * as z from 'zod/mini';
import type {
  CommanderAddReference, CommanderCreate, CommanderDelete, CommanderMessage, CommanderOutputRequest, CommanderReplace,
} from '../../protocol/wire/frames';
import type { CommanderView } from '../../protocol/wire/views';
import { commandersOf } from '../commanders';
import type { TaskActionContext } from './task-common';

type Ctx = TaskActionContext;

export async function commanderCreate(ctx: Ctx, f: z.infer<typeof CommanderCreate>): Promise<{ commander: CommanderView }> {
  const start = { ...(f.agent === undefined ? {} : { agent: f.agent }), ...(f.message === undefined ? {} : { message: f.message }) };
  return { commander: commandersOf(ctx.services).create(f.name, f.referencePath, start) };
}

export async function commanderMessage(ctx: Ctx, f: z.infer<typeof CommanderMessage>): Promise<{ queued: number }> {
  return commandersOf(ctx.services).message(f.commander, f.text);
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
