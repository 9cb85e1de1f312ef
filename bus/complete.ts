// Completing (COMPLETE-n): move a claimed packet to done/ under the same file name
// and log task_complete. The bus is the packet's grandparent, whatever the cwd.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BusError, errnoOf, ioError } from './errors';
import { appendEvent } from './event-log';
import { assertBus } from './layout';
import { stepLease } from './lease';
import { parsePacket } from './packet';

export type CompleteResult = 'pass' | 'fail';

export interface Completed {
  /** Absolute path of the packet in `done/`. */
  path: string;
  task: string;
}

export async function completePacket(claimedPath: string, result: CompleteResult = 'pass'): Promise<Completed> {
  const source = path.resolve(claimedPath);
  const content = readPacket(source);
  if (path.basename(path.dirname(source)) !== 'claimed') {
    throw new BusError('E_NOT_CLAIMED', `${source} is not in a bus's claimed/ directory`);
  }
  const bus = path.dirname(path.dirname(source));
  assertBus(bus);
  const packet = await parsePacket(content);
  if (!packet.ok) throw new BusError('E_BAD_PACKET', `${source} is not a valid packet: ${packet.reason}`);
  const target = path.join(bus, 'done', path.basename(source));
  if (fs.existsSync(target)) throw new BusError('E_EXISTS', `${target} already exists; refusing to overwrite it`);
  // A task won on a remote is finished there first (LEASE-6): a claimant whose lease was taken over is refused here, nothing moved.
  await stepLease(path.dirname(bus), packet.front.id, 'done');
  try {
    fs.renameSync(source, target);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') throw new BusError('E_NOT_FOUND', `${source} does not exist (completed by someone else?)`);
    throw ioError('move', source, error);
  }
  try {
    appendEvent(bus, { event: 'task_complete', task: packet.front.id, result });
  } catch (error) {
    // An unlogged completion is undone, so the bus never disagrees with its log.
    fs.renameSync(target, source);
    throw error;
  }
  return { path: target, task: packet.front.id };
}

function readPacket(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = errnoOf(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new BusError('E_NOT_FOUND', `${file} does not exist`);
    throw ioError('read', file, error);
  }
}
