// A child that leads a process group of its own (spawned `detached`), supervised as one: task
// jobs and commander turns (KILL-1) and transcribers (VOICE-5). When the leader exits, whatever
// it left in its group is killed, so no orphan keeps the pipes open; output already in them is
// read for a short moment (DRAIN_MS), then the run is over. A child that left the group (setsid)
// and still holds the pipes is not waited for.
import type { ChildProcess } from 'node:child_process';

/** How long output still in the pipes is read after the leader exited. */
export const DRAIN_MS = 300;

export interface GroupEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Resolves once the group's leader has exited and its output is read (or DRAIN_MS passed); never rejects. */
export function groupEnded(child: ChildProcess): Promise<GroupEnd> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (code: number | null, signal: NodeJS.Signals | null): void => {
      if (settled) return;
      settled = true;
      resolve({ code, signal });
    };
    child.on('exit', (code, signal) => {
      signalGroup(child.pid, 'SIGKILL');
      setTimeout(() => settle(code, signal), DRAIN_MS).unref();
    });
    child.on('close', settle);
  });
}

/** Signals a process group; a group that is already gone is not an error. */
export function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: nothing left to signal.
  }
}
