// Runs a bash script inside the real sandbox for a spec and never throws: the exit code and both
// streams come back, so a test can pair each refusal with the same command outside succeeding.
// Async, so servers in the test's own process keep answering.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { sandboxArgv, type SandboxSpec } from '../../adapters/sandbox';

const run = promisify(execFile);

export interface Ran { code: number; stdout: string; stderr: string }

export async function runInside(spec: SandboxSpec, script: string, env: Record<string, string> = {}): Promise<Ran> {
  const box = sandboxArgv(spec, 'bash', ['-c', script]);
  try {
    const { stdout, stderr } = await run(box.command, box.args, { cwd: spec.cwd, env: { ...process.env, ...env, ...box.env }, timeout: 20_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}
