// `commandr claims`: the claims on a shared remote with their leases (LEASE-8),
// and giving back one this machine holds (LEASE-7).
import { listClaims } from '../bus/lease';
import { locateBus, locateGit } from '../bus/locate';
import { releaseClaim } from '../bus/remote-claim';
import type { ClaimRow } from '../protocol/bus/lease';
import { UsageError, runTool } from './_shared/tool';

const USAGE = 'usage: commandr claims [list] <git-remote> [--json]    list the task claims on a remote: owner, age, lease\n       commandr claims release <task-id>               give back a task this machine holds';

/** 75 → `1m`, 7200 → `2h`: the coarsest unit that is at least one. */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(Math.abs(seconds)));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}

function leaseText(row: ClaimRow, now: number): string {
  if (row.state === 'live' && row.lease_until) return `live, ${duration((Date.parse(row.lease_until) - now) / 1000)} left`;
  if (row.state === 'lapsed' && row.lease_until) return `lapsed ${duration((now - Date.parse(row.lease_until)) / 1000)} ago (free to take over)`;
  if (row.state === 'released') return 'released (free)';
  if (row.state === 'unleased') return 'no lease (claimed by a tool without leases)';
  return row.state;
}

function table(rows: ClaimRow[], now: number): string {
  if (rows.length === 0) return 'no claims\n';
  const lines = [['TASK', 'OWNER', 'AGE', 'LEASE'], ...rows.map((r) => [r.task, r.owner ?? '?', duration(r.age_seconds), leaseText(r, now)])];
  const widths = lines[0]!.map((_, i) => Math.max(...lines.map((l) => l[i]!.length)));
  return lines.map((l) => l.map((cell, i) => (i === l.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')).join('\n') + '\n';
}

runTool('commandr claims', USAGE, async (argv) => {
  const json = argv.includes('--json');
  const args = argv.filter((a) => a !== '--json');
  if (args[0] === 'release') {
    if (args.length !== 2 || json) throw new UsageError('claims release takes exactly one task id');
    const released = await releaseClaim(locateBus(), args[1]!);
    process.stdout.write(`released:${args[1]} on ${released.remote}${released.packet ? ` (packet back in ${released.packet})` : ''}\n`);
    return 0;
  }
  const rest = args[0] === 'list' ? args.slice(1) : args;
  if (rest.length !== 1) throw new UsageError('expected one git remote');
  const now = new Date();
  const rows = await listClaims(locateGit().worktree, rest[0]!, now);
  process.stdout.write(json ? JSON.stringify(rows) + '\n' : table(rows, now.getTime()));
  return 0;
});
