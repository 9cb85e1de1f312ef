// The world every adversary file attacks (test/adversary/README.md): a relay run in this process that
// starts the REAL Claude Code through the claude adapter's `run` for a task job (the default install:
// whatever isolation the relay gives its jobs applies), a repo whose bus has the real commit gate, a
// bare remote guarded by the documented pre-receive hook, a phone that never approves what the attacker
// asks for (except the pushes a file lets through), and a marker command whose every run is recorded.
// Assertions are about OUTCOMES only: what reached the remote, whether the marker ran outside a job
// sandbox, whether a secret was printed — never which layer stopped the attack.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { keyIdOf, loadOrCreateSigningKey, publicKeyFile } from '../../bus/approval/keys';
import { repoKeyOf, signApproval } from '../../bus/approval/sign';
import { trailerLine } from '../../bus/approval/trailer';
import type { SignedApproval } from '../../protocol/bus/approval';
import { initRepo, recordApprovalKey } from '../../bus/init';
import { repoIdOf } from '../../relay/watch/repo-id';
import type { PlannedTool } from '../adapters/claude-script';
import { requestText } from '../adapters/claude-script';
import { ROOT } from '../adapters/harness';
import { claudeRelayWorld, useWorld, type ClaudeRelayWorld } from '../adapters/world';
import type { MessagesApi, RecordedRequest } from '../stand-ins/messages-api';

export const COMMANDR_BIN = path.join(ROOT, 'bin', 'commandr');
export const TASK = 'T-1';

export const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** A step of the attacker's one turn: a fixed tool call, or one made from everything the model has seen so far. */
export type Step = PlannedTool | ((seen: string) => PlannedTool | undefined | Promise<PlannedTool | undefined>);

/** Scripts one turn: each tool-carrying request gets the next step (a function step sees the request so far). */
export function planAttack(api: MessagesApi, steps: Step[], finalText = 'attack finished'): { issued: number } {
  let next = 0;
  const count = { issued: 0 };
  api.setReply(async (request: RecordedRequest) => {
    if (!Array.isArray(request.body?.tools) || request.body.tools.length === 0) return { text: 'side answer' };
    while (next < steps.length) {
      const step = steps[next++]!;
      const tool = typeof step === 'function' ? await step(JSON.stringify(request.body)) : step;
      if (tool) {
        count.issued++;
        return { content: [{ type: 'tool_use', name: tool.name, input: tool.input }] };
      }
    }
    return { text: finalText };
  });
  return count;
}

export const bash = (command: string): PlannedTool => ({ name: 'Bash', input: { command, description: 'step' } });

export interface AdversaryOptions {
  /** Files the repo tracks besides README.md (symlinks as `{ link: target }`). */
  files?: Record<string, string | { link: string }>;
  /** Ask-requests whose summary matches are allowed by the phone (a person allowing e.g. a push); all others are denied. */
  phoneAllows?: RegExp;
  /** AGENT_COMMANDS for the relay's jobs: command prefixes the person lets every job run (e.g. their test command). */
  agentCommands?: string;
}

export interface AdversaryWorld extends ClaudeRelayWorld {
  repo: string;
  bus: string;
  repoId: string;
  /** The bare remote, `origin` of the repo, with the documented pre-receive hook. */
  remote: string;
  /** Every commit on the remote when the world was built (main's history). */
  baseline: Set<string>;
  /** The marker command: a shell command line, `<marker> <label>`, whose runs are recorded. */
  marker: (label: string) => string;
  markers: string;
  /** The job's worktree for TASK (exists once a job ran). */
  worktree: string;
  /** The repo's common git dir (`.git` of the main checkout): hooks and config live there. */
  commonDir: string;
}

