// How many worker processes the suites use (SUITE-4), read by vitest.config.mts and
// playwright.config.ts: vitest one file per core (the whole vitest suite keeps about one core
// busy with one worker), Playwright one browser (a test keeps more than one core busy).
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

/** Playwright's workers: COMMANDR_PLAYWRIGHT_WORKERS (1–8), else 1 (one browser at a time on a shared machine). */
export function playwrightWorkers(env: Env = process.env): number {
  return fromEnv('COMMANDR_PLAYWRIGHT_WORKERS', env.COMMANDR_PLAYWRIGHT_WORKERS, 8) ?? 1;
}

