// GITRUN-3, the fleet: a member relay serves the home's phone a task's diff and approve over the
// link. The member's repository is hostile (hostile.ts: core.fsmonitor, filters named by
// `* filter=evil`, textconv, diff and merge drivers, hooks and the rest), through its .git/config
// or an [include]d file, with .gitattributes or .git/info/attributes. Plain git in that repo runs
// the markers (the control); the phone's diff view and approve through the home run none. Two real
// relays on port 0 linked with a real join code, a device paired with the home only.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stagedDigest } from '../../bus/digest';
import { labelRepo } from '../../relay/fleet/home';
import { createJoinCode } from '../../relay/fleet/machines';
import { joinHome } from '../../relay/fleet/member';
import { makeRepo, packetText, TempDirs, writePacket } from '../council/fixtures';
import type { DeviceClient } from '../helpers/device';
import { repoIdFor, startRelay, subscribedClient } from '../relay-watch/fixture';
import { git, makeHostile, type AttrSource, type Source } from './hostile';

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

const plain = (cwd: string, ...args: string[]) => spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });

async function readDiff(who: DeviceClient, repo: string, task: string, id: string): Promise<{ digest: string; patch: string }> {
  const ack = who.request({ type: 'task.diff', id, repo, task });
  const begin = await who.next('task.diff.begin', (f) => f.id === id) as unknown as { digest: string };
  const end = await who.next('task.diff.end', (f) => f.id === id) as unknown as { chunks: number };
  await ack;
  const chunks = who.received.filter((f) => f.type === 'task.diff.chunk' && f.id === id) as unknown as { seq: number; data: string }[];
  expect(chunks).toHaveLength(end.chunks);
  return { digest: begin.digest, patch: chunks.sort((a, b) => a.seq - b.seq).map((c) => c.data).join('') };
}

const VARIANTS: Array<[Source, AttrSource]> = [['config', '.gitattributes'], ['include', 'info/attributes']];

describe('GITRUN-3: a member relay serves the home\'s phone, in a hostile repository', () => {
  it.each(VARIANTS)('GITRUN-3: the home\'s phone reads a member task\'s diff and approves it over the fleet link (repo %s, attributes in %s): plain git runs the markers, the member runs none', async (source, attrs) => {
    const { repo, bus } = makeRepo(dirs);
    writePacket(bus, 'claimed', 'T-1.md', packetText('T-1'));
    const wt = path.join(dirs.make('fleet-gitrun-wt-'), 'wt');
    git(repo, 'worktree', 'add', '-q', '-b', 'agent/T-1', wt);
    fs.writeFileSync(path.join(wt, 'app.ts'), 'export const answer = 42;\n');
    git(wt, 'add', 'app.ts');
    fs.appendFileSync(path.join(wt, 'README.md'), 'more\n');
    const hostile = makeHostile(repo, wt, dirs.make('fleet-gitrun-marker-'), source, attrs);

    // Control: plain git in the member's repository runs the repository's commands.
    plain(wt, 'status', '--porcelain');
    plain(wt, 'diff', '--cached');
    plain(wt, 'add', 'README.md');
    plain(wt, 'commit', '-q', '--allow-empty', '-m', 'hooked');
    expect(hostile.fired()).toEqual(expect.arrayContaining(['fsmonitor', 'filter-clean']));
    fs.rmSync(hostile.marker);
    expect(hostile.fired()).toEqual([]);

    const home = await startRelay([], { dataDir: dirs.make('fleet-gitrun-home-') });
    const member = await startRelay([repo], { dataDir: dirs.make('fleet-gitrun-member-') });
    let phone: DeviceClient | undefined;
    try {
      const { code } = createJoinCode(home.dataDir, 'laptop');
      const machine = (await joinHome(member.dataDir, home.url, code, 'laptop')).machine;
      const label = labelRepo(machine, repoIdFor(repo));
      const sub = await subscribedClient(home, undefined, 'Pixel on the home');
      phone = sub.client;
      await sub.bus.task(label, 'T-1');
      const { digest, patch } = await readDiff(phone, label, 'T-1', `fleet-gitrun-diff-${source}`);
      expect(patch).toContain('+export const answer = 42;');
      expect(digest).toBe((await stagedDigest(wt)).digest);
      const ack = await phone.request({ type: 'task.approve', id: `fleet-gitrun-ok-${source}`, repo: label, task: 'T-1', digest });
      expect(ack.result).toMatchObject({ task: 'T-1', token: 'written' });
      const token = JSON.parse(fs.readFileSync(path.join(bus, 'approvals', 'T-1.approved'), 'utf8'));
      expect(token).toMatchObject({ task: 'T-1', digest, by: 'Pixel on the home' });
    } finally {
      await phone?.close();
      await member.close();
      await home.close();
    }
    expect(hostile.fired()).toEqual([]);
    expect(fs.existsSync(hostile.marker)).toBe(false);
  });
});
