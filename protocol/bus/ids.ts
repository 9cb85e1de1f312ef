// Ids and names that become file names or JSON values on the bus (ID-SAFE).
// Declared once here; every tool, the relay and the app validate with these.
import * as z from 'zod/mini';

/** A task id: also a file name, so no separators, no leading dot, bounded. */
export const TASK_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export const TaskId = z.string().check(z.regex(TASK_ID_PATTERN, 'task id must match ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$'));
export type TaskId = z.infer<typeof TaskId>;

export function isTaskId(value: unknown): value is TaskId {
  return typeof value === 'string' && TASK_ID_PATTERN.test(value);
}

/** An ISO-8601 UTC timestamp as the bus writes it (`new Date().toISOString()`). */
export const IsoTime = z.string().check(z.minLength(10), z.maxLength(40));
