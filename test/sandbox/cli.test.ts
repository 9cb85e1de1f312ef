// `commandr sandbox -- <cli>` (SANDBOX-7): the built CLI runs a command by hand in the jobs'
// sandbox, says in one stderr line what is hidden and read-only, and passes the exit code back.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = path.resolve(__dirname, '../../bin/commandr');
let tmp: string;
let dataDir: string;
let repo: string;

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-cli-')));
  dataDir = path.join(tmp, 'home');
  fs.mkdirSync(path.join(dataDir, 'approval'), { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'approval', 'private.pem'), 'THE-APPROVAL-KEY\n');
  repo = path.join(tmp, 'repo');
  fs.mkdirSync(path.join(repo, '.agents'), { recursive: true });
  spawnSync('git', ['init', '-q', repo]);
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const commandr = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: repo, encoding: 'utf8', env: { ...process.env, COMMANDR_HOME: dataDir }, timeout: 30_000 });

describe('commandr sandbox', () => {
  it('SANDBOX-7: runs a CLI by hand in the jobs\' sandbox: data dir hidden, hooks and approvals read-only, worktree writable, exit code passed back', () => {
    const key = path.join(dataDir, 'approval', 'private.pem');
    const r = commandr(['sandbox', '--', 'bash', '-c', `echo "in=$COMMANDR_SANDBOX"; cat ${key}; touch .git/hooks/x .agents/approvals/x; echo made > made.txt; exit 7`]);
    expect(r.status).toBe(7);
    expect(r.stdout).toContain('in=bwrap');
    expect(r.stdout).not.toContain('THE-APPROVAL-KEY');
    expect(r.stderr.split('\n')[0]).toMatch(new RegExp(`^commandr: sandbox \\(bwrap\\): ${dataDir} hidden; .git/hooks, .git/config, .agents/approvals read-only`));
    expect(r.stderr).toMatch(/Read-only file system/);
    expect(fs.existsSync(path.join(repo, '.git', 'hooks', 'x'))).toBe(false);
    expect(fs.existsSync(path.join(repo, '.agents', 'approvals', 'x'))).toBe(false);
    expect(fs.readFileSync(path.join(repo, 'made.txt'), 'utf8')).toBe('made\n');
  });

  it('KILL-2: a CLI run by hand gets a session of its own inside the sandbox, so it has no way into the person\'s terminal', () => {
    // Inside the pid namespace a session begun there reads 1; one left outside reads 0 (not visible).
    const r = commandr(['sandbox', '--', 'sh', '-c', 'grep NSsid /proc/self/status']);
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe('NSsid:\t1');
  });

  it('SANDBOX-7: without a CLI to run it is a usage error naming what is missing', () => {
    const r = commandr(['sandbox']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('name the CLI to run');
  });
});
