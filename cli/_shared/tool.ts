// How every bin tool starts and ends: argv in, exit code out, errors printed once
// as `<tool>: <E_CODE>: <sentence>`. Usage errors exit 2, runtime errors exit 1.
import { BusError } from '../../bus/errors';

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Argument errors that the library reports (bad id, bad note) are usage errors too. */
const ARGUMENT_CODES = new Set(['E_BAD_ID', 'E_BAD_NOTE', 'E_BAD_ARGS', 'E_BAD_PATH']);

/**
 * `--help` or `-h` anywhere before a `--` (CLIHELP-1): on a command or on one of its verbs
 * (`commandr commanders start --help`). After `--` the words belong to something else.
 */
export function wantsHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

export function runTool(name: string, usage: string, main: (args: string[]) => Promise<number> | number): void {
  const args = process.argv.slice(2);
  if (wantsHelp(args)) {
    process.stdout.write(usage + '\n');
    return;
  }
  Promise.resolve()
    .then(() => main(args))
    .then(
      (code) => {
        process.exitCode = code;
      },
      (error: unknown) => {
        process.exitCode = report(name, usage, error);
      },
    );
}

/** Prints `error` once and returns the exit code it deserves. */
export function report(name: string, usage: string, error: unknown): number {
  if (error instanceof UsageError) {
    process.stderr.write(`${name}: E_BAD_ARGS: ${error.message}\n${usage}\n`);
    return 2;
  }
  if (error instanceof BusError) {
    process.stderr.write(`${name}: ${error.code}: ${error.message}\n`);
    return ARGUMENT_CODES.has(error.code) ? 2 : 1;
  }
  process.stderr.write(`${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return 1;
}

export const warnToStderr = (message: string): void => {
  process.stderr.write(message.endsWith('\n') ? message : message + '\n');
};
