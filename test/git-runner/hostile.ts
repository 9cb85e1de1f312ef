// A repository an agent has made hostile: every git config key that names a command set to a
// marker script (one per key class, each appends its class to one marker file), through the
// repository's own `.git/config` or a file it `[include]`s from the work tree, and drivers named
// by `.gitattributes` or `.git/info/attributes`. Nothing of it may ever run (GITRUN-2).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });

export type Source = 'config' | 'include';
export type AttrSource = '.gitattributes' | 'info/attributes';

/** Key class → the config it sets, each value a script that records the class. */
export function hostileKeys(script: (cls: string) => string): Record<string, Array<[string, string]>> {
  return {
    fsmonitor: [['core.fsmonitor', script('fsmonitor')]],
    'filter-clean': [['filter.evil.clean', script('filter-clean')], ['filter.evil.required', 'true']],
    'filter-smudge': [['filter.evil.smudge', script('filter-smudge')]],
    'filter-process': [['filter.proc.process', script('filter-process')]],
    'filter-name-with-equals': [['filter.a=b.clean', script('filter-name-with-equals')]],
    textconv: [['diff.evil.textconv', script('textconv')]],
    'diff-command': [['diff.evil.command', script('diff-command')]],
    'diff-external': [['diff.external', script('diff-external')]],
    'merge-driver': [['merge.evil.driver', script('merge-driver')]],
    pager: [['core.pager', script('pager')], ['pager.diff', script('pager')], ['pager.log', script('pager')]],
    editor: [['core.editor', script('editor')], ['sequence.editor', script('editor')]],
    'ssh-command': [['core.sshCommand', script('ssh-command')]],
    askpass: [['core.askPass', script('askpass')]],
    'credential-helper': [['credential.helper', script('credential-helper')], ['credential.http://127.0.0.1.helper', script('credential-helper')]],
    'git-proxy': [['core.gitProxy', script('git-proxy')]],
    'upload-pack': [['remote.origin.uploadpack', script('upload-pack')], ['remote.origin.receivepack', script('upload-pack')]],
    gpg: [['gpg.program', script('gpg')], ['gpg.ssh.program', script('gpg')], ['gpg.x509.program', script('gpg')], ['commit.gpgSign', 'true']],
    'alternate-refs': [['core.alternateRefsCommand', script('alternate-refs')]],
  };
}

export const HOOKS = ['pre-commit', 'commit-msg', 'post-commit', 'post-index-change', 'post-checkout', 'reference-transaction', 'pre-push', 'pre-auto-gc', 'prepare-commit-msg', 'fsmonitor-watchman'];

export interface Hostile { marker: string; fired(): string[] }

/** Makes `repo` (and its work tree `worktree`, maybe the same) hostile. Call after the fixture's own commits. */
export function makeHostile(repo: string, worktree: string, dir: string, source: Source, attrs: AttrSource = '.gitattributes', classes?: string[]): Hostile {
  const marker = path.join(dir, 'marker');
  const script = (cls: string): string => {
    const file = path.join(dir, `evil-${cls}.sh`);
    fs.writeFileSync(file, `#!/bin/sh\necho ${cls} >> '${marker}'\nexit 1\n`, { mode: 0o755 });
    return file;
  };
  const keys = Object.entries(hostileKeys(script)).filter(([cls]) => !classes || classes.includes(cls)).flatMap(([, kv]) => kv);
  const target = source === 'config' ? undefined : path.join(worktree, 'hostile.inc');
  if (target) {
    fs.writeFileSync(target, '');
    git(worktree, 'config', '--local', 'include.path', target);
  }
  for (const [k, v] of keys) git(worktree, 'config', ...(target ? ['--file', target] : ['--local']), '--add', k, v);
  const gitDir = git(worktree, 'rev-parse', '--git-common-dir').trim();
  const common = path.resolve(worktree, gitDir);
  const lines = '* filter=evil diff=evil merge=evil\n*.p filter=proc\n*.q filter=a=b\n';
  if (attrs === '.gitattributes') fs.writeFileSync(path.join(worktree, '.gitattributes'), lines);
  else {
    fs.mkdirSync(path.join(common, 'info'), { recursive: true });
    fs.writeFileSync(path.join(common, 'info', 'attributes'), lines);
  }
  // Hooks are a class of their own: in a control run, a failing pre-commit would stop the commit before its editor or gpg.
  if (classes && !classes.includes('hook')) return { marker, fired: () => fired(marker) };
  fs.mkdirSync(path.join(common, 'hooks'), { recursive: true });
  const hook = script('hook');
  for (const name of HOOKS) fs.copyFileSync(hook, path.join(common, 'hooks', name));
  fs.chmodSync(path.join(common, 'hooks'), 0o755);
  for (const name of HOOKS) fs.chmodSync(path.join(common, 'hooks', name), 0o755);
  void repo;
  return { marker, fired: () => fired(marker) };
}

const fired = (marker: string): string[] => (fs.existsSync(marker) ? [...new Set(fs.readFileSync(marker, 'utf8').split('\n').filter(Boolean))] : []);
