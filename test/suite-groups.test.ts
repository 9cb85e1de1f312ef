// SUITE-8: the vitest files that start a real agent CLI are told apart by what they name, and
// COMMANDR_VITEST_GROUP splits the real suite in two halves that together are every file, once.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AGENT_CLI_MARK, agentCliFiles, testFiles, vitestGroup } from './suite-groups';

const ROOT = path.resolve(__dirname, '..');
const tmp = mkdtempSync(path.join(tmpdir(), 'suite-groups-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The files `vitest list` would run with COMMANDR_VITEST_GROUP=`group` (unset: undefined), from the repo root. */
function listed(group: string | undefined): string[] {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.COMMANDR_VITEST_GROUP;
  if (group !== undefined) env.COMMANDR_VITEST_GROUP = group;
  const r = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'vitest'), ['list', '--filesOnly'], { cwd: ROOT, env, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  // Each line is `[project] file` (SUITE-9's two projects).
  return r.stdout.split('\n').map((l) => l.trim().replace(/^\[[\w-]+\]\s+/, '')).filter((l) => l.endsWith('.test.ts')).sort();
}

describe('SUITE-8: the files that start a real agent CLI', () => {
  it('SUITE-8: a file joins the group by naming a real CLI (its binary or a world that starts it), and no other does', () => {
    const write = (name: string, text: string) => {
      mkdirSync(path.dirname(path.join(tmp, name)), { recursive: true });
      writeFileSync(path.join(tmp, name), text);
    };
    // Spelled in pieces so that this file does not join the group itself.
    write('a/real-opencode.test.ts', `import { ${'OPENCODE'}_BIN } from '../harness';\n`);
    write('a/claude-world.test.ts', `const w = ${'useClaude'}World({ wired: true });\n`);
    write('b/doctor.test.ts', `const bin = path.join(ROOT, 'node_modules', '.bin', ${"'claude'"});\n`);
    write('b/stand-in.test.ts', "const env = { COMMANDR_CLAUDE_BIN: loggedOutClaude(home) };\n"); // a stand-in, not the CLI
    write('b/plain.test.ts', "it('adds', () => expect(1 + 1).toBe(2));\n");
    write('node_modules/x/skipped.test.ts', `import { ${'OPENCODE'}_BIN } from 'y';\n`);
    expect(testFiles(tmp)).toEqual(['a/claude-world.test.ts', 'a/real-opencode.test.ts', 'b/doctor.test.ts', 'b/plain.test.ts', 'b/stand-in.test.ts']);
    expect(agentCliFiles(tmp)).toEqual(['a/claude-world.test.ts', 'a/real-opencode.test.ts', 'b/doctor.test.ts']);
  });

  it('SUITE-8: in this repository the group holds the Claude Code and OpenCode suites and nothing that runs without them', () => {
    const group = agentCliFiles(ROOT);
    for (const file of ['test/adapters/claude-run.test.ts', 'test/adapters/opencode.test.ts', 'test/mcp/claude.test.ts', 'test/mcp/opencode.test.ts']) expect(group).toContain(file);
    for (const file of ['test/suite-runner.test.ts', 'test/suite-groups.test.ts', 'test/conformance/claim.test.ts', 'test/stand-ins/messages-api.test.ts']) expect(group).not.toContain(file);
    for (const file of group) expect(AGENT_CLI_MARK.test(readFileSync(path.join(ROOT, file), 'utf8')), file).toBe(true);
  });

  it('SUITE-8: COMMANDR_VITEST_GROUP=agent-clis and =others run two halves of the suite that together are every file once; bad values are refused naming the variable', { timeout: 120_000 }, () => {
    const all = listed(undefined);
    const clis = listed('agent-clis');
    const others = listed('others');
    expect(clis).toEqual(agentCliFiles(ROOT));
    expect(clis.length).toBeGreaterThan(10);
    expect(others.filter((f) => clis.includes(f))).toEqual([]);
    expect([...clis, ...others].sort()).toEqual(all);
    expect(vitestGroup({})).toBeUndefined();
    expect(vitestGroup({ COMMANDR_VITEST_GROUP: '' })).toBeUndefined();
    for (const bad of ['all', 'agent', ' others']) expect(() => vitestGroup({ COMMANDR_VITEST_GROUP: bad }), bad).toThrow(`COMMANDR_VITEST_GROUP must be agent-clis or others, not ${JSON.stringify(bad)}`);
  });
});