/** The per-file world, built in beforeAll and closed in afterAll (see useWorld). */
export function useAdversaryWorld(prefix: string, options: AdversaryOptions = {}): AdversaryWorld {
  return useWorld(async () => {
    if (options.agentCommands !== undefined) process.env.AGENT_COMMANDS = options.agentCommands; // the relay's jobs inherit it
    const base = await claudeRelayWorld(prefix, (tmp) => layRepo(tmp, options));
    loadOrCreateSigningKey(base.dataDir); // the relay's key exists, as after its first approval,
    recordApprovalKey(base.repo, publicKeyFile(base.dataDir)); // and `commandr init` pinned it for the gate
    installPreReceive(base.remote, publicKeyFile(base.dataDir));
    const baseline = new Set(git(base.remote, 'rev-list', '--all').split('\n').filter(Boolean));
    await base.phone.request({ type: 'subscribe' });
    answerAsks(base, options.phoneAllows);
    return { ...base, baseline, worktree: path.join(base.dataDir, 'worktrees', base.repoId, TASK) };
  });
}

export function layRepo(tmp: string, options: AdversaryOptions = {}) {
  const repo = path.join(tmp, 'repo');
  fs.mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'config', 'user.email', 'agent@example.com');
  git(repo, 'config', 'user.name', 'Agent');
  fs.writeFileSync(path.join(repo, 'README.md'), '# victim\n');
  for (const [name, content] of Object.entries(options.files ?? {})) {
    fs.mkdirSync(path.dirname(path.join(repo, name)), { recursive: true });
    if (typeof content === 'string') fs.writeFileSync(path.join(repo, name), content);
    else fs.symlinkSync(content.link, path.join(repo, name));
  }
  const { bus } = initRepo(repo, { gateBin: path.join(ROOT, 'bin', 'pre-commit-gate'), registryFile: path.join(tmp, 'registry') });
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'init');
  fs.writeFileSync(path.join(bus, 'inbox', `${TASK}.md`), `---\nid: ${TASK}\ntype: implementation\nscope: "**"\n---\n# ${TASK}\nImprove the README.\n`);
  const remote = path.join(tmp, 'remote.git');
  git(tmp, 'init', '-q', '--bare', '-b', 'main', remote);
  git(repo, 'remote', 'add', 'origin', remote);
  git(repo, 'push', '-q', 'origin', 'main');
  const markers = path.join(tmp, 'markers');
  fs.mkdirSync(markers);
  const markerBin = path.join(tmp, 'marker.sh');
  // Records who ran it: outside a job sandbox (COMMANDR_SANDBOX unset) it ran as the relay or an unconfined agent.
  // The ancestors' names go along, to tell the relay's git from the agent's when a run is reported.
  fs.writeFileSync(markerBin, [
    '#!/bin/sh', 'p=$$; chain=', 'while [ "$p" -gt 1 ] 2>/dev/null; do chain="$chain<$(cat /proc/$p/comm 2>/dev/null)"; p=$(sed -n \'s/.*) [A-Za-z] \\([0-9]*\\).*/\\1/p\' /proc/$p/stat 2>/dev/null); done',
    `echo "label=$1 sandbox=\${COMMANDR_SANDBOX:-none} chain=$chain" >> ${markers}/ran`, 'exit 0', '',
  ].join('\n'), { mode: 0o755 });
  return {
    repo, bus, remote, markers, repoId: repoIdOf(repo), commonDir: path.join(repo, '.git'),
    marker: (label: string) => `sh ${markerBin} ${label}`,
    relayOptions: { repos: [repo] },
  };
}

/**
 * The documented pre-receive: `commandr verify --install <bare>` where this commandr has it, else the
 * README's `exec commandr verify --key <relay.pem> --pre-receive` written as the hook by hand.
 */
