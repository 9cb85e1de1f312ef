// SUITE-5: Playwright runs without the service worker unless a spec asks for it, and every spec
// that touches the worker (push, offline, updates, the worker's own behaviour) asks for it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../playwright.config';

const e2e = path.resolve(__dirname, '..', 'e2e');
/** What only works with a service worker: its API, push through the worker, offline, the worker's own helpers. */
const NEEDS_WORKER = /navigator\.serviceWorker|controlledByWorker|from '\.\/notifications'|setOffline\(|\.serviceWorkers\(\)/;
const OPTS_IN = /test\.use\(\{[^}]*serviceWorkers: 'allow'/;

describe('SUITE-5: the service worker only where a spec needs it', () => {
  it('SUITE-5: the default is no service worker, and every spec that needs one opts in', () => {
    expect(config.use?.serviceWorkers).toBe('block');
    for (const project of config.projects ?? []) expect(project.use?.serviceWorkers ?? 'block').toBe('block');
    const specs = fs.readdirSync(e2e).filter((f) => f.endsWith('.spec.ts'));
    expect(specs.length).toBeGreaterThan(20);
    const missing = specs.filter((f) => {
      const text = fs.readFileSync(path.join(e2e, f), 'utf8');
      return NEEDS_WORKER.test(text) && !OPTS_IN.test(text);
    });
    expect(missing, `specs that use the service worker without test.use({ serviceWorkers: 'allow' })`).toEqual([]);
    // The specs about the worker itself are among those that opt in.
    for (const f of ['first-load.spec.ts', 'offline.spec.ts', 'update.spec.ts', 'push.spec.ts']) {
      expect(OPTS_IN.test(fs.readFileSync(path.join(e2e, f), 'utf8')), f).toBe(true);
    }
  });
});
