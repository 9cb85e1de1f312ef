// Processes as the kernel shows them in /proc (Linux; the sandbox tests need bwrap anyway), for
// tests that check what a stop left running. A zombie (exited, not yet reaped by whoever is its
// parent now) counts as gone: nothing of it runs.
import * as fs from 'node:fs';

export interface Proc { pid: number; ppid: number; pgid: number; cmdline: string; pidNs: string }

/** The state letter and the fields after it; the command name before them may hold spaces and ')'. */
function statFields(pid: number | string): string[] {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** Every live (not zombie) process this test can see. */
export function processes(): Proc[] {
  const out: Proc[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const rest = statFields(name);
      if (rest[0] === 'Z') continue;
      out.push({ pid: Number(name), ppid: Number(rest[1]), pgid: Number(rest[2]), cmdline: fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' '), pidNs: fs.readlinkSync(`/proc/${name}/ns/pid`) });
    } catch {
      // Gone while being read.
    }
  }
  return out;
}

/** Whether `pid` still runs (exists and is not a zombie). */
export function running(pid: number): boolean {
  try {
    return statFields(pid)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Waits, bounded, until `pick` finds no live process; returns what is still there at the deadline. */
export async function untilNone(pick: (p: Proc) => boolean, deadlineMs = 10_000): Promise<Proc[]> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const left = processes().filter(pick);
    if (left.length === 0 || Date.now() > end) return left;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Waits, bounded, until `pid` no longer runs; false if it still does at the deadline. */
export async function gone(pid: number, deadlineMs = 10_000): Promise<boolean> {
  const end = Date.now() + deadlineMs;
  while (running(pid)) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}
