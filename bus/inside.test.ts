import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assertInsideBus, ensureBusDir } from './inside';

const made: string[] = [];
afterEach(() => { for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true }); });

/** `<tmp>/repo/.agents` and a sibling `<tmp>/repo/.agents-x` whose name shares the bus's prefix. */
function bus(): { bus: string; sibling: string } {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'inside-')));
  made.push(tmp);
  const b = path.join(tmp, 'repo', '.agents');
  fs.mkdirSync(b, { recursive: true });
  const sibling = path.join(tmp, 'repo', '.agents-x');
  fs.mkdirSync(sibling);
  return { bus: b, sibling };
}

describe('bus directories by real path', () => {
  it('ID-SAFE-4: ensureBusDir makes each level inside the bus, and refuses a link to a sibling whose name merely starts like the bus', () => {
    const { bus: b, sibling } = bus();
    ensureBusDir(b, path.join(b, 'annotations', 'T-1'));
    expect(fs.statSync(path.join(b, 'annotations', 'T-1')).isDirectory()).toBe(true);
    ensureBusDir(b, b);
    assertInsideBus(b, path.join(b, 'annotations'));
    fs.symlinkSync('../.agents-x', path.join(b, 'council'));
    expect(() => ensureBusDir(b, path.join(b, 'council'))).toThrow(expect.objectContaining({ code: 'E_BAD_PATH', message: expect.stringContaining('leads outside the bus') }));
    expect(() => assertInsideBus(b, path.join(b, 'council'))).toThrow(expect.objectContaining({ code: 'E_BAD_PATH' }));
    expect(fs.readdirSync(sibling)).toEqual([]);
    expect(() => ensureBusDir(b, path.join(b, '..', 'elsewhere'))).toThrow(expect.objectContaining({ code: 'E_BAD_PATH' }));
    expect(fs.existsSync(path.join(b, '..', 'elsewhere'))).toBe(false);
  });
});
