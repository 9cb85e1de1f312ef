// The shared shape of a `wire` run: parse `<project-root> [--dry-run]`, print one
// report line per file (ok / fixed / would fix), exit 0 on ok or fixed (WIREUP-n).
import * as fs from 'node:fs';
import * as path from 'node:path';

export type WireStatus = 'ok' | 'fixed' | 'would fix';

export interface WireLine {
  file: string;
  status: WireStatus;
  detail?: string;
}

export class WireError extends Error {
  constructor(readonly code: 'E_USAGE' | 'E_BAD_SETTINGS' | 'E_NOT_DIR' | 'E_IO', message: string) {
    super(message);
    this.name = 'WireError';
  }
}

export interface WireArgs {
  root: string;
  dryRun: boolean;
}

export const WIRE_ADAPTER_USAGE = 'wire <project-root> [--dry-run]';

export function parseWireArgs(argv: string[]): WireArgs {
  const dryRun = argv.includes('--dry-run');
  const rest = argv.filter((a) => a !== '--dry-run');
  const unknown = rest.find((a) => a.startsWith('-'));
  if (unknown) throw new WireError('E_USAGE', `unknown option ${unknown}; usage: wire <project-root> [--dry-run]`);
  if (rest.length !== 1) throw new WireError('E_USAGE', 'usage: wire <project-root> [--dry-run]');
  const root = path.resolve(rest[0]!);
  let isDir = false;
  try { isDir = fs.statSync(root).isDirectory(); } catch { isDir = false; }
  if (!isDir) throw new WireError('E_NOT_DIR', `project root ${root} is not a directory`);
  return { root, dryRun };
}

/** A settings file's JSON object; undefined when there is no file, an empty file is `{}`; anything else is refused, naming the file. */
export function readJsonObject(file: string): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new WireError('E_IO', `cannot read ${file}: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch (error) {
    throw new WireError('E_BAD_SETTINGS', `${file} is not valid JSON (${(error as Error).message}); fix it and run wire again — nothing was changed`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new WireError('E_BAD_SETTINGS', `${file} must hold a JSON object; nothing was changed`);
  return value as Record<string, unknown>;
}

/** Writes `text` to `file` atomically (temp beside it + rename), creating parent dirs. */
export function writeAtomic(file: string, text: string, mode = 0o644): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    fs.writeFileSync(temp, text, { mode });
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw new WireError('E_IO', `cannot write ${file}: ${(error as Error).message}`);
  }
}

export const formatLine = (adapter: string, line: WireLine): string =>
  `wire: ${adapter}: ${line.file}: ${line.status}${line.detail ? ` (${line.detail})` : ''}`;

/** Entry-point wrapper: prints the report or one error line; returns the exit code. */
export function runWire(adapter: string, argv: string[], wire: (args: WireArgs) => WireLine[]): number {
  // CLIHELP-1: help, and nothing else, whatever else is on the line.
  if (argv.some((a) => a === '--help' || a === '-h')) {
    process.stdout.write(`usage: ${WIRE_ADAPTER_USAGE}\n  wires ${adapter} in the project so its sessions report to commandr; --dry-run says what it would change and changes nothing\n`);
    return 0;
  }
  try {
    const lines = wire(parseWireArgs(argv));
    for (const line of lines) process.stdout.write(formatLine(adapter, line) + '\n');
    return 0;
  } catch (error) {
    if (error instanceof WireError) {
      process.stderr.write(`wire: ${adapter}: ${error.code}: ${error.message}\n`);
      return error.code === 'E_USAGE' || error.code === 'E_NOT_DIR' ? 2 : 1;
    }
    process.stderr.write(`wire: ${adapter}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  }
}

/** Quotes a value for POSIX sh as one word. */
export const shQuote = (value: string): string => `'${value.replace(/'/g, `'\\''`)}'`;
