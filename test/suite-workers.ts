// How many worker processes the suites use (SUITE-4), read by vitest.config.mts and
// playwright.config.ts: one vitest file and one Playwright browser per core (a vitest file keeps
// about one core busy on average; a Playwright test waits on its relay and page much of its time).
import { availableParallelism } from 'node:os';

type Env = Record<string, string | undefined>;

function fromEnv(name: string, value: string | undefined, max: number): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max) {
    throw new Error(`${name} must be a whole number of workers from 1 to ${max}, not ${JSON.stringify(value)}`);
  }
  return Number(value);
}

/**
 * vitest's workers: COMMANDR_VITEST_WORKERS (1–16), else one per core (at most 8). Measured on 2 cores,
 * vitest alone: 1 worker 1,239 s (the second core mostly idle: 1,270 s of CPU), 2 workers 828 s (1,497 s of CPU).
 * (cores + 1 beside two browsers was tried on 2 cores: real-CLI tests then ran past their hang
 * bounds, so the default stays what the suite is proven on; more is a choice for bigger machines.)
 */
export function vitestWorkers(env: Env = process.env, cores = availableParallelism()): number {
  return fromEnv('COMMANDR_VITEST_WORKERS', env.COMMANDR_VITEST_WORKERS, 16) ?? Math.min(8, Math.max(1, cores));
}

/**
 * Playwright's workers: COMMANDR_PLAYWRIGHT_WORKERS (1–8), else one per core (at most 4). Measured on 2
 * cores, Playwright alone: 1 worker 1,084 s (CI), 2 workers 781 s. Beside vitest (COMMANDR_TEST_TOGETHER)
 * `npm test` gives it 1 unless the variable is set: two browsers and two vitest files on 2 cores ran
 * real-CLI tests past their hang bounds.
 */
export function playwrightWorkers(env: Env = process.env, cores = availableParallelism()): number {
  return fromEnv('COMMANDR_PLAYWRIGHT_WORKERS', env.COMMANDR_PLAYWRIGHT_WORKERS, 8) ?? Math.min(4, Math.max(1, cores));
}

