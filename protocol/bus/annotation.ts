// `annotations/<task>/<turn:4>-<seq:4>.json` (ANNOT-n): exactly these keys.
import * as z from 'zod/mini';
import { IsoTime, TaskId } from './ids';

/** `general`, `card:<path>` or `line:<path>:<n>`; a path never absolute nor with `..`. */
export const ANCHOR_PATTERN = /^(general|card:(?!\/)(?!.*(^|\/)\.\.(\/|$))[^\n\0]{1,1024}|line:(?!\/)(?!.*(^|\/)\.\.(\/|$))[^\n\0]{1,1024}:[0-9]{1,9})$/;
export const Anchor = z.string().check(z.regex(ANCHOR_PATTERN, 'anchor must be general, card:<path> or line:<path>:<n>'));

export const Annotation = z.strictObject({
  task: TaskId,
  turn: z.int().check(z.minimum(0), z.maximum(9999)),
  anchor: z.string(),
  ts: IsoTime,
  author: z.string(),
  body: z.string(),
  consumed: z.boolean(),
});
export type Annotation = z.infer<typeof Annotation>;

export const ANNOTATION_FILE_PATTERN = /^([0-9]{4})-([0-9]{4})\.json$/;
