// A hostile repository tracks `.agents/council -> ../../victim` and a packet with
// `id: package`: after clone, init, claim and council, the verdict must not replace
// `victim/package.json` outside the repo (ID-SAFE-4). Real clone, real init, real
// claim, the real council CLI process and the library function the relay calls.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claimNext } from '../../bus/claim';
import { runCouncil } from '../../bus/council/council';
import { initRepo } from '../../bus/init';
import { cleanEnv, councilCli, evaluatorScript, git, packetText, run, TempDirs } from './fixtures';

const dirs = new TempDirs();
afterEach(() => dirs.cleanup());

/** Every entry under `dir` (type, mode and bytes), for a byte-for-byte "unchanged" check. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of fs.readdirSync(d).sort()) {
      const p = path.join(d, name);
      const st = fs.lstatSync(p);
      const rel = path.relative(dir, p);
      if (st.isDirectory()) {
        out[rel + '/'] = `dir ${st.mode}`;
        walk(p);
      } else out[rel] = `${st.isSymbolicLink() ? 'link ' + fs.readlinkSync(p) : 'file ' + fs.readFileSync(p).toString('base64')} ${st.mode}`;
    }
  };
  walk(dir);
  return out;
}

/** `<tmp>/victim` with a package.json, and a clone `<tmp>/repo` of a repo that tracks the link and packet, bus-ready and claimed. */
async function hostileClone(): Promise<{ victim: string; repo: string; bus: string; claimed: string }> {
  const tmp = fs.realpathSync(dirs.make('council-escape-'));
  const victim = path.join(tmp, 'victim');
  fs.mkdirSync(victim);
  fs.writeFileSync(path.join(victim, 'package.json'), '{ "name": "victim", "version": "1.0.0" }\n');
  fs.writeFileSync(path.join(victim, 'index.js'), 'module.exports = 42;\n');

  const src = path.join(tmp, 'src');
  fs.mkdirSync(path.join(src, '.agents', 'inbox'), { recursive: true });
  git(src, 'init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(src, 'README.md'), '# innocent\n');
  fs.symlinkSync('../../victim', path.join(src, '.agents', 'council'));
  fs.writeFileSync(path.join(src, '.agents', 'inbox', 'package.md'), packetText('package'));
  git(src, 'add', '-f', '.');
  git(src, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'hostile');

  const repo = path.join(tmp, 'repo');
  git(tmp, 'clone', '-q', src, repo);
  expect(fs.lstatSync(path.join(repo, '.agents', 'council')).isSymbolicLink()).toBe(true);
  const { bus } = initRepo(repo, { gateBin: '/bin/false', registryFile: path.join(tmp, 'registry') });
  const claimed = await claimNext(bus, { host: 'h', pid: 1 });
  expect(claimed?.task).toBe('package');
  return { victim, repo, bus, claimed: claimed!.path };
}

const verdictEvents = (bus: string): string[] =>
  fs.readFileSync(path.join(bus, 'events.jsonl'), 'utf8').split('\n').filter((l) => l.includes('council_verdict'));

describe('council never writes through a symlinked council/ (ID-SAFE-4)', () => {
  it('ID-SAFE-4: `council <packet>` refuses a tracked .agents/council -> ../../victim (exit 2, E_BAD_PATH) and victim/package.json is byte-for-byte intact', async () => {
    const { victim, bus, claimed } = await hostileClone();
    const before = tree(victim);
    const evaluator = evaluatorScript(dirs, {});
    const res = await run(await councilCli(), [claimed], { env: cleanEnv({ COUNCIL_EVALUATOR_CMD: evaluator.cmd }) });
    expect(res.stdout).toBe('');
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('E_BAD_PATH');
    expect(res.stderr).toContain(path.join(bus, 'council'));
    expect(res.stderr).toContain('leads outside the bus');
    expect(tree(victim)).toEqual(before);
    expect(verdictEvents(bus)).toEqual([]);
  }, 60_000);

  it('ID-SAFE-4: runCouncil (what the phone\'s "Run council" calls) refuses the same packet path and writes nothing, no temp file either', async () => {
    const { victim, bus, claimed } = await hostileClone();
    const before = tree(victim);
    const evaluator = evaluatorScript(dirs, {});
    await expect(runCouncil(claimed, cleanEnv({ COUNCIL_EVALUATOR_CMD: evaluator.cmd }))).rejects.toMatchObject({
      code: 'E_BAD_PATH', message: expect.stringContaining('leads outside the bus'),
    });
    expect(tree(victim)).toEqual(before);
    expect(verdictEvents(bus)).toEqual([]);
  }, 60_000);

  it('ID-SAFE-4: a council/ link that stays inside the bus is allowed (only the real path counts)', async () => {
    const tmp = fs.realpathSync(dirs.make('council-inside-'));
    const repo = path.join(tmp, 'repo');
    fs.mkdirSync(repo);
    git(repo, 'init', '-q', '-b', 'main');
    fs.writeFileSync(path.join(repo, 'README.md'), 'hello\n');
    git(repo, 'add', 'README.md');
    git(repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'init');
    const { bus } = initRepo(repo, { gateBin: '/bin/false', registryFile: path.join(tmp, 'registry') });
    fs.mkdirSync(path.join(bus, 'verdicts'));
    fs.symlinkSync('verdicts', path.join(bus, 'council'));
    const packet = path.join(bus, 'claimed', 'h_1_T-1.md');
    fs.writeFileSync(packet, packetText('T-1'));
    const evaluator = evaluatorScript(dirs, {});
    const { verdict } = await runCouncil(packet, cleanEnv({ COUNCIL_EVALUATOR_CMD: evaluator.cmd }));
    expect(verdict.task).toBe('T-1');
    expect(fs.readdirSync(path.join(bus, 'verdicts'))).toEqual(['T-1.json']);
  }, 60_000);
});
