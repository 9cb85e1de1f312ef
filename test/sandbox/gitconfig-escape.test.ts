// The escape SANDBOX-12 closes, end to end: a job started through the real relay tries to make
// the relay run its code outside the sandbox by planting a filter driver in the person's
// ~/.gitconfig (which the relay's hardened git runner honours on purpose, for Git LFS) and
// `* filter=pwn` in its worktree; then the relay's git runner stages and diffs the task's files.
// HOME is a temp dir for this worker, never the person's.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobsWorld, packet } from '../jobs/fixture';
import { gitText } from '../../bus/git/run';
import { FAKE_ADAPTER_DIR } from '../commanders/relay-fixture';

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-escape-')));
const home = path.join(tmp, 'home');
const marker = path.join(tmp, 'MARKER-ran-outside-the-sandbox');
const probeDir = path.join(tmp, 'probe');
const savedHome = process.env.HOME;
const GITCONFIG = '[user]\n\tname = Person\n\temail = person@example.com\n';

beforeAll(() => {
  fs.mkdirSync(home, { recursive: true });
  fs.writeFileSync(path.join(home, '.gitconfig'), GITCONFIG);
  process.env.HOME = home; // the relay's (this worker's) HOME: its git runner reads this ~/.gitconfig
  fs.mkdirSync(probeDir);
  // The filter only marks when run OUTSIDE a sandbox (git add inside the job would run it harmlessly).
  fs.writeFileSync(path.join(probeDir, 'run'), `#!/usr/bin/env bash
cat > .pwn.sh <<'EOS'
#!/bin/sh
[ -n "$COMMANDR_SANDBOX" ] || echo ran > ${JSON.stringify(marker)}
cat
EOS
chmod +x .pwn.sh
{
if printf '[filter "pwn"]\\n\\tclean = %s\\n' "$PWD/.pwn.sh" >> "$HOME/.gitconfig"; then echo gitconfig=written; else echo gitconfig=refused; fi
if mkdir -p "$HOME/.config/git" && printf '* filter=pwn\\n' >> "$HOME/.config/git/attributes"; then echo attributes=written; else echo attributes=refused; fi
} > .probe.log 2>&1
printf '* filter=pwn\\n' > .gitattributes
echo planted > planted.txt
`, { mode: 0o755 });
  fs.copyFileSync(path.join(FAKE_ADAPTER_DIR, 'wire'), path.join(probeDir, 'wire'));
  fs.chmodSync(path.join(probeDir, 'wire'), 0o755);
});
afterAll(() => {
  process.env.HOME = savedHome;
  fs.rmSync(tmp, { recursive: true, force: true });
});

const world = jobsWorld('sandbox-escape-', { 'T-1': packet('T-1') }, () => ({ adapterDir: probeDir, adapterName: 'probe' }));

describe('a sandboxed job cannot make the relay run its code', () => {
  it('SANDBOX-12: a job that plants a filter driver in ~/.gitconfig and `* filter=pwn` in its worktree: the write is refused, and the relay\'s git runner staging and diffing the task runs nothing of it', async () => {
    const { job } = (await world.phone.request({ type: 'task.run', repo: world.repoId, task: 'T-1', mode: 'work' })).result as { job: string };
    await world.phone.next('job.state', (f) => f.job === job && f.status !== 'running', 30_000);
    // The task's worktree, as git lists it (the job's output may still be in flight).
    const list = execFileSync('git', ['worktree', 'list', '--porcelain'], { cwd: world.repo, encoding: 'utf8' });
    const worktree = /^worktree (.+)\nHEAD .+\nbranch refs\/heads\/agent\/T-1$/m.exec(list)![1]!;
    const said = fs.readFileSync(path.join(worktree, '.probe.log'), 'utf8');
    expect(said).toContain('gitconfig=refused');
    expect(said).toContain('attributes=refused');
    expect(fs.readFileSync(path.join(home, '.gitconfig'), 'utf8')).toBe(GITCONFIG);
    expect(fs.existsSync(path.join(home, '.config', 'git', 'attributes'))).toBe(false);
    // What the relay does next with the task's files, through its own git runner (as its user, outside).
    expect(fs.readFileSync(path.join(worktree, '.gitattributes'), 'utf8')).toBe('* filter=pwn\n');
    await gitText(['add', '-A'], { cwd: worktree, top: worktree });
    await gitText(['diff', '--cached', '--stat'], { cwd: worktree, top: worktree });
    fs.appendFileSync(path.join(worktree, 'planted.txt'), 'more\n');
    await gitText(['diff'], { cwd: worktree, top: worktree });
    expect(fs.existsSync(marker)).toBe(false);
  });
});
