// The committed screenshots match the script that makes them (UX-13): every screen it
// lists is there in light and dark and at 200 % text, and nothing stale is left.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '..');

describe('docs/screenshots', () => {
  it('UX-13: every screen of scripts/screenshots.ts is committed light, dark and at 200 % text, and no other picture', () => {
    const script = readFileSync(path.join(ROOT, 'scripts', 'screenshots.ts'), 'utf8');
    const screens = [...script.matchAll(/\{ name: '([a-z-]+)'/g), ...script.matchAll(/^\s+name: '([a-z-]+)',$/gm)].map((m) => m[1]!);
    expect(screens.length).toBeGreaterThanOrEqual(10);
    const expected = [...screens, 'pair'].flatMap((s) => [`${s}-light.png`, `${s}-dark.png`, `${s}-200-light.png`]).sort();
    expect(readdirSync(path.join(ROOT, 'docs', 'screenshots')).filter((f) => f.endsWith('.png')).sort()).toEqual(expected);
  });
});
