// Interop with other tools of the same bus contract (issue 11, item 9): the
// verdict file this implementation writes is one line of compact JSON, and the
// index folds the verdict of any council file whose `verdict` is PASS or FAIL,
// whatever its `votes` look like.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { refreshIndex } from '../../bus/index-fold';
import { cleanEnv, councilCli, evaluatorScript, makeRepo, packetText, run, TempDirs, writePacket } from './fixtures';

const dirs = new TempDirs();
afterEach(() => dirs.cleanup());

async function fold(repo: string): Promise<Record<string, string | null>> {
  const output = join(dirs.make('interop-index-'), 'index.json');
  const index = await refreshIndex({ repos: [repo], output, version: 'test' });
  return Object.fromEntries(index.tasks.map((t) => [t.id, t.verdict]));
}

describe('council verdict files across implementations', () => {
  it('COUNCIL-9 INTEROP-1: the verdict file is exactly one line of compact JSON, read back whole by a line reader', async () => {
    const { bus } = makeRepo(dirs);
    const packet = writePacket(bus, 'claimed', 'h_1_t.md', packetText('T-1'));
    const evaluator = evaluatorScript(dirs, { style: { out: 'VOTE: FAIL\nREASON: a "quoted" {reason}\n' } });
    const res = await run(await councilCli(), [packet], { env: cleanEnv({ COUNCIL_EVALUATOR_CMD: evaluator.cmd }) });
    expect(res.stdout).toBe('council:T-1:PASS\n');
    const text = readFileSync(join(bus, 'council', 'T-1.json'), 'utf8');
    const lines = text.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('');
    expect(text).toBe(JSON.stringify(JSON.parse(text)) + '\n');
    expect(JSON.parse(lines[0]!).votes[2].reason).toBe('a "quoted" {reason}');
  });

  it('INTEROP-2 INDEX-2: the index takes the verdict of a council file whose votes are not the three this tool writes', async () => {
    const { repo, bus } = makeRepo(dirs);
    mkdirSync(join(bus, 'council'));
    const write = (id: string, body: unknown) => {
      writePacket(bus, 'done', `h_1_${id}.md`, packetText(id));
      writeFileSync(join(bus, 'council', `${id}.json`), typeof body === 'string' ? body : JSON.stringify(body) + '\n');
    };
    // five evaluators, dimensions this tool does not know
    write('FIVE', { task: 'FIVE', verdict: 'PASS', ts: '2026-01-01T00:00:00Z', votes: ['a', 'b', 'c', 'd', 'e'].map((d) => ({ dimension: d, vote: 'PASS', reason: '' })) });
    // a single vote with extra keys and no reason
    write('ONE', { task: 'ONE', verdict: 'FAIL', ts: '2026-01-01T00:00:00Z', votes: [{ dimension: 'security', vote: 'FAIL', model: 'x', score: 0.2 }] });
    // no votes at all, an extra top-level key, no ts
    write('BARE', { task: 'BARE', verdict: 'PASS', evaluator: 'other-tool/2' });
    // pretty-printed over several lines, with a null the writer was told not to write
    write('PRETTY', JSON.stringify({ task: 'PRETTY', verdict: 'FAIL', ts: null, votes: [{ dimension: 'style', vote: 'ABSTAIN', reason: null }] }, null, 2) + '\n');
    // votes not an array
    write('ODD', { task: 'ODD', verdict: 'PASS', votes: { count: 3 } });
    // what stays unreadable: no PASS/FAIL verdict, not JSON, not an object
    write('LOWER', { task: 'LOWER', verdict: 'pass', votes: [] });
    write('JUNK', '{"task":"JUNK","verdict":"PA');
    write('LIST', '["PASS"]\n');
    expect(await fold(repo)).toEqual({
      FIVE: 'PASS', ONE: 'FAIL', BARE: 'PASS', PRETTY: 'FAIL', ODD: 'PASS',
      LOWER: null, JUNK: null, LIST: null,
    });
  });

  it('INTEROP-2: a verdict file with a BOM or CRLF line end (written on another system) is still folded', async () => {
    const { repo, bus } = makeRepo(dirs);
    mkdirSync(join(bus, 'council'));
    writePacket(bus, 'done', 'h_1_W.md', packetText('W'));
    writeFileSync(join(bus, 'council', 'W.json'), '\uFEFF' + JSON.stringify({ task: 'W', verdict: 'FAIL', votes: [] }) + '\r\n');
    expect(await fold(repo)).toEqual({ W: 'FAIL' });
  });
});
