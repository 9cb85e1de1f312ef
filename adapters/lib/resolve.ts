// Adapter selection (ADAPTER-n): `COMMANDR_AGENT_ADAPTER` (default `claude`); a directory
// of the same name under `$COMMANDR_HOME/adapters/` with `run` and `wire` executables
// overrides the shipped one. Used by the relay's jobs/commanders and `commandr wire`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Env, commandrHome, installRoot } from './env';

export const DEFAULT_ADAPTER = 'claude';
const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export interface ResolvedAdapter {
  name: string;
  /** Absolute path of the `run` executable. */
  run: string;
  /** Absolute path of the `wire` executable. */
  wire: string;
  dir: string;
  source: 'local' | 'shipped';
}

export class AdapterError extends Error {
  constructor(readonly code: 'E_BAD_ADAPTER' | 'E_NO_ADAPTER', message: string) {
    super(message);
    this.name = 'AdapterError';
  }
}

const isExecutable = (file: string): boolean => {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
};

const complete = (dir: string): boolean => isExecutable(path.join(dir, 'run')) && isExecutable(path.join(dir, 'wire'));

export function shippedAdaptersDir(): string {
  return path.join(installRoot(), 'adapters');
}

export function localAdaptersDir(env: Env = process.env): string {
  return path.join(commandrHome(env), 'adapters');
}

export function resolveAdapter(name?: string, env: Env = process.env): ResolvedAdapter {
  const chosen = (name ?? env.COMMANDR_AGENT_ADAPTER ?? '').trim() || DEFAULT_ADAPTER;
  if (!NAME_PATTERN.test(chosen)) {
    throw new AdapterError('E_BAD_ADAPTER', `adapter name ${JSON.stringify(chosen)} is invalid: use letters, digits, _ and - only`);
  }
  const local = path.join(localAdaptersDir(env), chosen);
  const shipped = path.join(shippedAdaptersDir(), chosen);
  const dir = complete(local) ? local : complete(shipped) ? shipped : undefined;
  if (!dir) {
    throw new AdapterError(
      'E_NO_ADAPTER',
      `no adapter ${JSON.stringify(chosen)}: neither ${local} nor ${shipped} holds executable run and wire files`,
    );
  }
  return { name: chosen, run: path.join(dir, 'run'), wire: path.join(dir, 'wire'), dir, source: dir === local ? 'local' : 'shipped' };
}
