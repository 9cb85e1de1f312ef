// Reference paths: what a commander may operate on, and the hostile inputs it refuses.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeFixture, settled, untilState, type Fixture } from './helpers';

let fx: Fixture;
beforeEach(() => {
  fx = makeFixture();
});
afterEach(async () => {
  await fx.cleanup();
});

const refused = (fn: () => unknown) => expect(fn).toThrow(expect.objectContaining({ code: 'E_BAD_PATH' }));

describe('reference paths', () => {
  it('CMDR-REF-1: a reference must be an existing directory inside an allowed root; .., relative, files and symlinks out are refused', () => {
    const outside = path.join(fx.tmp, 'outside');
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(fx.root, 'file.txt'), 'x');
    fs.symlinkSync(outside, path.join(fx.root, 'escape'));
    fs.symlinkSync('/etc', path.join(fx.root, 'etc-link'));
    refused(() => fx.commanders.create('x', `${fx.root}/memos/../../outside`));
    refused(() => fx.commanders.create('x', `${fx.root}/..`));
    refused(() => fx.commanders.create('x', 'memos'));
    refused(() => fx.commanders.create('x', outside));
    refused(() => fx.commanders.create('x', path.join(fx.root, 'escape')));
    refused(() => fx.commanders.create('x', path.join(fx.root, 'etc-link')));
    refused(() => fx.commanders.create('x', path.join(fx.root, 'file.txt')));
    refused(() => fx.commanders.create('x', path.join(fx.root, 'missing')));
    refused(() => fx.commanders.create('x', `${fx.root}-sibling`));
    refused(() => fx.commanders.create('x', `${fx.root}/memos\n/etc`));
    // Nothing was created by any refused start.
    expect(fs.readdirSync(path.join(fx.dataDir, 'commanders'))).toEqual([]);
  });

  it('CMDR-REF-1: a symlink that stays inside the root is recorded as its real path', async () => {
    fs.symlinkSync(path.join(fx.root, 'memos'), path.join(fx.root, 'alias'));
    const v = fx.commanders.create('x', path.join(fx.root, 'alias'));
    expect(v.referencePaths).toEqual([path.join(fx.root, 'memos')]);
    await untilState(fx.commanders, v.id, settled);
  });

  it('CMDR-ID-1: a name is never a path: "../../etc" lands in a c-<id> directory under commanders/', async () => {
    const v = fx.commanders.create('../../etc', path.join(fx.root, 'memos'));
    expect(fs.readdirSync(path.join(fx.dataDir, 'commanders'))).toEqual([v.id]);
    expect(v.name).toBe('../../etc');
    expect(() => fx.commanders.create('two\nlines', path.join(fx.root, 'memos'))).toThrow(expect.objectContaining({ code: 'E_BAD_FRAME' }));
    await untilState(fx.commanders, v.id, settled);
  });

  it('CMDR-REF-2: addReference extends the list and CLAUDE.md; a bad one changes nothing', async () => {
    fs.mkdirSync(path.join(fx.root, 'scans'));
    const v = fx.commanders.create('x', path.join(fx.root, 'memos'));
    await untilState(fx.commanders, v.id, settled);
    const after = fx.commanders.addReference(v.id, path.join(fx.root, 'scans'));
    expect(after.referencePaths).toEqual([path.join(fx.root, 'memos'), path.join(fx.root, 'scans')]);
    const doc = fs.readFileSync(path.join(fx.dataDir, 'commanders', v.id, 'CLAUDE.md'), 'utf8');
    expect(doc).toContain(`- ${path.join(fx.root, 'memos')}\n- ${path.join(fx.root, 'scans')}\n`);
    refused(() => fx.commanders.addReference(v.id, '/etc'));
    expect(fx.commanders.get(v.id).referencePaths).toHaveLength(2);
  });

  it('CMDR-REF-3: paths the commander writes under "## Reference paths" in its CLAUDE.md are picked up after its turn, validated', async () => {
    fs.mkdirSync(path.join(fx.root, 'mail'));
    const v = fx.commanders.create('x', path.join(fx.root, 'memos'));
    await untilState(fx.commanders, v.id, settled);
    const file = path.join(fx.dataDir, 'commanders', v.id, 'CLAUDE.md');
    const doc = fs.readFileSync(file, 'utf8').replace(
      `- ${path.join(fx.root, 'memos')}\n`,
      `- ${path.join(fx.root, 'memos')}\n- \`${path.join(fx.root, 'mail')}\` — the mailbox\n- /etc\n- ${fx.root}/memos/../../\n`,
    );
    fs.writeFileSync(file, doc);
    fx.commanders.message(v.id, 'next');
    const after = await untilState(fx.commanders, v.id, (c) => c.referencePaths.length === 2);
    expect(after.referencePaths).toEqual([path.join(fx.root, 'memos'), path.join(fx.root, 'mail')]);
  });
});
