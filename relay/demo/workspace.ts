// The demo workspace (DEMO-n): with no repo registered, the relay creates once, under
// <dataDir>/demo/, a real git repo whose bus shows every state — made with the real
// bus tools and the real gate — plus a sample commander under <dataDir>/commanders/.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeAnnotation, listAnnotations, markConsumed } from '../../bus/annotations';
import { claimNext } from '../../bus/claim';
import { completePacket } from '../../bus/complete';
import { runCouncil } from '../../bus/council/council';
import { readEvents } from '../../bus/event-log';
import { runGate } from '../../bus/gate';
import { initRepo } from '../../bus/init';
import { publicKeyFile } from '../../bus/approval/keys';
import { gitSync } from '../../bus/git/run';
import { appendProgress } from '../../bus/progress';
import { PACKAGE_ROOT } from '../options';
import { writeDemoCommander } from './commander';
import { loadOrCreateSigningKey } from '../../bus/approval/keys';
import { commitApprovedChange, failedRun, gitAsync, mergeIntoBase } from './later-states';
import { BLOCKED_TASK, COMMITTED_TASK, DEMO_PACKETS, FAIL_TASK, FAILED_RUN_TASK, INBOX_TASK, MERGED_TASK, PASS_TASK, REVIEW_TASK, RUNNING_TASK } from './packets';

export const DEMO_REPO_NAME = 'commandr-demo';
/** The demo repo's README: first with the typo its typo task fixes (DEMO-STATES-6). */
const readme = (workspace: string): string => `# Commandr demo\n\nA demo ${workspace}. Every task here is labelled "Demo:".\n`;
const READY_FILE = '.ready';
void BLOCKED_TASK; void INBOX_TASK; // stay in the inbox: nothing to do for them

export const demoRoot = (dataDir: string): string => path.join(dataDir, 'demo');

/** Creates the demo workspace unless it is complete already; returns the repo path. */
export async function ensureDemo(dataDir: string): Promise<string> {
  const root = demoRoot(dataDir);
  const repo = path.join(root, DEMO_REPO_NAME);
  if (fs.existsSync(path.join(root, READY_FILE))) return trustRelayKey(repo, dataDir);
  // A half-made workspace (the relay died while making it) is made again from scratch.
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true, mode: 0o700 });
  await buildDemo(root, repo, dataDir);
  writeDemoCommander(dataDir, repo);
  fs.writeFileSync(path.join(root, READY_FILE), `${new Date().toISOString()}\n`);
  return trustRelayKey(repo, dataDir);
}

/** The demo repo's gate trusts this relay's approval key, wherever its data dir is (`--data`). */
function trustRelayKey(repo: string, dataDir: string): string {
  git(repo, 'config', 'commandr.approvalKey', publicKeyFile(dataDir));
  return repo;
}

function git(cwd: string, ...args: string[]): string {
  return gitSync(args, { cwd, env: gitEnv() }).toString('utf8');
}

/** A fixed identity so the demo commits work on a machine without git config. */
function gitEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env, GIT_AUTHOR_NAME: 'Commandr demo', GIT_AUTHOR_EMAIL: 'demo@commandr.invalid',
    GIT_COMMITTER_NAME: 'Commandr demo', GIT_COMMITTER_EMAIL: 'demo@commandr.invalid', AGENTS_TASK_ID: '',
  };
}

async function buildDemo(root: string, repo: string, dataDir: string): Promise<void> {
  fs.mkdirSync(path.join(repo, 'src'), { recursive: true });
  git(repo, 'init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(repo, 'README.md'), readme('worksapce'));
  fs.writeFileSync(path.join(repo, 'src', 'greeting.js'), "exports.greet = () => 'Hello!';\n");
  const { bus } = initRepo(repo, { gateBin: path.join(PACKAGE_ROOT, 'bin', 'pre-commit-gate'), registryFile: path.join(root, 'registry') });
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '--no-verify', '-m', 'Demo: initial commit');
  trustRelayKey(repo, dataDir);
  // The packets come after the first commit, so the bus moving them leaves main's checkout
  // clean and "Merge into main" works there (FINISH-4). The inbox one comes last: claims take
  // the first claimable packet by name.
  for (const p of DEMO_PACKETS) if (p.id !== INBOX_TASK) fs.writeFileSync(path.join(bus, 'inbox', p.file), p.text);
  const first = git(repo, 'rev-parse', 'HEAD').trim();
  await claimedWithNotes(bus);
  const typo = await finished(bus);
  // Claims in name order, then the slow parts (git worktrees, gates, commits, the council's
  // evaluators) side by side: each works on its own task, branch and worktree.
  const later = await claimLater(bus);
  await Promise.all([blockedCommit(bus, repo, root, first), laterStates(bus, repo, root, dataDir, first, { ...later, typo }), councilVerdict(bus, root)]);
  annotations(bus);
  const inbox = DEMO_PACKETS.find((p) => p.id === INBOX_TASK)!;
  fs.writeFileSync(path.join(bus, 'inbox', inbox.file), inbox.text);
}

/** DEMO-STATES-1..4: the later tasks claimed in name order, with the agent's first notes. */
async function claimLater(bus: string): Promise<{ merged: string }> {
  const merged = await claim(bus, MERGED_TASK);
  appendProgress(bus, MERGED_TASK, 'shout(name) written next to greet', 'demo-host_4242');
  await claim(bus, COMMITTED_TASK);
  appendProgress(bus, COMMITTED_TASK, 'farewell(name) written; asking to commit', 'demo-host_4242');
  await claim(bus, FAILED_RUN_TASK);
  await claim(bus, RUNNING_TASK);
  appendProgress(bus, RUNNING_TASK, 'Reading src/greeting.js', 'demo-host_4242');
  appendProgress(bus, RUNNING_TASK, 'Writing test/greeting.test.js', 'demo-host_4242');
  return { merged };
}

