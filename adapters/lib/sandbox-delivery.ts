// LIVE-DELIVER-4: inside the OS sandbox (bwrap) a job's hooks keep what they could not post yet
// where the sandbox put them — the spool and the outbox under the hidden data dir, a tmpfs — and
// post it from processes of the sandbox's pid namespace. Both end with the job: when `run` exits,
// the namespace's init exits and the kernel kills every process left in it. So before a sandboxed
// `run` exits it waits, bounded, until its hooks have delivered: no record waits in the spool or
// the outbox, and no hook of this install is still running other than a poster that is only
// idling. Outside bwrap (no sandbox, or macOS's sandbox-exec) the spool outlives the job and its
// poster runs in a session of its own (KILL-1), so nothing is waited for.
import * as fs from 'node:fs';
import { type Env, installRoot } from './env';
import { listRecords, outboxDir, spoolDir } from './hook-spool';

/** At most this long: the hooks' own retries give up after about as long (LIVE-DELIVER-1). */
export const DELIVERY_WAIT_MS = 60_000;
const POLL_MS = 50;

/** Processes of this pid namespace, other than its init and this one, that run something of this install. */
function hooksRunning(root: string): { pid: number; idlePoster: boolean }[] {
  const found: { pid: number; idlePoster: boolean }[] = [];
  let names: string[];
  try {
    names = fs.readdirSync('/proc');
  } catch {
    return found;
  }
  for (const name of names) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid) continue;
    let cmdline: string;
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat[stat.lastIndexOf(')') + 2] === 'Z') continue; // exited, not yet reaped: nothing left to deliver
      cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue; // gone
    }
    if (!cmdline.includes(root)) continue;
    found.push({ pid, idlePoster: /\/hooks\/poster\0/.test(cmdline) });
  }
  return found;
}

/**
 * Resolves once this sandboxed job's hooks have delivered what they hold, or after `waitMs`
 * (then says on stderr what is left). Resolves at once outside bwrap.
 */
export async function awaitHookDelivery(env: Env = process.env, waitMs = DELIVERY_WAIT_MS): Promise<void> {
  if (env.COMMANDR_SANDBOX !== 'bwrap') return;
  const root = installRoot();
  const dirs = [spoolDir(env), outboxDir(env)];
  const deadline = Date.now() + waitMs;
  for (;;) {
    const records = dirs.reduce((n, dir) => n + listRecords(dir).length, 0);
    const busy = hooksRunning(root).filter((p) => !p.idlePoster || records > 0);
    if (records === 0 && busy.length === 0) return;
    if (Date.now() > deadline) {
      process.stderr.write(`run: ${records} hook record(s) not delivered to the relay after ${Math.round(waitMs / 1000)} s; the sandbox ends with them\n`);
      return;
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
