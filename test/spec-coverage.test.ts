// Every rule id in the spec is proved by at least one test whose title starts
// with (or names) that id — the spec and the suite cannot drift apart.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '..');

function files(dir: string, match: (f: string) => boolean, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name.startsWith('.') || e.name === 'dist' || e.name === 'out') continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) files(p, match, out);
    else if (match(e.name)) out.push(p);
  }
  return out;
}

function specText(): string {
  const parts = [join(root, 'protocol', 'SPEC.md'), ...files(join(root, 'protocol', 'spec'), (f) => f.endsWith('.md'))];
  return parts.filter(existsSync).map((p) => readFileSync(p, 'utf8')).join('\n');
}

export function ruleIds(spec: string): string[] {
  return [...new Set([...spec.matchAll(/\*\*([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*-\d+)\*\*/g)].map((m) => m[1]))];
}

describe('spec coverage', () => {
  it('SPEC-1: every rule id in protocol/SPEC.md is named by a test', () => {
    const ids = ruleIds(specText());
    expect(ids.length).toBeGreaterThan(0);
    const tests = files(root, (f) => /\.(test|spec)\.tsx?$/.test(f)).map((p) => readFileSync(p, 'utf8')).join('\n');
    const missing = ids.filter((id) => !new RegExp(`['"\`]${id}\\b`).test(tests) && !new RegExp(`\\b${id}[:,/ ]`).test(tests));
    expect(missing, `rules without a test: ${missing.join(', ')}`).toEqual([]);
  });

  it('SPEC-1: each rule id is defined once, so a test that names it proves one rule', () => {
    const defined = [...specText().matchAll(/^\s*- \*\*([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*-\d+)\*\*/gm)].map((m) => m[1]!);
    const twice = [...new Set(defined.filter((id, k) => defined.indexOf(id) !== k))];
    expect(twice, `rule ids defined more than once: ${twice.join(', ')}`).toEqual([]);
  });
});
