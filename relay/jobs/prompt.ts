// The prompt a task job starts with: which task, where its packet is, what the
// mode allows, and how to finish (the agent completes the packet itself; JOB-4).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { installRoot } from '../../adapters/lib/env';

export type JobMode = 'work' | 'review';

/** One shell word: as it is when it needs no quoting, else single-quoted. */
const word = (value: string): string => (/^[A-Za-z0-9_./:@%+=,-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`);

/**
 * This install's `bin/commandr` run by this relay's node, both by absolute path (CLIHELP-5):
 * a job's PATH is the relay's, which need not hold `commandr` (only `npm link` or a global
 * install puts it there) nor a node (MCP-8), and the bare `complete` is a bash builtin that
 * exits 0 and does nothing. `bin/commandr` is also the Node entry, so node runs it directly.
 */
export const jobCommandr = (): string[] => [process.execPath, path.join(installRoot(), 'bin', 'commandr')];

export function jobPrompt(req: { task: string; mode: JobMode; packet: string }, cwd: string, commandr: string[] = jobCommandr()): string {
  const body = packetBody(req.packet);
  const finish = [...commandr, 'complete', req.packet].map(word).join(' ');
  const how = req.mode === 'work'
    ? [
      `Work on task ${req.task} in this worktree (${cwd}, branch agent/${req.task}).`,
      'Edit, test and commit here; do not push.',
      `When you are finished, run \`${finish} pass\` (or \`${finish} fail\` if the acceptance criteria are not met).`,
    ]
    : [
      `Review the work on task ${req.task}, read-only: do not edit files or commit.`,
      'End with one line `VERDICT: pass` or `VERDICT: fail` and your reasons.',
    ];
  return [...how, '', `The task packet (${req.packet}):`, '', body].join('\n');
}

/**
 * The packet's text (JOB-8). The bus is the agent's to write (THREAT-2) and the relay, outside any
 * sandbox, reads the packet into the agent's own prompt: only a regular file whose real path is
 * inside that bus is read, so a packet swapped for a link to `<dataDir>/approval/private.pem` (or
 * for a FIFO, whose open would block the relay) between the relay's scan and the job's start
 * puts nothing of it in the prompt. Where the file really is is read from the open descriptor.
 */
function packetBody(packet: string): string {
  const unread = '(the packet could not be read)';
  let bus: string;
  let fd: number;
  try {
    bus = fs.realpathSync(path.dirname(path.dirname(packet)));
    fd = fs.openSync(packet, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch {
    return unread;
  }
  try {
    if (!fs.fstatSync(fd).isFile()) return unread;
    const where = fs.existsSync('/proc/self/fd') ? fs.readlinkSync(`/proc/self/fd/${fd}`) : fs.realpathSync(packet);
    if (!where.startsWith(`${bus}${path.sep}`)) return '(the packet is a link to a file outside the bus; it was not read)';
    return fs.readFileSync(fd, 'utf8');
  } catch {
    return unread;
  } finally {
    fs.closeSync(fd);
  }
}
