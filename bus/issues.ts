// Turns a zod error into one short line (`path: message; …`) for bus messages.
import type * as z from 'zod/mini';

export function issuesText(error: z.core.$ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}
