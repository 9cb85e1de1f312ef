// Finishing a committed task from the phone (FINISH-1..8), against a real relay on port 0, the
// real bin tools and gate hooks, real worktrees, a real bare remote guarded by
// `commandr verify --install`, and a paired device that signs each action: merge (fast-forward,
// merge commit, refused on conflict, on a failing verify, on a dirty checkout), push, and a pull
// request through a fake `gh` on PATH that records its arguments.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicKeyFile } from '../../bus/approval/keys';
import { busEventMessage } from '../../relay/push/messages';
import type { TaskSummary } from '../../protocol/wire/views';
import { watchedWorld } from '../relay-watch/fixture';
import { WireFrameError } from '../helpers/device';

const fx = watchedWorld({ inbox: ['T-1', 'T-2', 'T-3', 'T-4', 'T-5', 'T-6'], device: 'Pixel finish' });
const stageIs = (stage: string) => (t: TaskSummary) => t.life?.stage === stage;

let bare = '';
let fakeBin = '';
let ghLog = '';
const savedPath = process.env.PATH;

beforeAll(() => {
  bare = path.join(fx.world.dir, 'remote.git');
  fx.world.git(['init', '-q', '--bare', '-b', 'main', bare], fx.world.dir);
  fx.world.git(['remote', 'add', 'origin', bare]);
  fx.world.git(['push', '-q', '--no-verify', 'origin', 'main']);
  // The person's forge CLI, as a stand-in that records how it was run.
  fakeBin = path.join(fx.world.dir, 'fake-bin');
  fs.mkdirSync(fakeBin);
  ghLog = path.join(fx.world.dir, 'gh.log');
  fs.writeFileSync(path.join(fakeBin, 'gh'), [
    '#!/bin/sh',
    `printf '%s\\n' "$PWD" "$@" >> '${ghLog}'; echo --- >> '${ghLog}'`,
    `case "$1" in auth) [ -f '${fakeBin}/logged-in' ] && exit 0; echo 'You are not logged into any GitHub hosts.' >&2; exit 1;;`,
    '  pr) echo "Creating pull request for $4 into $6"; echo "https://github.example/acme/repo/pull/7";; esac',
    '',
  ].join('\n'), { mode: 0o755 });
  process.env.PATH = `${fakeBin}${path.delimiter}${savedPath ?? ''}`;
});
afterAll(() => { process.env.PATH = savedPath; });

const rev = (ref: string, cwd = fx.world.repo): string => fx.world.git(['rev-parse', ref], cwd).trim();
function commit(cwd: string, message: string, extra: string[] = []): number | null {
  return spawnSync('git', ['commit', '-q', '-m', message, ...extra], { cwd, env: fx.world.env, encoding: 'utf8' }).status;
}
function stage(cwd: string, file: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(cwd, file)), { recursive: true });
  fs.writeFileSync(path.join(cwd, file), text);
  fx.world.git(['add', file], cwd);
}
/** A change on main the person made by hand (no gate). */
function mainMoves(file: string, text: string): string {
  stage(fx.world.repo, file, text);
  expect(commit(fx.world.repo, `main: ${file}`, ['--no-verify'])).toBe(0);
  return rev('main');
}

/** The agent claims `task`, stages `file`, is gated, the phone approves, the agent commits: the task is committed. */
async function committedTask(task: string, file: string, text: string, opts: { unapproved?: boolean } = {}): Promise<{ wt: string; tip: string }> {
  expect(fx.world.tool('claim').code).toBe(0);
  await fx.bus.task(fx.repo, task, stageIs('running'));
  const wt = fx.world.worktree(`wt-${task}`, `agent/${task}`);
  stage(wt, file, text);
  if (opts.unapproved) {
    expect(commit(wt, `${task}: ${file} by hand`, ['--no-verify'])).toBe(0);
  } else {
    expect(commit(wt, `${task}: ${file}`)).not.toBe(0);
    const waiting = await fx.bus.task(fx.repo, task, stageIs('approval'));
    await fx.client.request({ type: 'task.approve', repo: fx.repo, task, digest: waiting.life!.digest });
    await fx.bus.task(fx.repo, task, stageIs('approved'));
    expect(commit(wt, `${task}: ${file}`)).toBe(0);
  }
  await fx.bus.task(fx.repo, task, stageIs('committed'));
  return { wt, tip: rev('HEAD', wt) };
}

