// SERVE-3: the relay's data dir holds the credentials the hooks trust, so the relay keeps it its
// own: made 0700, an existing loose one tightened (and said so), one owned by someone else refused.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../relay/options';
import { cleanup, startRelay, tempDir } from './setup';

afterEach(cleanup);

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, info: () => undefined, warn: (m) => warnings.push(m), error: () => undefined };
}

describe('the data dir', () => {
  it('SERVE-3: a missing data dir is made 0700; an existing one that group or others can reach is made 0700, with one warning naming it', async () => {
    const made = path.join(tempDir(), 'fresh');
    await startRelay({ dataDir: made });
    expect(fs.statSync(made).mode & 0o777).toBe(0o700);

    const loose = path.join(tempDir(), 'loose');
    fs.mkdirSync(loose);
    fs.chmodSync(loose, 0o775);
    const logger = recordingLogger();
    const relay = await startRelay({ dataDir: loose, logger });
    expect(fs.statSync(loose).mode & 0o777).toBe(0o700);
    expect(logger.warnings).toEqual([expect.stringMatching(new RegExp(`data dir ${loose} was mode 0775; made 0700`))]);
    // The next start finds nothing to say.
    const again = recordingLogger();
    await relay.close();
    await startRelay({ dataDir: loose, logger: again });
    expect(again.warnings).toEqual([]);
  });

  it.skipIf(process.getuid?.() !== 0)('SERVE-3: a data dir another user owns is refused, naming it and its owner, and nothing is written into it', async () => {
    const foreign = path.join(tempDir(), 'foreign');
    fs.mkdirSync(foreign, { mode: 0o700 });
    fs.chownSync(foreign, 65534, 65534);
    await expect(startRelay({ dataDir: foreign })).rejects.toThrow(new RegExp(`data dir ${foreign} belongs to uid 65534, not to the user the relay runs as \\(uid 0\\)`));
    expect(fs.readdirSync(foreign)).toEqual([]);
    expect(fs.statSync(foreign).mode & 0o777).toBe(0o700);
  });
});
