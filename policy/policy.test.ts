// The policy's decisions as a table, plus the layering of the three files.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { matchesGlob } from './glob';
import { loadPolicy, PolicyError } from './load';
import { evaluate, sessionCommand, type ToolRequest } from './policy';

const DEFAULT = path.join(__dirname, 'default-policy.yaml');
const dirs: string[] = [];
afterEach(() => { while (dirs.length) fs.rmSync(dirs.pop()!, { recursive: true, force: true }); });
const temp = () => { const d = fs.mkdtempSync(path.join(os.tmpdir(), 'commandr-policy-')); dirs.push(d); return d; };

const policy = loadPolicy({ defaultFile: DEFAULT });
const call = (tool: string, input: Record<string, unknown>, extra: Partial<ToolRequest> = {}) =>
  evaluate(policy, { tool, input, cwd: '/repo', scope: 'src/**', ...extra });

describe('policy evaluation', () => {
  it.each([
    ['Read', { file_path: '/repo/.git/config' }, 'ask', 'ask.read_paths'],
    ['Read', { file_path: '/repo/src/a.ts' }, 'allow', 'allow.tools'],
    ['Grep', { pattern: 'x' }, 'allow', 'allow.tools'],
    ['read', { filePath: '/repo/a' }, 'allow', 'allow.tools'],
    ['Bash', { command: 'git status && ls -la | wc -l' }, 'allow', 'allow.commands'],
    ['Bash', { command: 'touch made.txt' }, 'ask', 'allow.commands'],
    ['Bash', { command: 'echo hi > out.txt' }, 'ask', 'allow.commands'],
    ['Bash', { command: 'echo $(touch x)' }, 'ask', 'default'],
    ['Bash', { command: 'ls; curl https://example.com' }, 'ask', 'ask.commands'],
    ['Bash', { command: 'cat .agents/inbox/a.md' }, 'ask', 'ask.paths'],
    ['Bash', { command: 'git push --force origin main' }, 'deny', 'deny.commands'],
    ['WebFetch', { url: 'https://example.com' }, 'ask', 'ask.tools'],
    ['Edit', { file_path: '/repo/src/a.ts' }, 'allow', 'scope'],
    ['Write', { file_path: 'README.md' }, 'ask', 'scope'],
    ['Edit', { file_path: '/repo/.git/hooks/pre-commit' }, 'ask', 'ask.read_paths'],
    ['Edit', { file_path: '/repo/.git/info/attributes' }, 'ask', 'ask.paths'],
    ['Edit', { file_path: '/repo/.commandr/policy.yaml' }, 'ask', 'ask.paths'],
    ['Edit', { file_path: '/etc/passwd' }, 'ask', 'scope'],
    ['mcp__thing__do', {}, 'ask', 'default'],
  ])('POLICY-2: %s %j → %s by %s', (tool, input, decision, rule) => {
    const v = call(tool, input);
    expect({ decision: v.decision, rule: v.rule }).toEqual({ decision, rule });
    expect(v.why.length).toBeGreaterThan(5);
  });

  it('POLICY-3: with no task scope an edit needs a person', () => {
    expect(call('Edit', { file_path: '/repo/src/a.ts' }, { scope: undefined }).decision).toBe('ask');
  });

  it('POLICY-4: allow-for-session remembers the whole command, never a prefix', () => {
    expect(sessionCommand('touch a b')).toBe('touch a b');
    expect(sessionCommand('  git push origin main\n')).toBe('git push origin main');
    expect(sessionCommand('touch a && rm -rf b')).toBe('touch a && rm -rf b');
    expect(matchesGlob('src/x/y.ts', 'src/**')).toBe(true);
    expect(matchesGlob('docs/a.md', '{src,docs}/*.md')).toBe(true);
    expect(matchesGlob('srcx/a.ts', 'src')).toBe(false);
  });
});

describe('policy files', () => {
  it('POLICY-1: the user and project files add to the default; AGENT_COMMANDS adds prefixes; the env timeout wins', () => {
    const home = temp();
    const repo = temp();
    fs.writeFileSync(path.join(home, 'policy.yaml'), 'timeout: 30\nallow:\n  commands: [touch]\n');
    fs.mkdirSync(path.join(repo, '.commandr'));
    fs.writeFileSync(path.join(repo, '.commandr', 'policy.yaml'), 'deny:\n  commands: [touch secret]\n');
    const layered = loadPolicy({ defaultFile: DEFAULT, home, repo, agentCommands: 'make build, python3 -m unittest' });
    expect(layered.timeoutMs).toBe(30_000);
    expect(layered.sources).toHaveLength(3);
    const sandbox = { sandboxed: true, why: 'COMMANDR_SANDBOX=bwrap' };
    const run = (command: string) => evaluate(layered, { tool: 'Bash', input: { command }, cwd: repo, sandbox }).decision;
    expect(run('touch a')).toBe('allow');
    expect(run('touch secret')).toBe('deny');
    expect(run('make build')).toBe('allow');
    // `make` runs the project's own Makefile: an added prefix allows it only in a sandbox (POLPATH-5).
    expect(evaluate(layered, { tool: 'Bash', input: { command: 'make build' }, cwd: repo }).decision).toBe('ask');
    expect(loadPolicy({ defaultFile: DEFAULT, timeoutMs: '1500' }).timeoutMs).toBe(1500);
  });

  it('POLICY-5: a wrong policy file is refused naming the file and the field', () => {
    const home = temp();
    fs.writeFileSync(path.join(home, 'policy.yaml'), 'timeout: soon\n');
    expect(() => loadPolicy({ defaultFile: DEFAULT, home })).toThrow(PolicyError);
    expect(() => loadPolicy({ defaultFile: DEFAULT, home })).toThrow(/policy\.yaml: timeout/);
    fs.writeFileSync(path.join(home, 'policy.yaml'), 'allow: [\n');
    expect(() => loadPolicy({ defaultFile: DEFAULT, home })).toThrow(/not valid YAML/);
  });
});
