// `council --diff …`: no bus, no file, no event — one JSON object on stdout.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanEnv, councilCli, evaluatorScript, makeRepo, run, TempDirs } from './fixtures';

const dirs = new TempDirs();
afterEach(() => dirs.cleanup());

describe('council --diff', () => {
  it('COUNCIL-11: `--diff <git args>` prints exactly one JSON object with mode, verdict, votes and writes nothing', async () => {
    const { repo, bus } = makeRepo(dirs);
    writeFileSync(join(repo, 'app.ts'), 'export const answer = 42;\n');
    const evaluator = evaluatorScript(dirs, { style: { out: 'VOTE: FAIL\nREASON: meh\n' } });
    const res = await run(await councilCli(), ['--diff', 'HEAD', '--', 'app.ts'], { cwd: repo, env: cleanEnv({ COUNCIL_EVALUATOR_CMD: evaluator.cmd }) });
    expect(res.code).toBe(0);
    expect(res.stdout.endsWith('\n')).toBe(true);
    expect(res.stdout.trimEnd().split('\n')).toHaveLength(1);
    const out = JSON.parse(res.stdout);
    expect(Object.keys(out)).toEqual(['mode', 'verdict', 'votes']);
    expect(out).toEqual({
      mode: 'diff', verdict: 'PASS',
      votes: [
        { dimension: 'acceptance-criteria', vote: 'PASS', reason: '' },
        { dimension: 'code-quality', vote: 'PASS', reason: '' },
        { dimension: 'style', vote: 'FAIL', reason: 'meh' },
      ],
    });
    expect(readdirSync(evaluator.log).filter((f) => f.endsWith('.prompt'))).toHaveLength(3);
    expect(existsSync(join(bus, 'council'))).toBe(false);
    expect(existsSync(join(bus, 'events.jsonl'))).toBe(false);
  });

  it('COUNCIL-11: `--diff -` reads a unified diff on stdin, outside any repo', async () => {
    const evaluator = evaluatorScript(dirs, {});
    const diff = 'diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+STDIN-DIFF-MARKER\n';
    const res = await run(await councilCli(), ['--diff', '-'], { cwd: dirs.make('council-nogit-'), env: cleanEnv({ COUNCIL_EVALUATOR_CMD: evaluator.cmd }), input: diff });
    expect(JSON.parse(res.stdout).verdict).toBe('PASS');
    const prompt = readFileSync(join(evaluator.log, 'style.prompt'), 'utf8');
    expect(prompt).toContain('+STDIN-DIFF-MARKER');
  });

  it('COUNCIL-11: an empty diff calls no evaluator and yields three ABSTAIN and FAIL, exit 0', async () => {
    const { repo } = makeRepo(dirs);
    const evaluator = evaluatorScript(dirs, {});
    for (const [args, input] of [[['--diff'], ''], [['--diff', '-'], '']] as const) {
      const res = await run(await councilCli(), [...args], { cwd: repo, env: cleanEnv({ COUNCIL_EVALUATOR_CMD: evaluator.cmd }), input });
      expect(res.code).toBe(0);
      const out = JSON.parse(res.stdout);
      expect(out.verdict).toBe('FAIL');
      expect(out.votes.map((v: any) => v.vote)).toEqual(['ABSTAIN', 'ABSTAIN', 'ABSTAIN']);
    }
    expect(readdirSync(evaluator.log)).toEqual([]);
  });

  it('COUNCIL-11: git arguments that cannot be resolved exit 1 with nothing on stdout', async () => {
    const { repo } = makeRepo(dirs);
    const evaluator = evaluatorScript(dirs, {});
    const res = await run(await councilCli(), ['--diff', 'no-such-revision'], { cwd: repo, env: cleanEnv({ COUNCIL_EVALUATOR_CMD: evaluator.cmd }) });
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/E_GIT/);
    expect(readdirSync(evaluator.log)).toEqual([]);
  });
});