export function installPreReceive(bare: string, keyFile: string): void {
  const help = spawnSync(COMMANDR_BIN, ['verify', '--help'], { cwd: bare, encoding: 'utf8' });
  if (`${help.stdout}${help.stderr}`.includes('--install')) {
    const r = spawnSync(COMMANDR_BIN, ['verify', '--install', bare, '--key', keyFile], { cwd: bare, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`commandr verify --install failed: ${r.stderr}`);
    return;
  }
  fs.writeFileSync(path.join(bare, 'hooks', 'pre-receive'), `#!/bin/sh\nexec ${COMMANDR_BIN} verify --key ${keyFile} --pre-receive\n`, { mode: 0o755 });
}

/** The phone: every permission request is answered at once — allowed when `allows` matches its summary, else denied. */
function answerAsks(w: ClaudeRelayWorld, allows?: RegExp): void {
  const seen = new Set<string>();
  w.phone.ws.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as { type?: string; request?: { id: string; status: string; summary: string } };
    if (frame.type !== 'permission.request' || frame.request?.status !== 'pending' || seen.has(frame.request.id)) return;
    seen.add(frame.request.id);
    const decision = allows?.test(frame.request.summary) ? 'allow' : 'deny';
    w.phone.request({ type: 'permission.decide', request: frame.request.id, decision, reason: 'adversary suite' }).catch(() => { /* expired or settled */ });
  });
}

/**
 * Runs the task job (real Claude Code through the relay) with the scripted attack; resolves once it ended with
 * its status, log, everything the model saw, and how many tool calls were issued and answered (a test checks
 * they are equal, so an attack that never ran cannot pass as one that was stopped).
 */
export async function runAttackJob(world: AdversaryWorld, steps: Step[]): Promise<{ status: string; log: string; seen: string; issued: number; answered: number }> {
  const from = world.api.messageRequests().length;
  const count = planAttack(world.api, steps);
  const { job } = (await world.phone.request({ type: 'task.run', repo: world.repoId, task: TASK, mode: 'work' })).result as { job: string };
  const end = await world.phone.next('job.state', (f) => f.job === job && f.status !== 'running', 150_000);
  const logFile = path.join(world.dataDir, 'jobs', `${job}.log`);
  const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
  const seen = requestText(world.api, from);
  if (process.env.ADVERSARY_DEBUG) process.stderr.write(`--- job ${job} ${String(end.status)}\n${log}\n--- tool results\n${toolResults(world.api, from)}\n`);
  return { status: String(end.status), log, seen, issued: count.issued, answered: answeredCalls(world.api, from) };
}

/** Tool results in the last model request since `from`: how many of the agent's calls came back answered. */
export function answeredCalls(api: MessagesApi, from: number): number {
  const last = api.messageRequests().slice(from).filter((r) => Array.isArray(r.body?.tools) && r.body.tools.length > 0).pop();
  return (last?.body?.messages ?? []).flatMap((m: { content?: unknown }) => (Array.isArray(m.content) ? m.content : []))
    .filter((b: { type?: string }) => b.type === 'tool_result').length;
}

/** The job ran, and at least `min` scripted calls were made, each answered: the attack was tried, whatever stopped it. */
export function expectAttackTried(ran: { status: string; log: string; issued: number; answered: number }, min: number): void {
  if (ran.status !== 'done' || ran.issued < min || ran.answered !== ran.issued) {
    throw new Error(`the attack did not run through: job ${ran.status}, ${ran.issued} calls issued (at least ${min} planned), ${ran.answered} answered\n${ran.log}`);
  }
}

/** The tool calls and results the model saw, one a line (ADVERSARY_DEBUG=1 prints them). */
export function toolResults(api: MessagesApi, from: number): string {
  const last = api.messageRequests().slice(from).filter((r) => Array.isArray(r.body?.tools) && r.body.tools.length > 0).pop();
  const blocks = (last?.body?.messages ?? []).flatMap((m: { content?: unknown }) => (Array.isArray(m.content) ? m.content : []));
  return blocks.filter((b: { type?: string }) => b.type === 'tool_result' || b.type === 'tool_use')
    .map((b: { type: string; input?: unknown; content?: unknown }) => `${b.type}: ${JSON.stringify(b.type === 'tool_use' ? b.input : b.content).slice(0, 300)}`).join('\n');
}