async function refusal(frame: Record<string, unknown> & { type: string }): Promise<{ code: string; message: string }> {
  const error = await fx.client.request(frame).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(WireFrameError);
  return (error as WireFrameError).error;
}

describe('FINISH: merge a committed task into its base', () => {
  it('FINISH-1: the base has not moved: task.merge fast-forwards main to agent/<task>, the checked-out main follows, task_merged is on the bus', async () => {
    const { tip } = await committedTask('T-1', 'src/one.js', 'export const one = 1;\n');
    const ack = await fx.client.request({ type: 'task.merge', repo: fx.repo, task: 'T-1' });
    expect(ack.result).toMatchObject({ task: 'T-1', base: 'main', commit: tip, mode: 'fast-forward', worktree: fx.world.repo });
    expect(rev('main')).toBe(tip);
    expect(fs.readFileSync(path.join(fx.world.repo, 'src/one.js'), 'utf8')).toBe('export const one = 1;\n');
    expect(fx.world.git(['status', '--porcelain', '--untracked-files=no'])).toBe('');
    const merged = await fx.bus.event('task_merged', 'T-1');
    expect(merged.event).toMatchObject({ base: 'main', commit: tip, mode: 'fast-forward', by: 'Pixel finish' });
    // TSTATE-6: the relay's stage follows — merged, with where and what — so the bar offers no Merge again.
    const after = await fx.bus.task(fx.repo, 'T-1', stageIs('merged'));
    expect(after.life?.merged).toMatchObject({ base: 'main', commit: tip, mode: 'fast-forward' });
    expect(after.life?.commit?.hash).toBe(tip);
    // Merging again has nothing to merge, and says so.
    expect((await refusal({ type: 'task.merge', repo: fx.repo, task: 'T-1' })).message).toMatch(/already merged into main/);
  });

  it('FINISH-1: the base moved without conflict: a merge commit of main and agent/<task> with a relay-signed approval, which `commandr verify` and the guarded remote (RVERIFY-2) accept', async () => {
    const { tip } = await committedTask('T-2', 'src/two.js', 'export const two = 2;\n');
    const moved = mainMoves('MAIN-ONLY.md', 'a change on main\n');
    fx.world.git(['push', '-q', '--no-verify', 'origin', 'main']);
    // The remote is guarded from here on: every new commit needs an approval by the relay's key.
    const guard = fx.world.tool('verify', ['--install', bare, '--key', publicKeyFile(fx.relay.dataDir)]);
    expect(guard.code, guard.stderr).toBe(0);
    const ack = await fx.client.request({ type: 'task.merge', repo: fx.repo, task: 'T-2' });
    const result = ack.result as { commit: string; mode: string };
    expect(result.mode).toBe('merge');
    expect(rev('main')).toBe(result.commit);
    expect(fx.world.git(['log', '-1', '--format=%P', 'main']).trim()).toBe(`${moved} ${tip}`);
    expect(fx.world.git(['log', '-1', '--format=%B', 'main'])).toMatch(/^Merge agent\/T-2 into main[\s\S]*\nCommandr-Approval: \{/);
    expect(fs.existsSync(path.join(fx.world.repo, 'src/two.js'))).toBe(true);
    expect(fs.existsSync(path.join(fx.world.repo, 'MAIN-ONLY.md'))).toBe(true);
    const verify = fx.world.tool('verify', ['--key', publicKeyFile(fx.relay.dataDir), `${moved}..main`]);
    expect(verify.stdout + verify.stderr).toMatch(/ok 2 commit/);
    expect(verify.code).toBe(0);
    const push = spawnSync('git', ['push', '--no-verify', 'origin', 'main'], { cwd: fx.world.repo, env: fx.world.env, encoding: 'utf8' });
    expect(push.stderr).not.toMatch(/refused|lack a valid approval/);
    expect(push.status).toBe(0);
    expect(fx.world.git(['rev-parse', 'main'], bare).trim()).toBe(result.commit);
  });

  it('FINISH-3: the base moved in a way that conflicts: refused with the conflicting file named, main and its checkout untouched', async () => {
    const { tip } = await committedTask('T-3', 'README.md', 'the agent rewrote the readme\n');
    const moved = mainMoves('README.md', 'the person rewrote the readme\n');
    const error = await refusal({ type: 'task.merge', repo: fx.repo, task: 'T-3' });
    expect(error.code).toBe('E_CONFLICT');
    expect(error.message).toMatch(/main moved since the task branched and the two conflict in README\.md/);
    expect(rev('main')).toBe(moved);
    expect(rev('agent/T-3')).toBe(tip);
    expect(fs.readFileSync(path.join(fx.world.repo, 'README.md'), 'utf8')).toBe('the person rewrote the readme\n');
    expect(fx.world.events().some((e) => e.event === 'task_merged' && e.task === 'T-3')).toBe(false);
  });

  it('FINISH-2: a commit in the range lacks a valid approval: `commandr verify` fails, so the merge is refused with its reason', async () => {
    const before = rev('main');
    await committedTask('T-4', 'src/four.js', 'export const four = 4;\n', { unapproved: true });
    const error = await refusal({ type: 'task.merge', repo: fx.repo, task: 'T-4' });
    expect(error.code).toBe('E_CONFLICT');
    expect(error.message).toMatch(/commandr verify main\.\.agent\/T-4 fails for 1 of 1 commit\(s\).*no Commandr-Approval trailer/);
    expect(rev('main')).toBe(before);
    expect(fs.existsSync(path.join(fx.world.repo, 'src/four.js'))).toBe(false);
  });

  it('FINISH-4: main is checked out with uncommitted changes: refused, naming the checkout; once clean, the merge goes through and the files follow', async () => {
    const { tip } = await committedTask('T-5', 'src/five.js', 'export const five = 5;\n');
    const before = mainMoves('FIVE-MAIN.md', 'main moves on again\n');
    fs.writeFileSync(path.join(fx.world.repo, 'README.md'), 'half-edited by the person\n');
    const error = await refusal({ type: 'task.merge', repo: fx.repo, task: 'T-5' });
    expect(error.message).toContain(`main is checked out in ${fx.world.repo} with uncommitted changes`);
    expect(rev('main')).toBe(before);
    expect(fs.readFileSync(path.join(fx.world.repo, 'README.md'), 'utf8')).toBe('half-edited by the person\n');
    fx.world.git(['checkout', '--', 'README.md']);
    const ack = await fx.client.request({ type: 'task.merge', repo: fx.repo, task: 'T-5' });
    expect(ack.result).toMatchObject({ mode: 'merge' });
    expect(fx.world.git(['log', '-1', '--format=%P', 'main']).trim()).toBe(`${before} ${tip}`);
    expect(fs.readFileSync(path.join(fx.world.repo, 'src/five.js'), 'utf8')).toBe('export const five = 5;\n');
    expect(fx.world.git(['status', '--porcelain', '--untracked-files=no'])).toBe('');
  });
});

describe('FINISH: push and pull request', () => {
  it('FINISH-5: task.push pushes agent/<task> to origin (the guarded bare remote takes its approved commit); task_pushed is on the bus', async () => {
    const tip = rev('agent/T-1');
    const ack = await fx.client.request({ type: 'task.push', repo: fx.repo, task: 'T-1' });
    expect(ack.result).toEqual({ task: 'T-1', remote: 'origin', branch: 'agent/T-1', commit: tip });
    expect(fx.world.git(['rev-parse', 'refs/heads/agent/T-1'], bare).trim()).toBe(tip);
    expect((await fx.bus.event('task_pushed', 'T-1')).event).toMatchObject({ remote: 'origin', branch: 'agent/T-1', commit: tip });
  });

  it('FINISH-5: a push the guarded remote refuses (a commit without approval) says the remote\'s reason and writes nothing to the bus', async () => {
    const error = await refusal({ type: 'task.push', repo: fx.repo, task: 'T-4' });
    expect(error.code).toBe('E_CONFLICT');
    expect(error.message).toMatch(/^origin refused agent\/T-4: .*(lack a valid approval|no Commandr-Approval)/);
    expect(spawnSync('git', ['rev-parse', '-q', '--verify', 'refs/heads/agent/T-4'], { cwd: bare }).status).not.toBe(0);
    expect(fx.world.events().some((e) => e.event === 'task_pushed' && e.task === 'T-4')).toBe(false);
  });

  it('FINISH-7: the forge CLI is installed but not logged in: refused with what to run, no pull request created', async () => {
    fs.rmSync(ghLog, { force: true });
    const error = await refusal({ type: 'task.pr', repo: fx.repo, task: 'T-3' });
    expect(error.code).toBe('E_UNAVAILABLE');
    expect(error.message).toMatch(/gh is not logged in.*gh auth login/);
    const calls = fs.readFileSync(ghLog, 'utf8');
    expect(calls).toContain('auth\nstatus');
    expect(calls).not.toContain('pr\ncreate');
  });

  it('FINISH-6: task.pr pushes the branch and runs the person\'s own `gh pr create` for agent/<task> into main; the URL is on the bus', async () => {
    fs.writeFileSync(path.join(fakeBin, 'logged-in'), '');
    fs.rmSync(ghLog, { force: true });
    const ack = await fx.client.request({ type: 'task.pr', repo: fx.repo, task: 'T-3' });
    expect(ack.result).toMatchObject({ forge: 'gh', url: 'https://github.example/acme/repo/pull/7', base: 'main', branch: 'agent/T-3', remote: 'origin' });
    expect(fx.world.git(['rev-parse', 'refs/heads/agent/T-3'], bare).trim()).toBe(rev('agent/T-3'));
    const runs = fs.readFileSync(ghLog, 'utf8').split('---\n').filter((r) => r !== '').map((r) => r.split('\n').filter((l) => l !== ''));
    const create = runs.find((r) => r[1] === 'pr')!;
    expect(create[0]).toBe(fx.world.repo);
    const title = (await fx.bus.task(fx.repo, 'T-3')).title;
    expect(create.slice(1, 9)).toEqual(['pr', 'create', '--head', 'agent/T-3', '--base', 'main', '--title', title]);
    expect((await fx.bus.event('pr_opened', 'T-3')).event).toMatchObject({ forge: 'gh', url: 'https://github.example/acme/repo/pull/7', base: 'main', branch: 'agent/T-3' });
  });
});

describe('FINISH: notifications', () => {
  it('FINISH-8: task_merged, task_pushed and pr_opened each become a notification that opens the task', () => {
    const ctx = { repoId: 'r-1', repoName: 'repo' };
    const ts = new Date().toISOString();
    const merged = busEventMessage({ ts, event: 'task_merged', task: 'T-1', base: 'main', commit: 'a'.repeat(40), mode: 'merge', by: 'p' }, ctx);
    expect(merged).toMatchObject({ kind: 'task_done', title: 'T-1 merged into main in repo', url: '/task?repo=r-1&id=T-1' });
    expect(merged!.body).toMatch(/^Merge commit a{10}/);
    expect(busEventMessage({ ts, event: 'task_pushed', task: 'T-1', remote: 'origin', branch: 'agent/T-1', commit: 'b'.repeat(40), by: 'p' }, ctx))
      .toMatchObject({ kind: 'task_done', title: 'T-1 pushed to origin' });
    expect(busEventMessage({ ts, event: 'pr_opened', task: 'T-1', forge: 'gh', url: 'https://x/pull/1', base: 'main', branch: 'agent/T-1', by: 'p' }, ctx)!.body)
      .toContain('https://x/pull/1');
  });
});
