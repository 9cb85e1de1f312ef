// Claims across machines (REMOTE-CLAIM-n): a task is won by creating
// `refs/tasks/<id>` on a shared git remote with a fresh parentless commit; git
// refuses a second creator, so one machine wins. Only then is the packet renamed locally.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import type { Claimed, ClaimOptions } from './claim';
import { packetIds } from './claim';
import { BusError, errnoOf, ioError } from './errors';
import { appendEvent } from './event-log';
import { assertBus, assertTaskId, claimHost, listPackets } from './layout';
import { parsePacket } from './packet';

export const TASK_REF_PREFIX = 'refs/tasks/';

interface GitResult { code: number; stdout: string; stderr: string }

function runGit(cwd: string, args: string[], env: NodeJS.ProcessEnv = process.env, input?: string): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = execFile('git', args, { cwd, env, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : -1) : 0;
      if (code === -1) reject(new BusError('E_GIT', `git ${args[0]} could not run in ${cwd}: ${error!.message}`, { cause: error }));
      else resolve({ code, stdout, stderr });
    });
    // git may exit without reading stdin; a broken pipe then is not an error of ours.
    child.stdin?.on('error', () => {});
    child.stdin?.end(input);
  });
}

/** A commit no other attempt can share: the message names host, pid, time and a nonce. */
async function claimCommit(repo: string, task: string, host: string, pid: number): Promise<string> {
  const ident = { GIT_AUTHOR_NAME: `claim ${host}`, GIT_AUTHOR_EMAIL: `claim@${host}`, GIT_COMMITTER_NAME: `claim ${host}`, GIT_COMMITTER_EMAIL: `claim@${host}` };
  const env = { ...process.env, ...ident };
  const tree = await runGit(repo, ['hash-object', '-t', 'tree', '-w', '--stdin'], env, '');
  if (tree.code !== 0) throw new BusError('E_GIT', `cannot write the empty tree in ${repo}: ${tree.stderr.trim()}`);
  const message = `claim ${task}\n\nhost: ${host}\npid: ${pid}\ntime: ${new Date().toISOString()}\nnonce: ${randomBytes(8).toString('hex')}\n`;
  const commit = await runGit(repo, ['commit-tree', tree.stdout.trim(), '-m', message], env);
  if (commit.code !== 0) throw new BusError('E_GIT', `cannot create the claim commit in ${repo}: ${commit.stderr.trim()}`);
  return commit.stdout.trim();
}

/**
 * Tries to create `refs/tasks/<task>` on `remote` (never forced). `lost` when the
 * ref already exists there; any other failure (unreachable remote, a hook
 * refusing refs/tasks) is an E_GIT error, so a broken remote never looks like an empty inbox.
 */
export async function winTask(repo: string, remote: string, task: string, who: { host: string; pid: number }): Promise<'won' | 'lost'> {
  assertTaskId(task);
  // A remote spelled like an option would reach git push as one (`--force`): refuse it.
  if (remote === '' || remote.startsWith('-')) throw new BusError('E_BAD_ARGS', `remote ${JSON.stringify(remote)} is not a git remote name, URL or path`);
  const sha = await claimCommit(repo, task, who.host, who.pid);
  const ref = TASK_REF_PREFIX + task;
  const push = await runGit(repo, ['push', '--porcelain', remote, `${sha}:${ref}`]);
  if (push.code === 0) return 'won';
  const line = push.stdout.split('\n').find((l) => l.startsWith('!\t'));
  if (line && (await remoteRefOwner(repo, remote, ref)) !== undefined) return 'lost';
  throw new BusError('E_GIT', `cannot claim ${ref} on ${remote}: ${(line ?? push.stderr).trim() || `git push exit ${push.code}`}`);
}

/** The commit `ref` points at on `remote`, or undefined when it does not exist. */
export async function remoteRefOwner(repo: string, remote: string, ref: string): Promise<string | undefined> {
  const res = await runGit(repo, ['ls-remote', '--refs', remote, ref]);
  if (res.code !== 0) throw new BusError('E_GIT', `cannot list ${ref} on ${remote}: ${res.stderr.trim()}`);
  const match = res.stdout.split('\n').find((l) => l.endsWith(`\t${ref}`));
  return match?.split('\t')[0];
}

/** `claim --remote`: like claimNext, but a packet is taken only after its task is won on `remote`. */
export async function claimNextRemote(bus: string, remote: string, options: ClaimOptions = {}): Promise<Claimed | undefined> {
  assertBus(bus);
  const repo = path.dirname(bus);
  const host = claimHost(options.host ?? os.hostname());
  const pid = options.pid ?? process.pid;
  const warn = options.warn ?? (() => {});
  let done: Set<string> | undefined;
  for (const name of listPackets(bus, 'inbox')) {
    const source = path.join(bus, 'inbox', name);
    const content = readIfPresent(source);
    if (content === undefined) continue;
    const packet = await parsePacket(content);
    if (!packet.ok) { warn(`skipped invalid packet ${source}: ${packet.reason}`); continue; }
    const blockers = packet.front['blocked-by'];
    if (blockers.length > 0) done ??= await packetIds(bus, 'done');
    const waiting = blockers.filter((id) => !done?.has(id));
    if (waiting.length > 0) { warn(`skipped ${source}: task ${packet.front.id} is blocked by ${waiting.join(', ')} (not in done/)`); continue; }
    if ((await winTask(repo, remote, packet.front.id, { host, pid })) === 'lost') continue;
    const target = path.join(bus, 'claimed', `${host}_${pid}_${name}`);
    if (!renameIfPresent(source, target)) {
      warn(`warning: won ${TASK_REF_PREFIX}${packet.front.id} on ${remote} but ${source} was taken locally meanwhile`);
      continue;
    }
    if (packet.missingSections.length > 0) warn(`warning: ${target} lacks the section(s) ${packet.missingSections.map((s) => `"${s}"`).join(', ')}`);
    appendEvent(bus, { event: 'task_claimed', task: packet.front.id, agent: `${host}_${pid}`, machine: host });
    return { path: target, task: packet.front.id, content };
  }
  return undefined;
}

function readIfPresent(file: string): string | undefined {
  try { return fs.readFileSync(file, 'utf8'); } catch (error) {
    if (errnoOf(error) === 'ENOENT') return undefined;
    throw ioError('read', file, error);
  }
}

function renameIfPresent(source: string, target: string): boolean {
  try { fs.renameSync(source, target); return true; } catch (error) {
    if (errnoOf(error) === 'ENOENT') return false;
    throw ioError('claim', source, error);
  }
}
