// FIRST-4: the build puts V8's compile hint at the top of every script the exported
// pages load by themselves — and of nothing else. Real files in a temp dir, the
// build's own step.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs build script without types
import { COMPILE_HINT, addCompileHints, pageScripts } from '../../scripts/compile-hints.mjs';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function exported(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'commandr-hints-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const read = (dir: string, name: string) => fs.readFileSync(path.join(dir, name), 'utf8');

describe('compile hints (FIRST-4)', () => {
  it('FIRST-4: hints every script a page loads, once, and leaves lazy chunks and nomodule polyfills alone', () => {
    const dir = exported({
      'index.html': '<html><head><script src="/_next/static/chunks/main-1.js" async=""></script>'
        + '<script src="/_next/static/chunks/polyfills-2.js" noModule=""></script><script>self.__next_f=[]</script></head></html>',
      'pair.html': '<script src="/_next/static/chunks/main-1.js" async=""></script><script src="/_next/static/chunks/app/pair/page-3.js" async=""></script>',
      '_next/static/chunks/main-1.js': '(self.webpackChunk=[]).push(1)',
      '_next/static/chunks/polyfills-2.js': 'polyfills()',
      '_next/static/chunks/app/pair/page-3.js': 'page()',
      '_next/static/chunks/746.lazy.js': 'lazy()',
    });
    expect(addCompileHints(dir)).toBe(2);
    expect(read(dir, '_next/static/chunks/main-1.js')).toBe(`${COMPILE_HINT}(self.webpackChunk=[]).push(1)`);
    expect(read(dir, '_next/static/chunks/app/pair/page-3.js')).toBe(`${COMPILE_HINT}page()`);
    expect(read(dir, '_next/static/chunks/polyfills-2.js')).toBe('polyfills()');
    expect(read(dir, '_next/static/chunks/746.lazy.js')).toBe('lazy()');
    // A second build step over the same output adds nothing.
    expect(addCompileHints(dir)).toBe(0);
    expect(read(dir, '_next/static/chunks/main-1.js').split(COMPILE_HINT)).toHaveLength(2);
  });

  it('FIRST-4: a page naming a script that is not in the export fails the build with its name', () => {
    const dir = exported({ 'index.html': '<script src="/_next/static/chunks/gone-9.js" async=""></script>' });
    expect(() => addCompileHints(dir)).toThrow(/gone-9\.js/);
  });

  it('FIRST-4: only /_next/static scripts count; a src that climbs out of the export is refused', () => {
    expect(pageScripts('<script src="https://cdn.example/x.js"></script><script src="/_next/static/chunks/a.js"></script>')).toEqual(['/_next/static/chunks/a.js']);
    const dir = exported({ 'index.html': '<script src="/_next/static/../../../etc/passwd.js"></script>' });
    expect(() => addCompileHints(dir)).toThrow(/outside/);
  });

  it('FIRST-7: the client-core chunk, lazily imported but run as the app starts, is hinted too; other lazy chunks are not', () => {
    const dir = exported({
      'index.html': '<script src="/_next/static/chunks/main-1.js" async=""></script>',
      '_next/static/chunks/main-1.js': 'main()',
      '_next/static/chunks/client-core.0a1b2c3d.js': 'core()',
      '_next/static/chunks/746.lazy.js': 'lazy()',
    });
    expect(addCompileHints(dir)).toBe(2);
    expect(read(dir, '_next/static/chunks/client-core.0a1b2c3d.js')).toBe(`${COMPILE_HINT}core()`);
    expect(read(dir, '_next/static/chunks/746.lazy.js')).toBe('lazy()');
  });
});
