// Definition-of-done checks (CHECKS-n): which commands count as checks is project
// knowledge kept in one `<label>: <command regex>` file, read fresh on each use.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Env, commandrHome, installRoot } from './env';

export interface Check {
  label: string;
  pattern: RegExp;
}

export interface ChecksFile {
  file: string;
  checks: Check[];
  /** Lines that could not be used, each with its reason. */
  problems: string[];
}

export const shippedChecksFile = (): string => path.join(installRoot(), 'adapters', 'checks.default');

/** `$COMMANDR_HOME/checks` when it exists (it replaces the default wholesale), else the shipped default. */
export function checksFilePath(env: Env = process.env): string {
  const local = path.join(commandrHome(env), 'checks');
  return fs.existsSync(local) ? local : shippedChecksFile();
}

export function parseChecks(text: string, file = '<checks>'): ChecksFile {
  const checks: Check[] = [];
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const colon = line.indexOf(':');
    const label = colon > 0 ? line.slice(0, colon).trim() : '';
    const source = colon > 0 ? line.slice(colon + 1).trim() : '';
    if (!label || !source) {
      problems.push(`${file}:${index + 1}: expected "<label>: <command regex>"`);
      return;
    }
    try {
      checks.push({ label, pattern: new RegExp(source) });
    } catch (error) {
      problems.push(`${file}:${index + 1}: bad regex for ${label}: ${(error as Error).message}`);
    }
  });
  return { file, checks, problems };
}

/** Reads the resolved checks file; a missing or unreadable file means no checks. */
export function loadChecks(env: Env = process.env): ChecksFile {
  const file = checksFilePath(env);
  try {
    return parseChecks(fs.readFileSync(file, 'utf8'), file);
  } catch (error) {
    return { file, checks: [], problems: [`${file}: ${(error as Error).message}`] };
  }
}

/** The first check whose regex matches the command (leading `cd … &&` and env assignments ignored). */
export function matchCheck(command: string, checks: Check[]): Check | undefined {
  const candidates = [command.trim(), ...commandSegments(command)];
  for (const check of checks) if (candidates.some((c) => check.pattern.test(c))) return check;
  return undefined;
}

/** The simple commands of a `a && b ; c` line, without leading `VAR=value` assignments. */
export function commandSegments(command: string): string[] {
  return command
    .split(/&&|\|\||;|\n/)
    .map((part) => part.trim().replace(/^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)+/, ''))
    .filter((part) => part.length > 0);
}

/**
 * Pass/fail judged from a check's output when no exit status is known: counted results
 * (`12 passed, 0 failed`, `Tests: 1 failed`), then verdict lines (`OK`, `FAILED (…)`).
 * Undefined when the output says neither.
 */
export function judgeOutput(output: string): boolean | undefined {
  const failed = sumCounts(output, /(\d+)\s+(?:failed|failing|failures?|errors?)\b/gi);
  const passed = sumCounts(output, /(\d+)\s+(?:passed|passing|succeeded|ok)\b/gi);
  if (failed !== undefined && failed > 0) return false;
  if (/^\s*(?:FAILED|FAIL|ERROR)\b/m.test(output)) return false;
  if (passed !== undefined && passed > 0) return true;
  if (/^\s*(?:OK|PASS|PASSED)\b/m.test(output)) return true;
  if (failed === 0 && passed === 0) return undefined;
  return undefined;
}

function sumCounts(text: string, pattern: RegExp): number | undefined {
  let total: number | undefined;
  for (const match of text.matchAll(pattern)) total = (total ?? 0) + Number(match[1]);
  return total;
}

/** `ok` from the exit status when known, else from the output. */
export function judgeCheck(exitStatus: number | undefined, output: string): boolean | undefined {
  if (exitStatus !== undefined) return exitStatus === 0;
  return judgeOutput(output);
}
