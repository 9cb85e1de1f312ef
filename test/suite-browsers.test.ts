// SUITE-6: the browser suite runs in Debian's Chromium headless shell, and the specs about push
// notifications (which the shell has no service for) in the full browser.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../playwright.config';
import { FULL_CHROMIUM, SUITE_CHROMIUM } from '../e2e/browsers';

const e2e = path.resolve(__dirname, '..', 'e2e');
/** What needs the browser's notification and push service. */
const NEEDS_PUSH = /from '\.\/notifications'|pushManager|Notification\b|notifications-toggle/;
const FULL = /test\.use\(\{[^}]*\.\.\.fullBrowser/;

describe('SUITE-6: which Chromium runs which spec', () => {
  it('SUITE-6: every project runs the headless shell (when installed), and every spec about push notifications asks for the full browser', () => {
    if (fs.existsSync('/usr/bin/chromium-headless-shell') && !process.env.CHROMIUM_SHELL_PATH) expect(SUITE_CHROMIUM).toBe('/usr/bin/chromium-headless-shell');
    expect(FULL_CHROMIUM).not.toBe(SUITE_CHROMIUM);
    expect(config.use?.launchOptions?.executablePath).toBe(SUITE_CHROMIUM);
    for (const project of config.projects ?? []) expect(project.use?.launchOptions?.executablePath, project.name).toBe(SUITE_CHROMIUM);
    const specs = new Map(fs.readdirSync(e2e).filter((f) => f.endsWith('.spec.ts')).map((f) => [f, fs.readFileSync(path.join(e2e, f), 'utf8')]));
    const named = (test: RegExp) => [...specs].filter(([, text]) => test.test(text)).map(([f]) => f).sort();
    const push = named(NEEDS_PUSH);
    expect(push).toEqual(expect.arrayContaining(['push.spec.ts', 'mcp-push.spec.ts', 'permissions.spec.ts', 'settings.spec.ts']));
    const missing = push.filter((f) => !FULL.test(specs.get(f)!));
    expect(missing, 'specs about push notifications without test.use({ ...fullBrowser })').toEqual([]);
    // Only they pay for the full browser.
    expect(named(FULL)).toEqual(push);
  });
});
