// Every PATH lookup of ours takes absolute directories only (onPath): a relative entry such as `.`
// names a directory of wherever the lookup runs — for a job, the checkout its agent writes — so a
// file there called `claude`, `bwrap`, `commandr` or `tailscale` is never what we run or report.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findBinary } from '../../adapters/lib/run-job';
import { commandrOnPath } from '../../adapters/mcp/wire';
import { sandboxSupport } from '../../adapters/sandbox/detect';
import { installRoot } from '../../adapters/lib/env';
import { detectTailscale } from '../../relay/reach';
import { tempDir } from './harness';

/** A directory holding an executable `name` for each of ours, by absolute path and relative to this process. */
function binDir(): { abs: string; rel: string } {
  const abs = tempDir('commandr-path-');
  const tailscale = JSON.stringify({ BackendState: 'Running', Self: { DNSName: 'box.tail.ts.net.' } });
  for (const name of ['claude', 'bwrap', 'commandr', 'tailscale']) {
    fs.writeFileSync(path.join(abs, name), name === 'tailscale' ? `#!/bin/sh\necho '${tailscale}'\n` : '#!/bin/sh\nexit 1\n', { mode: 0o755 });
  }
  const rel = path.relative(process.cwd(), abs);
  expect(path.isAbsolute(rel)).toBe(false);
  return { abs, rel };
}

/** Only PATH, as the environment the lookups are given. */
const only = (PATH: string) => ({ PATH }) as unknown as NodeJS.ProcessEnv;

describe('PATH lookups', () => {
  it('PATHLOOK-1: a file reached only through a relative PATH entry is never found; the same file by an absolute entry is', () => {
    const { abs, rel } = binDir();
    expect(findBinary('claude', undefined, only(rel))).toBe(path.join(installRoot(), 'node_modules', '.bin', 'claude'));
    expect(findBinary('claude', undefined, only(abs))).toBe(path.join(abs, 'claude'));
    expect(commandrOnPath(only(rel))).toBe(false);
    expect(commandrOnPath(only(abs))).toBe(true);
    expect(detectTailscale(only(rel))).toBeNull();
    expect(detectTailscale(only(abs))).toEqual({ dnsName: 'box.tail.ts.net', running: true });
    if (process.platform === 'linux') {
      const support = sandboxSupport(only(rel));
      expect(support.ok).toBe(false);
      expect(support.ok ? '' : support.reason).toMatch(/bwrap\) is not on PATH/);
    }
  });
});
