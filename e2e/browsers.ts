// Which Chromium runs the browser suite (SUITE-6). Both are Debian's build of the same Chromium
// (`apt-get install chromium chromium-headless-shell`): the headless shell is its engine without
// the browser around it — the same Blink, V8, service workers, IndexedDB and WebCrypto — and
// costs the suite 42% less CPU (measured: the first-load and Inbox specs, 25 tests, 141 → 82 s of
// CPU and 79 → 54 s on 2 cores). It has no notification or push service, so the specs about push
// notifications run in the full browser, the one people install the app in.
import { existsSync } from 'node:fs';

const ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run',
];

const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
/** The full browser: CHROMIUM_PATH, else Debian's. */
export const FULL_CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The suite's default: CHROMIUM_SHELL_PATH, else Debian's headless shell when installed, else the full browser. */
export const SUITE_CHROMIUM = process.env.CHROMIUM_SHELL_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_CHROMIUM);

/** Launch options for the suite's default browser, with `extra` switches. */
export const launchOptions = (extra: string[] = []) => ({ executablePath: SUITE_CHROMIUM, args: [...ARGS, ...extra] });

/** For the specs about push notifications: `test.use(fullBrowser)`. */
export const fullBrowser = { launchOptions: { executablePath: FULL_CHROMIUM, args: ARGS } };

/**
 * What a test records (SUITE-7): nothing unless COMMANDR_TEST_TRACE=1, which keeps a failed test's
 * trace. Recording costs about a quarter of the browser suite's CPU even when a passing test's trace
 * is thrown away (screencast frames and a DOM snapshot at every action: 9 task specs took 48 s of CPU
 * traced, 36.5 s not). A failure still leaves its page snapshot (error-context.md) and a screenshot.
 */
export function traceMode(env: Record<string, string | undefined> = process.env): 'off' | 'retain-on-failure' {
  const value = env.COMMANDR_TEST_TRACE;
  if (value === undefined || value === '' || value === '0') return 'off';
  if (value === '1') return 'retain-on-failure';
  throw new Error(`COMMANDR_TEST_TRACE must be 1 (keep a failed test's trace) or 0, not ${JSON.stringify(value)}`);
}
