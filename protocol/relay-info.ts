// `$COMMANDR_HOME/relay.json`, where a running relay says where it listens, and the one check
// that lets a hook trust it (HOOKCRED-1): the process that wrote it still runs. While the relay
// lives nobody else can hold its listening port, so a live writer proves the listener; a file
// left by a killed relay names a port anyone may have taken since, and is worth nothing.
import * as fs from 'node:fs';
import { z } from 'zod';

export const RelayInfo = z.object({
  url: z.string().min(1),
  origin: z.string().optional(),
  pid: z.number().int().positive(),
  /**
   * When the writer started: field 22 of `/proc/<pid>/stat` (clock ticks since boot), so a pid
   * reused by another process does not pass; null where there is no /proc (then: the pid only).
   */
  started: z.string().regex(/^\d+$/).nullable().optional(),
  version: z.string().optional(),
});
export type RelayInfo = z.infer<typeof RelayInfo>;

/** Field 22 of `/proc/<pid>/stat`, or null when this system has no /proc (or no such process). */
export function processStarted(pid: number | 'self'): string | null {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const started = fields[19];
  return started !== undefined && /^\d+$/.test(started) ? started : null;
}

const hasProc = (): boolean => fs.existsSync('/proc/self/stat');

/** Whether a process with this pid exists (EPERM: it does, as another user's). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True while the relay that wrote `info` still runs (same pid, same start time where /proc tells it). */
export function relayAlive(info: RelayInfo): boolean {
  if (!hasProc()) return processAlive(info.pid);
  return typeof info.started === 'string' && processStarted(info.pid) === info.started;
}

/** The file's content when it parses, else undefined (absent, torn, or not ours). */
export function readRelayInfo(file: string): RelayInfo | undefined {
  try {
    const parsed = RelayInfo.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
