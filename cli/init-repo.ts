// What `commandr init` does to a repo, apart from printing it: the bus and its git hooks
// (bus/init.ts), the registry entry, and Claude Code's sandbox settings unless refused
// (SBXDEF-1). Shared by cli/commandr.ts and the browser suite's fixture (e2e/fixtures.ts),
// which makes a repo this way in-process for every test instead of starting the bin.
import * as path from 'node:path';
import { initRepo, type InitReport } from '../bus/init';
import { publicKeyFile } from '../bus/approval/keys';
import { writeSandboxSettings } from '../policy/sandbox';

export interface InitCommandOptions {
  /** The install's bin/ (the gate and commandr the hooks call). */
  binDir: string;
  registryFile: string;
  /** The data dir whose approval key the repo trusts and the sandbox keeps out of reach. */
  dataDir: string;
  sandbox: boolean;
}

/** Runs init on `repo`; `sandbox` says whether the sandbox settings were written ('wrote'), already there ('kept') or not asked for. */
export function initCommandRepo(repo: string, o: InitCommandOptions): { report: InitReport; sandbox?: 'wrote' | 'kept' } {
  const report = initRepo(repo, {
    gateBin: path.join(o.binDir, 'pre-commit-gate'), commandrBin: path.join(o.binDir, 'commandr'),
    registryFile: o.registryFile, approvalKeyFile: publicKeyFile(o.dataDir),
  });
  if (!o.sandbox) return { report };
  return { report, sandbox: writeSandboxSettings(report.root, { dataDir: o.dataDir, publicKey: publicKeyFile(o.dataDir) }) ? 'wrote' : 'kept' };
}
