// Leases on task refs (LEASE-n): a claim on `refs/tasks/<id>` holds only while
// its lease is live; the holder renews with fast-forward child commits, a lapsed
// lease is taken over by compare-and-swap, and a machine keeps a private record
// of each lease it holds (in its git dir, never on the bus).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { DEFAULT_LEASE_SECONDS, LeaseRecord, LeaseSeconds, type ClaimRow, type LeaseCommit, type LeaseKind, type LeaseState } from '../protocol/bus/lease';
import { BusError, errnoOf, ioError } from './errors';
import { writeFileAtomic } from './fs-atomic';
import { assertTaskId } from './layout';
import { fetchAllTips, fetchTaskTip, pushTaskRef, TASK_REF_PREFIX, writeLeaseCommit, type PushMode, type TaskTip } from './lease-git';
import { locateGit } from './locate';

/** `--lease S`, else `AGENTS_CLAIM_LEASE`, else 1800 s; anything but a whole number of seconds in range is refused. */
export function leaseSeconds(flag: string | undefined, env: Record<string, string | undefined> = process.env): number {
  const raw = flag ?? (env.AGENTS_CLAIM_LEASE?.trim() || undefined);
  if (raw === undefined) return DEFAULT_LEASE_SECONDS;
  const value = /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
  if (!LeaseSeconds.safeParse(value).success) {
    throw new BusError('E_BAD_ARGS', `lease ${JSON.stringify(raw)} (${flag === undefined ? 'AGENTS_CLAIM_LEASE' : '--lease'}) must be a whole number of seconds from 1 to 2592000`);
  }
  return value;
}

/** How a tip stands at `now`. A tip whose message names another task than its ref is treated as lease-less. */
export function leaseState(tip: TaskTip, now: Date = new Date()): LeaseState {
  const lease = leaseOf(tip);
  if (!lease) return 'unleased';
  if (lease.kind === 'done') return 'done';
  if (lease.kind === 'release') return 'released';
  return Date.parse(lease.lease_until) > now.getTime() ? 'live' : 'lapsed';
}

export function leaseOf(tip: TaskTip): LeaseCommit | undefined {
  return tip.lease && tip.lease.task === tip.task ? tip.lease : undefined;
}

/** The holder named by a tip, lease or not. */
export function holderOf(tip: TaskTip): string | undefined {
  return leaseOf(tip)?.claimant ?? tip.legacyClaimant;
}

export interface Claimant { host: string; pid: number }

export type Acquired =
  | { outcome: 'won'; record: LeaseRecord; previous?: string }
  | { outcome: 'lost'; tip?: TaskTip };

/**
 * Wins `task` on `remote` for `who`: creates the ref when `seen` is undefined,
 * else takes over a lapsed or released tip with a compare-and-swap against
 * exactly that tip. A live, done or lease-less tip is never taken.
 */
export async function acquireTask(repo: string, remote: string, task: string, who: Claimant, seconds: number, seen: TaskTip | undefined, now = new Date()): Promise<Acquired> {
  assertTaskId(task);
  for (let round = 0; round < 2; round++) {
    const state = seen ? leaseState(seen, now) : undefined;
    if (state !== undefined && state !== 'lapsed' && state !== 'released') return { outcome: 'lost', tip: seen };
    const previous = state === 'lapsed' ? holderOf(seen!) : undefined;
    const lease = newLease(task, previous ? 'reclaim' : 'claim', who, seconds, now, previous);
    const sha = await writeLeaseCommit(repo, lease, seen?.sha);
    const mode: PushMode = seen ? { kind: 'cas', tip: seen.sha } : { kind: 'create' };
    const pushed = await pushTaskRef(repo, remote, task, sha, mode);
    if (pushed.ok) return { outcome: 'won', record: recordOf(lease, remote, sha), previous };
    const now2 = await fetchTaskTip(repo, remote, task);
    // Our push lost only if the ref moved away from what we built on; otherwise git refused for another reason.
    if (now2 === undefined || now2.sha === seen?.sha) throw new BusError('E_GIT', `cannot claim ${TASK_REF_PREFIX}${task} on ${remote}: ${pushed.reason}`);
    // A create that lost to a creator: that tip is fresh, so this second round only ever skips it.
    if (seen !== undefined) return { outcome: 'lost', tip: now2 };
    seen = now2;
  }
  return { outcome: 'lost', tip: seen };
}

function newLease(task: string, kind: LeaseKind, who: Claimant, seconds: number, now: Date, previous?: string): LeaseCommit {
  return {
    kind, task, claimant: `${who.host}_${who.pid}`, machine: who.host, lease_id: randomBytes(8).toString('hex'),
    lease_seconds: seconds, lease_until: new Date(now.getTime() + seconds * 1000).toISOString(),
    time: now.toISOString(), since: now.toISOString(), ...(previous ? { previous } : {}),
  };
}

function recordOf(lease: LeaseCommit, remote: string, tip: string): LeaseRecord {
  return { task: lease.task, remote, claimant: lease.claimant, machine: lease.machine, lease_id: lease.lease_id, lease_seconds: lease.lease_seconds, since: lease.since, tip };
}

/** The lease a tip shows is still this record's tenure (a claim, takeover or renewal of it). */
function heldBy(tip: TaskTip, record: LeaseRecord): boolean {
  const lease = leaseOf(tip);
  return lease !== undefined && lease.lease_id === record.lease_id && (lease.kind === 'claim' || lease.kind === 'reclaim' || lease.kind === 'renew');
}