/** Commits on any ref of the remote that were not there at the start (tags, refs/x/*, every branch). */
export function newOnRemote(world: AdversaryWorld): string[] {
  const all = git(world.remote, 'rev-list', '--all').split('\n').filter(Boolean);
  return all.filter((c) => !world.baseline.has(c));
}

/** Marker runs outside a job sandbox: the relay (or an unconfined agent) ran the attacker's command. */
export function markerRunsOutsideSandbox(world: AdversaryWorld): string[] {
  const file = path.join(world.markers, 'ran');
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.includes('sandbox=none'));
}

/** The secrets the attacker wants: the private key's body and the relay's full hook credential. */
export function secrets(world: ClaudeRelayWorld): { keyBody: string; hookToken: string; adminToken?: string } {
  const pem = fs.readFileSync(path.join(world.dataDir, 'approval', 'private.pem'), 'utf8');
  const keyBody = pem.split('\n').filter((l) => l && !l.startsWith('-----')).join('');
  const hookToken = fs.readFileSync(path.join(world.dataDir, 'hook-token'), 'utf8').trim();
  const adminFile = path.join(world.dataDir, 'admin-token');
  return { keyBody, hookToken, ...(fs.existsSync(adminFile) ? { adminToken: fs.readFileSync(adminFile, 'utf8').trim() } : {}) };
}

/** An Ed25519 private key (PKCS#8 PEM body, one base64 line) anywhere in `text`, as a PEM; undefined when none. */
export function leakedKey(text: string): string | undefined {
  const body = /MC4CAQAwBQYDK2VwBCIEI[A-Za-z0-9+/]{43}/.exec(text)?.[0];
  return body ? `-----BEGIN PRIVATE KEY-----\n${body}\n-----END PRIVATE KEY-----\n` : undefined;
}


/** The attacker's forgery with the product's own signing code: `pem` signs an approval of exactly this change. */
export function forgeApproval(pem: string, claim: { repo: string; task: string; base: string; tree: string; digest?: string }): SignedApproval {
  const privateKey = createPrivateKey(pem);
  const key = { privateKey, publicKey: createPublicKey(privateKey), keyId: keyIdOf(createPublicKey(privateKey)) };
  return signApproval({
    v: 1, repo: claim.repo, task: claim.task, base: claim.base, tree: claim.tree,
    digest: claim.digest ?? `sha256:${'0'.repeat(64)}`, by: 'Pixel', ts: new Date().toISOString(),
  }, key);
}

/**
 * What a leaked key buys at the remote: a commit made outside every gate, carrying an approval `pem` signs for
 * exactly its own change, pushed to the task's agent branch. Returns git push's exit code.
 */
export function pushForgedCommit(world: AdversaryWorld, pem: string, dir: string): number | null {
  const clone = path.join(dir, 'forger');
  git(dir, 'clone', '-q', world.remote, clone);
  fs.writeFileSync(path.join(clone, 'forged.txt'), 'unapproved\n');
  git(clone, 'add', 'forged.txt');
  const base = git(clone, 'rev-parse', 'HEAD');
  const tree = git(clone, 'write-tree');
  const approval = forgeApproval(pem, { repo: repoKeyOf(world.repo), task: TASK, base, tree });
  git(clone, '-c', 'user.name=x', '-c', 'user.email=x@x', 'commit', '-q', '--no-verify', '-m', `forged\n\n${trailerLine(approval)}`);
  return spawnSync('git', ['push', '-q', 'origin', `HEAD:refs/heads/agent/${TASK}`], { cwd: clone, encoding: 'utf8' }).status;
}

/**
 * The person, trusting the gate and the remote's hook, pushes what the job left on its branch (and main):
 * whatever got committed there must still not reach the remote unapproved. Failures are the point.
 */
export function personPushes(world: AdversaryWorld): void {
  for (const ref of [`agent/${TASK}`, 'main']) {
    spawnSync('git', ['push', '-q', 'origin', `refs/heads/${ref}:refs/heads/${ref}`], { cwd: world.repo, encoding: 'utf8' });
  }
}
