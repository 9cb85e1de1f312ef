// `~/.agents/index.json`, the derived cross-repo cache (INDEX-n).
import * as z from 'zod/mini';
import { TaskState } from './packet';

export const IndexRepo = z.object({
  path: z.string(),
  scanned_at: z.string(),
  ok: z.boolean(),
  events_mtime: z.optional(z.string()),
  error: z.optional(z.string()),
});
export type IndexRepo = z.infer<typeof IndexRepo>;

export const IndexTask = z.strictObject({
  repo: z.string(),
  id: z.string(),
  state: TaskState,
  owner: z.nullable(z.string()),
  verdict: z.nullable(z.enum(['PASS', 'FAIL'])),
  last_event_ts: z.nullable(z.string()),
  last_note: z.nullable(z.string()),
});
export type IndexTask = z.infer<typeof IndexTask>;

export const IndexFile = z.object({
  generated_at: z.string(),
  tool: z.string().check(z.startsWith('index/')),
  repos: z.array(IndexRepo),
  tasks: z.array(IndexTask),
});
export type IndexFile = z.infer<typeof IndexFile>;