/**
 * DEMO-STATES-1..3, -6: merged, committed, a failed run — made for real (later-states.ts). The typo's
 * fix and then the loud greeting are merged one after the other (each a fast-forward: the second
 * branches from main after the first); the committed one starts at `from`, beside them.
 */
async function laterStates(bus: string, repo: string, root: string, dataDir: string, from: string, claimed: { merged: string; typo: string }): Promise<void> {
  failedRun(bus, repo, FAILED_RUN_TASK, dataDir);
  loadOrCreateSigningKey(dataDir); // once, before the approvals below sign with it
  await Promise.all([
    (async () => {
      await commitApprovedChange(bus, repo, root, dataDir, { task: PASS_TASK, file: 'README.md', subject: 'Demo: fix a typo in the README', from, text: readme('workspace') });
      await completePacket(claimed.typo, 'pass');
      await mergeIntoBase(bus, repo, PASS_TASK, dataDir);
      await commitApprovedChange(bus, repo, root, dataDir, {
        task: MERGED_TASK, file: 'src/shout.js', subject: 'Demo: add a loud greeting', from: 'main',
        text: "exports.shout = (name) => `HELLO, ${String(name).toUpperCase()}!`;\n",
      });
      await completePacket(claimed.merged, 'pass');
      await mergeIntoBase(bus, repo, MERGED_TASK, dataDir);
    })(),
    commitApprovedChange(bus, repo, root, dataDir, {
      task: COMMITTED_TASK, file: 'src/farewell.js', subject: 'Demo: say goodbye too', from,
      text: 'exports.farewell = (name) => `Goodbye, ${name}!`;\n',
    }),
  ]);
}

async function claim(bus: string, expected: string): Promise<string> {
  const claimed = await claimNext(bus, { host: 'demo-host', pid: 4242 });
  if (claimed?.task !== expected) throw new Error(`demo: expected to claim ${expected}, got ${claimed?.task ?? 'nothing'}`);
  return claimed.path;
}

async function claimedWithNotes(bus: string): Promise<void> {
  await claim(bus, REVIEW_TASK);
  appendProgress(bus, REVIEW_TASK, 'Read the packet and the current greeting', 'demo-host_4242');
  appendProgress(bus, REVIEW_TASK, 'greet(name) written; waiting for approval to commit', 'demo-host_4242');
}

/** The typo task claimed with its note (its commit, completion and merge come later, DEMO-STATES-6); the flaky one failed. */
async function finished(bus: string): Promise<string> {
  const pass = await claim(bus, PASS_TASK);
  appendProgress(bus, PASS_TASK, 'Typo fixed in the README', 'demo-host_4242');
  const fail = await claim(bus, FAIL_TASK);
  appendProgress(bus, FAIL_TASK, 'The slow test depends on a network call; cannot make it fast alone', 'demo-host_4242');
  await completePacket(fail, 'fail');
  return pass;
}

/**
 * The agent's worktree on agent/<task> stages a change, and the gate its `git commit` would run
 * blocks it. The gate runs in process: the relay's git runs no hook, not even this repo's (GITRUN-2).
 */
async function blockedCommit(bus: string, repo: string, root: string, from: string): Promise<void> {
  const worktree = path.join(root, 'worktrees', REVIEW_TASK);
  // From the first commit, not wherever main is: the merges beside it move main meanwhile.
  await gitAsync(repo, 'worktree', 'add', '-q', '-b', `agent/${REVIEW_TASK}`, worktree, from);
  fs.writeFileSync(path.join(worktree, 'src', 'greeting.js'), 'exports.greet = (name) => `Hello, ${name}!`;\n');
  await gitAsync(worktree, 'add', 'src/greeting.js');
  const outcome = await runGate(worktree, gitEnv());
  if (outcome.allow || !hasApprovalRequest(bus)) throw new Error('demo: the gate did not block the unapproved commit');
}

function hasApprovalRequest(bus: string): boolean {
  return readEvents(bus).events.some((e) => e.event === 'approval_requested' && e.task === REVIEW_TASK);
}

/** A stand-in evaluator (a local script, no network) so the verdict is real but costs nothing. */
async function councilVerdict(bus: string, root: string): Promise<void> {
  const evaluator = path.join(root, 'demo-evaluator.cjs');
  fs.writeFileSync(evaluator, [
    `#!${process.execPath}`,
    '// Demo council evaluator: votes without asking any model.',
    "const dimension = process.argv[3] || '';",
    "const vote = dimension === 'style' ? 'FAIL' : 'PASS';",
    "console.log('VOTE: ' + vote);",
    "console.log('REASON: demo evaluator (no model was asked) — ' + (vote === 'PASS' ? 'looks fine' : 'prefer single quotes'));",
    '',
  ].join('\n'), { mode: 0o755 });
  const packet = path.join(bus, 'claimed', fs.readdirSync(path.join(bus, 'claimed')).find((f) => f.endsWith(`${REVIEW_TASK}.md`))!);
  await runCouncil(packet, { ...process.env, COUNCIL_EVALUATOR_CMD: evaluator });
}

function annotations(bus: string): void {
  writeAnnotation(bus, { task: REVIEW_TASK, turn: 1, anchor: 'general', author: 'demo', body: 'Demo note: please keep the old no-argument greeting working.' });
  writeAnnotation(bus, { task: REVIEW_TASK, turn: 2, anchor: 'line:src/greeting.js:1', author: 'demo', body: 'Demo note: a template literal is fine here.' });
  markConsumed(bus, REVIEW_TASK, listAnnotations(bus, REVIEW_TASK)[0]!.file);
}