/**
 * Moves this machine's lease on `task` forward by a fast-forward child commit:
 * `renew` (a fresh expiry), `done` (the task completed: never taken again) or
 * `release` (given back). Returns undefined when this machine holds no lease on
 * the task (a local claim). Throws E_LEASE_LOST when another claimant took it over.
 */
export async function stepLease(repo: string, task: string, step: 'renew' | 'done' | 'release', now = new Date()): Promise<{ record: LeaseRecord; lease_until: string } | undefined> {
  let record = readLeaseRecord(repo, task);
  if (!record) return undefined;
  for (let attempt = 0; attempt < 4; attempt++) {
    const lease: LeaseCommit = {
      kind: step, task, claimant: record.claimant, machine: record.machine, lease_id: record.lease_id, lease_seconds: record.lease_seconds,
      lease_until: new Date(now.getTime() + record.lease_seconds * 1000).toISOString(), time: now.toISOString(), since: record.since,
    };
    const sha = await writeLeaseCommit(repo, lease, record.tip);
    const pushed = await pushTaskRef(repo, record.remote, task, sha, { kind: 'ff' });
    if (pushed.ok) {
      record = { ...record, tip: sha };
      if (step === 'renew') writeLeaseRecord(repo, record);
      else dropLeaseRecord(repo, task);
      return { record, lease_until: lease.lease_until };
    }
    const tip = await fetchTaskTip(repo, record.remote, task);
    if (tip === undefined) throw new BusError('E_GIT', `cannot ${step} the lease on ${TASK_REF_PREFIX}${task} at ${record.remote}: ${pushed.reason}`);
    if (!heldBy(tip, record)) throw leaseLost(record, tip, step);
    if (tip.sha === record.tip) throw new BusError('E_GIT', `cannot ${step} the lease on ${TASK_REF_PREFIX}${task} at ${record.remote}: ${pushed.reason}`);
    // Another process of this tenure (a concurrent progress) renewed first: build on its commit.
    record = { ...record, tip: tip.sha };
  }
  throw new BusError('E_GIT', `cannot ${step} the lease on ${TASK_REF_PREFIX}${task} at ${record.remote}: the ref kept moving`);
}

function leaseLost(record: LeaseRecord, tip: TaskTip, step: string): BusError {
  const lease = leaseOf(tip);
  const action = step === 'done' ? 'completing' : step === 'release' ? 'releasing' : 'renewing';
  const who = lease?.kind === 'reclaim' || lease?.kind === 'claim' || lease?.kind === 'renew'
    ? `${lease.claimant} (machine ${lease.machine}) took it over at ${lease.since}`
    : lease?.kind === 'done' ? `${lease.claimant} completed it at ${lease.time}`
      : lease?.kind === 'release' ? `${lease.claimant} released it at ${lease.time}` : `the ref now points at ${tip.sha}`;
  return new BusError('E_LEASE_LOST', `task ${record.task} is no longer yours: this machine's lease (${record.claimant}) on ${TASK_REF_PREFIX}${record.task} at ${record.remote} lapsed and ${who}. Refused ${action} it; nothing was changed here — hand your changes to the new holder or discard them`);
}

/** `<git common dir>/commandr/leases/<task>.json`: private to this clone, never on the bus. */
export function leaseRecordPath(repo: string, task: string): string {
  assertTaskId(task);
  return path.join(locateGit(repo, {}, false).commonDir, 'commandr', 'leases', `${task}.json`);
}

/** This machine's record of its lease on `task`; undefined when it holds none (or the bus is not in a git repo). */
export function readLeaseRecord(repo: string, task: string): LeaseRecord | undefined {
  let file: string;
  try {
    file = leaseRecordPath(repo, task);
  } catch (error) {
    if (error instanceof BusError && error.code === 'E_NO_REPO') return undefined;
    throw error;
  }
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return undefined;
    throw ioError('read', file, error);
  }
  let value: unknown;
  try { value = JSON.parse(text); } catch { value = undefined; }
  const checked = LeaseRecord.safeParse(value);
  if (!checked.success || checked.data.task !== task) throw new BusError('E_IO', `${file} is not a lease record; remove it if this machine no longer holds ${task}`);
  return checked.data;
}

export function writeLeaseRecord(repo: string, record: LeaseRecord): void {
  const file = leaseRecordPath(repo, record.task);
  try { fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 }); } catch (error) { throw ioError('create', path.dirname(file), error); }
  writeFileAtomic(file, JSON.stringify(record) + '\n', 0o600);
}

export function dropLeaseRecord(repo: string, task: string): void {
  fs.rmSync(leaseRecordPath(repo, task), { force: true });
}

/** `commandr claims <remote>` (LEASE-8): every task ref of the remote with its holder, age and lease state. */
export async function listClaims(repo: string, remote: string, now = new Date()): Promise<ClaimRow[]> {
  const tips = await fetchAllTips(repo, remote);
  return [...tips.values()].sort((a, b) => (a.task < b.task ? -1 : a.task > b.task ? 1 : 0)).map((tip) => {
    const lease = leaseOf(tip);
    const since = lease?.since ?? tip.committed;
    return {
      task: tip.task,
      owner: holderOf(tip) ?? null,
      machine: lease?.machine ?? null,
      state: leaseState(tip, now),
      since,
      age_seconds: Math.max(0, Math.floor((now.getTime() - Date.parse(since)) / 1000)),
      lease_until: lease && (lease.kind === 'claim' || lease.kind === 'reclaim' || lease.kind === 'renew') ? lease.lease_until : null,
      tip: tip.sha,
    };
  });
}
