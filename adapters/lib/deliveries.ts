// Notes handed to an agent but not yet consumed (NOTE-2): the prompt hook records which notes
// a session was given; the turn-end hook of that session marks them consumed. A turn that
// never completes (the model call failed, the CLI died) leaves them pending for the next one.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Env, commandrHome } from './env';
import { consumeAnnotations } from './inject';

interface Delivery {
  bus: string;
  task: string;
  files: string[];
}

const deliveryFile = (env: Env, session: string): string =>
  path.join(commandrHome(env), 'hook-state', 'deliveries', `${createHash('sha256').update(session).digest('hex').slice(0, 24)}.json`);

function read(file: string): Delivery | undefined {
  try {
    const value = JSON.parse(fs.readFileSync(file, 'utf8')) as Delivery;
    return typeof value.bus === 'string' && typeof value.task === 'string' && Array.isArray(value.files) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Adds `files` to what `session` was given (a second prompt before turn end keeps the first's). */
export function recordDelivery(env: Env, session: string, delivery: Delivery): void {
  const file = deliveryFile(env, session);
  const before = read(file);
  const files = [...new Set([...(before && before.bus === delivery.bus && before.task === delivery.task ? before.files : []), ...delivery.files])];
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, JSON.stringify({ ...delivery, files }), { mode: 0o600 });
  fs.renameSync(temp, file);
}

/** The session's turn completed: what it was given is consumed. Returns how many notes. */
export function settleDelivery(env: Env, session: string): number {
  const file = deliveryFile(env, session);
  const delivery = read(file);
  if (!delivery) return 0;
  let done = 0;
  for (const note of delivery.files) {
    try {
      consumeAnnotations(delivery, [note]);
      done++;
    } catch { /* a note deleted meanwhile, or not an annotation: nothing to consume */ }
  }
  fs.rmSync(file, { force: true });
  return done;
}
