// The checks file and the tool classifier as units (CHECKS-n, LIVE-EMIT-n): parsing,
// wholesale local replacement, generic pass/fail judging, kinds for each vendor's tools.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checksFilePath, judgeCheck, judgeOutput, loadChecks, parseChecks } from '../../adapters/lib/checks';
import { classifyCommand, classifyTool } from '../../adapters/lib/classify';
import { cleanup, makeHome, ROOT } from './harness';

afterAll(cleanup);

describe('checks file', () => {
  it('CHECKS-3: lines are `<label>: <regex>`; comments and blanks skipped; bad lines reported, not fatal', () => {
    const parsed = parseChecks('# c\n\ntests: ^npm test\nbroken line\nbad: ([\nlint: ^eslint\\b\n', 'f');
    expect(parsed.checks.map((c) => c.label)).toEqual(['tests', 'lint']);
    expect(parsed.problems).toHaveLength(2);
    expect(parsed.problems[0]).toContain('f:4');
  });

  it('CHECKS-2: the shipped default is used until $COMMANDR_HOME/checks exists, which then replaces it wholesale', () => {
    const { commandrHome } = makeHome();
    expect(checksFilePath({ COMMANDR_HOME: commandrHome })).toBe(path.join(ROOT, 'adapters', 'checks.default'));
    expect(loadChecks({ COMMANDR_HOME: commandrHome }).checks.map((c) => c.label)).toContain('tests');
    fs.writeFileSync(path.join(commandrHome, 'checks'), 'unit: ^python3 -m unittest\n');
    expect(loadChecks({ COMMANDR_HOME: commandrHome }).checks.map((c) => c.label)).toEqual(['unit']);
  });

  it('CHECKS-4: pass/fail comes from the exit status when known, else from counted results or verdict lines', () => {
    expect(judgeCheck(0, 'whatever')).toBe(true);
    expect(judgeCheck(1, '12 passed')).toBe(false);
    expect(judgeOutput('12 passed, 0 failed')).toBe(true);
    expect(judgeOutput('Tests: 1 failed, 3 passed, 4 total')).toBe(false);
    expect(judgeOutput('Ran 5 tests in 0.1s\n\nOK\n')).toBe(true);
    expect(judgeOutput('Ran 5 tests\n\nFAILED (failures=2)\n')).toBe(false);
    expect(judgeOutput('== 3 passed, 1 error in 0.2s ==')).toBe(false);
    expect(judgeOutput('compiling…')).toBeUndefined();
  });
});

describe('classification', () => {
  const checks = parseChecks('tests: ^npm test\n').checks;
  it('LIVE-EMIT-3: shell commands are check, git, test or command; cd/env prefixes do not hide a check', () => {
    expect(classifyCommand('npm test', checks)).toMatchObject({ kind: 'check', label: 'tests' });
    expect(classifyCommand('cd app && CI=1 npm test -- --watch=false', checks)).toMatchObject({ kind: 'check', label: 'tests' });
    expect(classifyCommand('git commit -m x', checks).kind).toBe('git');
    expect(classifyCommand('gh pr view 3', checks).kind).toBe('git');
    expect(classifyCommand('pytest -q', checks).kind).toBe('test');
    expect(classifyCommand('ls -la', checks).kind).toBe('command');
  });

  it('LIVE-EMIT-4: tools of both vendors map to edit/read/search/web/plan/subagent/other with the file they touch', () => {
    expect(classifyTool({ tool: 'Edit', input: { file_path: '/r/a.ts' } }, checks)).toMatchObject({ kind: 'edit', file: '/r/a.ts' });
    expect(classifyTool({ tool: 'write', input: { filePath: '/r/b.ts' } }, checks)).toMatchObject({ kind: 'edit', file: '/r/b.ts' });
    expect(classifyTool({ tool: 'Read', input: { file_path: '/r/a.ts' } }, checks).kind).toBe('read');
    expect(classifyTool({ tool: 'Grep', input: { pattern: 'x' } }, checks).kind).toBe('search');
    expect(classifyTool({ tool: 'glob', input: { pattern: '*.ts' } }, checks).kind).toBe('search');
    expect(classifyTool({ tool: 'WebFetch', input: { url: 'https://x' } }, checks).kind).toBe('web');
    expect(classifyTool({ tool: 'TodoWrite', input: {} }, checks).kind).toBe('plan');
    expect(classifyTool({ tool: 'Task', input: { description: 'explore' } }, checks).kind).toBe('subagent');
    expect(classifyTool({ tool: 'mcp__x__y', input: {} }, checks).kind).toBe('other');
    expect(classifyTool({ tool: 'bash', input: { command: 'npm test' } }, checks).kind).toBe('check');
  });
});
