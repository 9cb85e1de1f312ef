// Whether this machine can run an agent inside the OS sandbox, and if not, why and how to fix it.
// doctor/init/phone messages and the relay's start-up line all read the same answer from here.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { onPath } from '../lib/env';

export type SandboxSupport =
  | { ok: true; kind: 'bwrap' | 'sandbox-exec'; detail: string }
  | { ok: false; reason: string; fix: string };

export const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

let cached: { key: string; support: SandboxSupport } | undefined;

/** The answer for this process; the probe (one bwrap spawn on Linux) runs once per PATH. */
export function sandboxSupport(env: NodeJS.ProcessEnv = process.env): SandboxSupport {
  const key = `${process.platform}\0${env.PATH ?? ''}`;
  if (cached?.key === key) return cached.support;
  const support = probe(env);
  cached = { key, support };
  return support;
}

function probe(env: NodeJS.ProcessEnv): SandboxSupport {
  if (process.platform === 'darwin') {
    if (existsSync(SANDBOX_EXEC)) return { ok: true, kind: 'sandbox-exec', detail: SANDBOX_EXEC };
    return { ok: false, reason: `${SANDBOX_EXEC} is missing`, fix: 'sandbox-exec ships with macOS; reinstall the command line tools or run the relay as its own OS user' };
  }
  if (process.platform !== 'linux') {
    return { ok: false, reason: `no sandbox is supported on ${process.platform}`, fix: 'run the relay as its own OS user so agents cannot read its data dir' };
  }
  const bwrap = onPath('bwrap', env);
  if (!bwrap) return { ok: false, reason: 'bubblewrap (bwrap) is not on PATH', fix: 'apt-get install bubblewrap (or dnf install bubblewrap)' };
  const run = spawnSync(bwrap, ['--ro-bind', '/', '/', '--unshare-pid', '--proc', '/proc', 'true'], { encoding: 'utf8', timeout: 10_000, env });
  if (run.status === 0) return { ok: true, kind: 'bwrap', detail: bwrap };
  const stderr = (run.stderr ?? '').trim() || (run.error ? run.error.message : `exit ${run.status}`);
  return { ok: false, reason: `bwrap cannot start a sandbox: ${stderr}`, fix: userNamespaceFix() };
}

function userNamespaceFix(): string {
  const read = (path: string): string | undefined => { try { return readFileSync(path, 'utf8').trim(); } catch { return undefined; } };
  if (read('/proc/sys/kernel/unprivileged_userns_clone') === '0') {
    return 'user namespaces are disabled: sysctl kernel.unprivileged_userns_clone=1';
  }
  if (read('/proc/sys/kernel/apparmor_restrict_unprivileged_userns') === '1') {
    return 'AppArmor blocks unprivileged user namespaces: sysctl kernel.apparmor_restrict_unprivileged_userns=0 (or add an AppArmor profile for bwrap)';
  }
  if (read('/proc/sys/user/max_user_namespaces') === '0') {
    return 'user namespaces are disabled: sysctl user.max_user_namespaces=15000';
  }
  return 'allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1) or, in a container, run it with --security-opt seccomp=unconfined';
}
