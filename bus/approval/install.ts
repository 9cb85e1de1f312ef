// `commandr verify --install <repo>` (RVERIFY-4): makes a server repo guarded. It copies
// the trusted public keys (and allowed signers) into `<git dir>/commandr/`, records every
// ref's commit as the baseline of the verified set, and only then writes `pre-receive`,
// so the hook never runs without the state it needs.
import { gitSync } from '../git/run';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BusError, errnoOf, ioError } from '../errors';
import { writeFileAtomic } from '../fs-atomic';
import { describeObjects, gitRun } from './git';
import { readVerifyingKey } from './keys';
import { appendVerified, keysDir, readVerified, signersFile } from './verified-set';

export const GUARD_MARKER = '# commandr-verify-guard';

export interface InstallOptions {
  /** Absolute path of this install's `bin/commandr`; the hook falls back to `commandr` on PATH when it is gone. */
  bin: string;
  /** The node that runs it (this process's), tried first so a server's hook PATH need not hold node. */
  node: string;
  keyFiles: string[];
  signers?: string;
}

export interface Installed { gitDir: string; hook: string; keys: string[]; signers?: string; baseline: number }

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

export function guardHookScript(bin: string, node: string): string {
  return [
    '#!/bin/sh',
    `${GUARD_MARKER}: installed by \`commandr verify --install\`; refuses a push that makes any commit without a valid approval reachable.`,
    `node=${shellQuote(node)}`,
    `commandr=${shellQuote(bin)}`,
    'if [ -f "$commandr" ]; then',
    '  if [ -x "$node" ]; then exec "$node" "$commandr" verify --pre-receive; fi',
    '  exec "$commandr" verify --pre-receive',
    'fi',
    'if command -v commandr >/dev/null 2>&1; then exec commandr verify --pre-receive; fi',
    'echo "commandr verify: neither $commandr nor commandr on PATH; push refused" >&2',
    'exit 1',
    '',
  ].join('\n');
}

export async function installGuard(repo: string, options: InstallOptions): Promise<Installed> {
  if (options.keyFiles.length === 0) throw new BusError('E_NOT_FOUND', 'no trusted key: pass --key <relay public.pem>');
  const keys = options.keyFiles.map(readVerifyingKey); // each file checked before anything is written
  const signerText = options.signers === undefined ? undefined : readSigners(options.signers);
  let gitDir: string;
  let hooks: string;
  try {
    gitDir = (await gitRun(repo, ['rev-parse', '--absolute-git-dir'])).toString('utf8').trim();
    // Not hardened: the question is where this repo's own core.hooksPath points (rev-parse runs no hook).
    hooks = path.resolve(repo, gitSync(['rev-parse', '--git-path', 'hooks'], { cwd: repo, env: process.env }).toString('utf8').trim());
  } catch (error) {
    throw new BusError('E_NO_REPO', `${repo} is not a git repository`, { cause: error });
  }
  const hook = path.join(hooks, 'pre-receive');
  assertOurs(hook);
  fs.mkdirSync(keysDir(gitDir), { recursive: true });
  const written = keys.map((k) => {
    const file = path.join(keysDir(gitDir), `${k.keyId.replace(/^ed25519:/, '')}.pem`);
    writeFileAtomic(file, fs.readFileSync(k.file!, 'utf8'), 0o644);
    return file;
  });
  if (signerText !== undefined) writeFileAtomic(signersFile(gitDir), signerText, 0o644);
  const baseline = await refCommits(gitDir);
  const before = new Set(readVerified(gitDir) ?? []);
  appendVerified(gitDir, baseline.filter((c) => !before.has(c)), true);
  fs.mkdirSync(hooks, { recursive: true });
  writeFileAtomic(hook, guardHookScript(options.bin, options.node), 0o755);
  return { gitDir, hook, keys: written, ...(signerText !== undefined ? { signers: signersFile(gitDir) } : {}), baseline: baseline.length };
}

/** The commit every ref (any namespace) peels to; refs to trees or blobs have none. */
async function refCommits(gitDir: string): Promise<string[]> {
  const oids = (await gitRun(gitDir, ['for-each-ref', '--format=%(objectname)'])).toString('utf8').split('\n').filter((l) => l !== '');
  const facts = await describeObjects(gitDir, [...new Set(oids)]);
  return [...new Set(facts.map((f) => f.commit).filter((c): c is string => c !== undefined))];
}

function readSigners(file: string): string {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw ioError('read the allowed signers file', file, error);
  }
  if (!text.split('\n').some((l) => l.trim() !== '' && !l.trim().startsWith('#'))) throw new BusError('E_BAD_ARGS', `${file} names no signer (git's allowed signers format: "<email> <key type> <key>")`);
  return text;
}

function assertOurs(hook: string): void {
  let text: string;
  try {
    text = fs.readFileSync(hook, 'utf8');
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return;
    throw ioError('read', hook, error);
  }
  if (!text.includes(GUARD_MARKER)) throw new BusError('E_HOOK_EXISTS', `${hook} already exists and is not commandr's; move it away and run \`commandr verify --install\` again`);
}

