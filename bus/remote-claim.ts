// Claims across machines (REMOTE-CLAIM-n, LEASE-n): a task is won on a shared git
// remote first — by creating `refs/tasks/<id>`, or by taking over a lapsed lease
// with a compare-and-swap push — and only then is the packet renamed locally.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Claimed, ClaimOptions } from './claim';
import { packetIds } from './claim';
import { BusError, errnoOf, ioError } from './errors';
import { appendEvent } from './event-log';
import { assertBus, claimHost, listPackets, parseClaimedName, readPacketBytes, readPacketFile } from './layout';
import { acquireTask, leaseSeconds, leaseState, readLeaseRecord, stepLease, writeLeaseRecord, type Claimant } from './lease';
import { assertRemote, fetchAllTips, fetchTaskTip, runGit, TASK_REF_PREFIX } from './lease-git';
import { parsePacket } from './packet';

export { TASK_REF_PREFIX } from './lease-git';

export interface RemoteClaimOptions extends ClaimOptions {
  /** Lease length in seconds (LEASE-1); default from `leaseSeconds()`. */
  lease?: number;
  now?: () => Date;
}

/** A remote claim: the claimed packet, and the claimant whose lapsed lease it took over, if any. */
export interface RemoteClaimed extends Claimed {
  previous?: string;
}

/**
 * Wins `task` on `remote` for `who` (reading the ref first): `won` when this
 * call created the ref or took over a lapsed or released lease, `lost` otherwise.
 */
export async function winTask(repo: string, remote: string, task: string, who: { host: string; pid: number }, seconds = leaseSeconds(undefined)): Promise<'won' | 'lost'> {
  assertRemote(remote);
  const got = await acquireTask(repo, remote, task, who, seconds, await fetchTaskTip(repo, remote, task));
  if (got.outcome === 'won') writeLeaseRecord(repo, got.record);
  return got.outcome;
}

/** The commit `ref` points at on `remote`, or undefined when it does not exist. */
export async function remoteRefOwner(repo: string, remote: string, ref: string): Promise<string | undefined> {
  const res = await runGit(repo, ['ls-remote', '--refs', remote, ref]);
  if (res.code !== 0) throw new BusError('E_GIT', `cannot list ${ref} on ${remote}: ${res.stderr.trim()}`);
  const match = res.stdout.split('\n').find((l) => l.endsWith(`\t${ref}`));
  return match?.split('\t')[0];
}

/**
 * `claim --remote`: like claimNext, but a packet is taken only after its task is
 * won on `remote`. The remote's task refs are read once; a task whose lease is
 * live (or done) is skipped without a push.
 */
export async function claimNextRemote(bus: string, remote: string, options: RemoteClaimOptions = {}): Promise<RemoteClaimed | undefined> {
  assertBus(bus);
  assertRemote(remote);
  const repo = path.dirname(bus);
  const who: Claimant = { host: claimHost(options.host ?? os.hostname()), pid: options.pid ?? process.pid };
  const seconds = options.lease ?? leaseSeconds(undefined);
  const now = options.now ?? (() => new Date());
  const warn = options.warn ?? (() => {});
  const tips = await fetchAllTips(repo, remote);
  let done: Set<string> | undefined;
  for (const name of listPackets(bus, 'inbox')) {
    const source = path.join(bus, 'inbox', name);
    const bytes = readPacketBytes(source);
    if (bytes === undefined) continue;
    if (!Buffer.isBuffer(bytes)) { warn(`skipped invalid packet ${source}: ${bytes.notFile}, not a regular file`); continue; }
    const content = bytes.toString('utf8');
    const packet = await parsePacket(content);
    if (!packet.ok) { warn(`skipped invalid packet ${source}: ${packet.reason}`); continue; }
    const task = packet.front.id;
    const blockers = packet.front['blocked-by'];
    if (blockers.length > 0) done ??= await packetIds(bus, 'done');
    const waiting = blockers.filter((id) => !done?.has(id));
    if (waiting.length > 0) { warn(`skipped ${source}: task ${task} is blocked by ${waiting.join(', ')} (not in done/)`); continue; }
    const seen = tips.get(task);
    if (seen && !['lapsed', 'released'].includes(leaseState(seen, now()))) continue;
    const got = await acquireTask(repo, remote, task, who, seconds, seen, now());
    if (got.outcome === 'lost') continue;
    writeLeaseRecord(repo, got.record);
    const target = path.join(bus, 'claimed', `${who.host}_${who.pid}_${name}`);
    if (!renameIfPresent(source, target)) {
      await giveBack(repo, task, warn);
      warn(`warning: won ${TASK_REF_PREFIX}${task} on ${remote} but ${source} was taken locally meanwhile; the claim was released`);
      continue;
    }
    if (packet.missingSections.length > 0) warn(`warning: ${target} lacks the section(s) ${packet.missingSections.map((s) => `"${s}"`).join(', ')}`);
    const agent = `${who.host}_${who.pid}`;
    appendEvent(bus, { event: 'task_claimed', task, agent, machine: who.host });
    if (got.previous) appendEvent(bus, { event: 'task_reclaimed', task, agent, machine: who.host, previous: got.previous });
    return { path: target, task, content, bytes, ...(got.previous ? { previous: got.previous } : {}) };
  }
  return undefined;
}

async function giveBack(repo: string, task: string, warn: (m: string) => void): Promise<void> {
  try {
    await stepLease(repo, task, 'release');
  } catch (error) {
    warn(`warning: could not release ${TASK_REF_PREFIX}${task}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * `commandr claims release <id>` (LEASE-7): gives back a lease this machine
 * holds — a `release` commit on the ref, the packet back in `inbox/` (when it is
 * in this bus's `claimed/`), and a `task_released` event.
 */
export async function releaseClaim(bus: string, task: string): Promise<{ remote: string; packet?: string }> {
  assertBus(bus);
  const repo = path.dirname(bus);
  const record = readLeaseRecord(repo, task);
  if (!record) throw new BusError('E_NOT_HELD', `this machine holds no lease on ${task} (it was not claimed here with claim --remote, or was completed or released)`);
  const claimed = await claimedPacketOf(bus, task, record.claimant);
  const back = claimed ? path.join(bus, 'inbox', parseClaimedName(path.basename(claimed))!.file) : undefined;
  if (back && fs.existsSync(back)) throw new BusError('E_EXISTS', `${back} already exists; refusing to overwrite it with ${claimed}`);
  await stepLease(repo, task, 'release');
  if (claimed && back) {
    try { fs.renameSync(claimed, back); } catch (error) { throw ioError('move', claimed, error); }
  }
  appendEvent(bus, { event: 'task_released', task, agent: record.claimant });
  return { remote: record.remote, packet: back };
}

/** The packet of `task` in `claimed/` held by `claimant` (`{host}_{pid}`), if any. */
async function claimedPacketOf(bus: string, task: string, claimant: string): Promise<string | undefined> {
  for (const name of listPackets(bus, 'claimed')) {
    const owner = parseClaimedName(name);
    if (!owner || `${owner.host}_${owner.pid}` !== claimant) continue;
    const file = path.join(bus, 'claimed', name);
    const content = readPacketFile(file);
    if (typeof content !== 'string') continue;
    const packet = await parsePacket(content, { sections: false });
    if (packet.ok && packet.front.id === task) return file;
  }
  return undefined;
}

function renameIfPresent(source: string, target: string): boolean {
  try { fs.renameSync(source, target); return true; } catch (error) {
    if (errnoOf(error) === 'ENOENT') return false;
    throw ioError('claim', source, error);
  }
}
