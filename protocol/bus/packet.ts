// The mission packet's YAML front matter (PACKET-1..n). Unknown fields are
// kept (looseObject) and ignored, never rejected.
import * as z from 'zod/mini';
import { TaskId } from './ids';

export const PACKET_TYPES = ['implementation', 'research', 'review'] as const;
export const PacketType = z.enum(PACKET_TYPES);
export type PacketType = z.infer<typeof PacketType>;

/** The body sections a packet should have; a claim warns about missing ones. */
export const PACKET_SECTIONS = ['Context', 'Acceptance criteria', 'Files to touch', 'Do not touch'] as const;

export const PacketFrontMatter = z.looseObject({
  id: TaskId,
  type: PacketType,
  scope: z.string().check(z.minLength(1)),
  blocking: z._default(z.array(TaskId), []),
  'blocked-by': z._default(z.array(TaskId), []),
});
export type PacketFrontMatter = z.infer<typeof PacketFrontMatter>;

/** Where a packet sits on the bus. */
export const TaskState = z.enum(['inbox', 'claimed', 'done']);
export type TaskState = z.infer<typeof TaskState>;
