// The council over a packet with the COUNCIL_EVALUATOR_CMD seam, driven through
// the real CLI process: votes, majority, timeouts, files, event, exit codes.
import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanEnv, councilCli, evaluatorScript, git, makeRepo, packetText, run, TempDirs, writePacket } from './fixtures';

const dirs = new TempDirs();
afterEach(() => dirs.cleanup());

const DIMENSIONS = ['acceptance-criteria', 'code-quality', 'style'];

function events(bus: string): any[] {
  if (!existsSync(join(bus, 'events.jsonl'))) return [];
  return readFileSync(join(bus, 'events.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

describe('council <packet> with the evaluator seam', () => {
  it('COUNCIL-1 COUNCIL-8 COUNCIL-9: finds the bus from the packet path (any cwd), prints the verdict line and writes exactly the verdict keys', async () => {
    const { bus } = makeRepo(dirs);
    const packet = writePacket(bus, 'claimed', 'host-a_12_fix.md', packetText('T-1'));
    const evaluator = evaluatorScript(dirs, { style: { out: 'VOTE: FAIL\nREASON: names are unclear\n' } });
    const elsewhere = dirs.make('council-cwd-');
    const res = await run(await councilCli(), [packet], { cwd: elsewhere, env: cleanEnv({ COUNCIL_EVALUATOR_CMD: evaluator.cmd }) });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('council:T-1:PASS\n');
    const verdict = JSON.parse(readFileSync(join(bus, 'council', 'T-1.json'), 'utf8'));
    expect(Object.keys(verdict).sort()).toEqual(['task', 'ts', 'verdict', 'votes']);
    expect(verdict.task).toBe('T-1');
    expect(verdict.verdict).toBe('PASS');
    expect(new Date(verdict.ts).toISOString()).toBe(verdict.ts);
    expect(verdict.votes).toHaveLength(3);
    for (const v of verdict.votes) expect(Object.keys(v).sort()).toEqual(['dimension', 'reason', 'vote']);
    expect(verdict.votes.map((v: any) => v.dimension)).toEqual(DIMENSIONS);
    expect(verdict.votes[2]).toEqual({ dimension: 'style', vote: 'FAIL', reason: 'names are unclear' });
    expect(verdict.votes[0]).toEqual({ dimension: 'acceptance-criteria', vote: 'PASS', reason: '' });
    expect(readdirSync(join(bus, 'approvals'))).toEqual([]);
  });

  it('COUNCIL-2 COUNCIL-3: each dimension is one call `<cmd> <prompt-file> <dimension>`, all three running at once', async () => {
    const { bus } = makeRepo(dirs);
    const packet = writePacket(bus, 'done', 'h_1_p.md', packetText('T-2'));
    const evaluator = evaluatorScript(dirs, {});
    // A barrier: each evaluator votes PASS only once all three have started; run one by one they would each FAIL.
    const barrier = join(evaluator.log, '..', 'barrier.cjs');
    writeFileSync(barrier, `const fs = require('fs'); const [p, d] = process.argv.slice(2);
const dir = ${JSON.stringify(evaluator.log)}; fs.writeFileSync(dir + '/' + d + '.argv', JSON.stringify(process.argv.slice(2)));
const deadline = Date.now() + 15000;
const tick = () => { const n = fs.readdirSync(dir).filter((f) => f.endsWith('.argv')).length;
  if (n === 3) { console.log('VOTE: PASS'); process.exit(0); }
  if (Date.now() > deadline) { console.log('VOTE: FAIL'); process.exit(0); }
  setTimeout(tick, 20); };
tick();`);
    const res = await run(await councilCli(), [packet], { env: cleanEnv({ COUNCIL_EVALUATOR_CMD: `${process.execPath} ${barrier}` }) });
    expect(res.stdout).toBe('council:T-2:PASS\n');
    for (const d of DIMENSIONS) {
      const argv = JSON.parse(readFileSync(join(evaluator.log, `${d}.argv`), 'utf8'));
      expect(argv).toHaveLength(2);
      expect(argv[1]).toBe(d);
    }
  });

  it('COUNCIL-3: non-zero exit, a missing vote line and a timeout are ABSTAIN with a reason', async () => {
    const { bus } = makeRepo(dirs);
    const packet = writePacket(bus, 'claimed', 'h_1_p.md', packetText('T-3'));
    const evaluator = evaluatorScript(dirs, {
      'acceptance-criteria': { out: 'VOTE: PASS\n', exit: 3 },
      'code-quality': { out: 'I think it passes.\nvote: pass\n VOTE: PASS\n' },
      style: { hangMs: 60_000 },
    });
    const res = await run(await councilCli(), [packet], { env: cleanEnv({ COUNCIL_EVALUATOR_CMD: evaluator.cmd, COUNCIL_TIMEOUT_MS: '500' }) });
    expect(res.stdout).toBe('council:T-3:FAIL\n');
    const votes = JSON.parse(readFileSync(join(bus, 'council', 'T-3.json'), 'utf8')).votes;
    expect(votes.map((v: any) => v.vote)).toEqual(['ABSTAIN', 'ABSTAIN', 'ABSTAIN']);
    expect(votes[0].reason).toMatch(/exit 3/);
    expect(votes[1].reason).toMatch(/no VOTE line/);
    expect(votes[2].reason).toMatch(/timeout after 500 ms/);
    const ev = events(bus).filter((e) => e.event === 'council_verdict');
    expect(ev).toEqual([expect.objectContaining({ task: 'T-3', verdict: 'FAIL', evaluator_count: 3, abstentions: 3 })]);
  });

  it('COUNCIL-6: one PASS and two FAIL is FAIL; two PASS is PASS', async () => {
    const { bus } = makeRepo(dirs);
    const packet = writePacket(bus, 'claimed', 'h_1_p.md', packetText('T-6'));
    const fail = evaluatorScript(dirs, { 'code-quality': { out: 'VOTE: FAIL\n' }, style: { out: 'VOTE: FAIL\n' } });
    expect((await run(await councilCli(), [packet], { env: cleanEnv({ COUNCIL_EVALUATOR_CMD: fail.cmd }) })).stdout).toBe('council:T-6:FAIL\n');
    const pass = evaluatorScript(dirs, { style: { out: 'VOTE: FAIL\n' } });
    expect((await run(await councilCli(), [packet], { env: cleanEnv({ COUNCIL_EVALUATOR_CMD: pass.cmd }) })).stdout).toBe('council:T-6:PASS\n');
  });

  it('COUNCIL-7: the prompt holds the packet and the task diff, and every temp prompt file is gone on exit', async () => {
    const { repo, bus } = makeRepo(dirs);
    const wt = join(dirs.make('council-wt-'), 'wt');
    git(repo, 'worktree', 'add', '-q', '-b', 'agent/T-7', wt);
    writeFileSync(join(wt, 'app.ts'), 'export const answer = 42;\n');
    git(wt, 'add', 'app.ts');
    const packet = writePacket(bus, 'claimed', 'h_1_p.md', packetText('T-7', '\nUNIQUE-PACKET-MARKER\n'));
    const evaluator = evaluatorScript(dirs, {});
    const res = await run(await councilCli(), [packet], { env: cleanEnv({ COUNCIL_EVALUATOR_CMD: evaluator.cmd }) });
    expect(res.code).toBe(0);
    for (const d of DIMENSIONS) {
      const prompt = readFileSync(join(evaluator.log, `${d}.prompt`), 'utf8');
      expect(prompt).toContain('UNIQUE-PACKET-MARKER');
      expect(prompt).toContain('+export const answer = 42;');
      expect(prompt).toContain(d);
      const [promptFile] = JSON.parse(readFileSync(join(evaluator.log, `${d}.argv`), 'utf8'));
      expect(existsSync(promptFile)).toBe(false);
      expect(promptFile.startsWith(bus)).toBe(false);
    }
  });

  it('COUNCIL-9 COUNCIL-10: a rerun overwrites the verdict atomically, leaves no temp file in council/, and appends one event without reasons', async () => {
    const { bus } = makeRepo(dirs);
    const packet = writePacket(bus, 'claimed', 'h_1_p.md', packetText('T-9'));
    const first = evaluatorScript(dirs, { style: { out: 'VOTE: FAIL\nREASON: secret-reason-text\n' } });
    await run(await councilCli(), [packet], { env: cleanEnv({ COUNCIL_EVALUATOR_CMD: first.cmd }) });
    const second = evaluatorScript(dirs, { 'acceptance-criteria': { out: 'VOTE: FAIL\n' }, style: { out: 'VOTE: FAIL\n' } });
    const res = await run(await councilCli(), [packet], { env: cleanEnv({ COUNCIL_EVALUATOR_CMD: second.cmd }) });
    expect(res.stdout).toBe('council:T-9:FAIL\n');
    expect(readdirSync(join(bus, 'council'))).toEqual(['T-9.json']);
    expect(JSON.parse(readFileSync(join(bus, 'council', 'T-9.json'), 'utf8')).verdict).toBe('FAIL');
    const ev = events(bus);
    expect(ev.map((e) => e.verdict)).toEqual(['PASS', 'FAIL']);
    for (const e of ev) expect(Object.keys(e).sort()).toEqual(['abstentions', 'evaluator_count', 'event', 'task', 'ts', 'verdict']);
    expect(readFileSync(join(bus, 'events.jsonl'), 'utf8')).not.toContain('secret-reason-text');
    expect(readdirSync(bus).sort()).toEqual(['approvals', 'claimed', 'council', 'done', 'events.jsonl', 'inbox']);
  });

  it('COUNCIL-8: usage errors exit 2 (no argument, packet not under a bus, packet missing, inbox packet)', async () => {
    const cli = await councilCli();
    const { bus } = makeRepo(dirs);
    const loose = join(dirs.make('council-loose-'), 'claimed');
    mkdirSync(loose);
    writeFileSync(join(loose, 'p.md'), packetText('T-8'));
    const inbox = writePacket(bus, 'inbox', 'p.md', packetText('T-8'));
    for (const args of [[], ['a', 'b'], [join(loose, 'p.md')], [join(bus, 'claimed', 'nope.md')], [inbox]]) {
      const res = await run(cli, args, { env: cleanEnv({ COUNCIL_EVALUATOR_CMD: 'false' }) });
      expect(res.code, JSON.stringify(args)).toBe(2);
      expect(res.stdout).toBe('');
    }
    expect(existsSync(join(bus, 'council'))).toBe(false);
  });

  it('COUNCIL-8: a runtime error exits 1 and leaves no verdict file', async () => {
    const { bus } = makeRepo(dirs);
    const bad = writePacket(bus, 'claimed', 'h_1_bad.md', '---\ntype: research\n---\nno id\n');
    const evaluator = evaluatorScript(dirs, {});
    const res = await run(await councilCli(), [bad], { env: cleanEnv({ COUNCIL_EVALUATOR_CMD: evaluator.cmd }) });
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/E_BAD_PACKET/);
    const good = writePacket(bus, 'claimed', 'h_1_good.md', packetText('T-8b'));
    writeFileSync(join(bus, 'council'), 'a file where the council directory should be');
    const blocked = await run(await councilCli(), [good], { env: cleanEnv({ COUNCIL_EVALUATOR_CMD: evaluator.cmd }) });
    expect(blocked.code).toBe(1);
    expect(blocked.stdout).toBe('');
    expect(events(bus)).toEqual([]);
  });
});
