// A guarded server repo for the remote-verify tests (RVERIFY-n): a real install's
// bin/commandr, a real relay key pair signing real approvals, a work repo whose
// commits carry them, and bare repos guarded by the real `commandr verify --install`.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadOrCreateSigningKey, publicKeyFile, type SigningKey } from '../../bus/approval/keys';
import { signApproval } from '../../bus/approval/sign';
import { withTrailer } from '../../bus/approval/trailer';
import type { Install } from '../conformance/harness';

export const NULL = '0'.repeat(40);

/** A clean environment: private HOME, no system git config, no inherited git or agent variables. */
function cleanEnv(home: string): NodeJS.ProcessEnv {
  const env = {} as NodeJS.ProcessEnv;
  for (const [k, v] of Object.entries(process.env)) if (!/^(GIT_|AGENTS_|COUNCIL_|COMMANDR_)/.test(k)) env[k] = v;
  return { ...env, HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };
}
export interface Run { status: number | null; stdout: string; stderr: string }

export class Server {
  readonly dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rverify-')));
  readonly env = cleanEnv(path.join(this.dir, 'home'));
  readonly work = path.join(this.dir, 'work');
  readonly bare = path.join(this.dir, 'remote.git');
  readonly key: SigningKey;
  readonly pub: string;

  constructor(readonly install: Install, branch = 'main') {
    fs.mkdirSync(path.join(this.dir, 'home'));
    const data = path.join(this.dir, 'relay-data');
    this.key = loadOrCreateSigningKey(data);
    this.pub = publicKeyFile(data);
    fs.mkdirSync(this.work);
    this.git(['init', '-q', '-b', branch]);
    this.write('README.md', 'hello\n');
    this.git(['commit', '-q', '-m', 'a person\'s first commit']);
    this.git(['init', '-q', '--bare', this.bare], this.dir);
    this.git(['remote', 'add', 'origin', this.bare]);
  }

  run(cmd: string, args: string[], cwd = this.work, input?: string): Run {
    const r = spawnSync(cmd, args, { cwd, env: this.env, encoding: 'utf8', input });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  }

  git(args: string[], cwd = this.work): string {
    const r = this.run('git', args, cwd);
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  }

  commandr(args: string[], cwd = this.work, input?: string): Run {
    return this.run(this.install.bin('commandr'), args, cwd, input);
  }

  /** Guards the bare repo with the real install, as an administrator would. */
  guard(extra: string[] = []): Run {
    const r = this.commandr(['verify', '--install', this.bare, '--key', this.pub, ...extra], this.dir);
    if (r.status !== 0) throw new Error(`install failed: ${r.stderr}`);
    return r;
  }

  write(file: string, text: string): void {
    fs.writeFileSync(path.join(this.work, file), text);
    this.git(['add', file]);
  }

  rev(name: string, cwd = this.work): string {
    return this.git(['rev-parse', name], cwd).trim();
  }

  /** Signs an approval of exactly what is staged on HEAD, as the relay does (APPROVAL-5). */
  approval(task: string, base = this.headOrNull(), tree = this.git(['write-tree']).trim()): object {
    return signApproval({ v: 1, repo: 'work-00000000', task, base, tree, digest: `sha256:${'0'.repeat(64)}`, by: 'Pixel', ts: new Date().toISOString() }, this.key);
  }

  /** Commits what is staged carrying a valid approval for `task`; returns the commit id. */
  approvedCommit(task: string, message: string): string {
    this.git(['commit', '-q', '-m', withTrailer(message, this.approval(task))]);
    return this.rev('HEAD');
  }

  plainCommit(message: string): string {
    this.git(['commit', '-q', '-m', message]);
    return this.rev('HEAD');
  }

  headOrNull(): string {
    const r = this.run('git', ['rev-parse', '--verify', '-q', 'HEAD']);
    return r.status === 0 ? r.stdout.trim() : NULL;
  }

  push(args: string[], cwd = this.work): Run {
    return this.run('git', ['push', '--no-verify', 'origin', ...args], cwd);
  }

  remoteRef(ref: string): string | undefined {
    const r = this.run('git', ['rev-parse', '--verify', '-q', ref], this.bare);
    return r.status === 0 ? r.stdout.trim() : undefined;
  }

  verified(): string[] {
    return fs.readFileSync(path.join(this.bare, 'commandr', 'verified'), 'utf8').split('\n').filter((l) => l !== '');
  }

  cleanup(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
