// Leases on refs/tasks/<id>: three clones of one bare remote (the machines) run
// the real bin tools as processes — a claimant that vanishes, a lease that
// lapses, takers racing, a claimant that renews, one that comes back too late.
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ClaimRow, LeaseRecord } from '../../protocol/bus/lease';
import { bundleCli, git, TempDirs } from '../council/fixtures';
import { claimWorker, cluster, events, leaseFields, leaseLapsed, looper, processesIn, tool, until } from './cluster';

const dirs = new TempDirs();
afterEach(() => dirs.cleanup());

const claimedPath = (stdout: string): string => stdout.split('\n')[0]!.slice('claimed:'.length);
const inbox = (clone: string) => readdirSync(join(clone, '.agents', 'inbox')).sort();
const claimed = (clone: string) => readdirSync(join(clone, '.agents', 'claimed')).sort();
const tip = (origin: string, id: string) => git(origin, 'rev-parse', `refs/tasks/${id}`).trim();
const parentOf = (origin: string, rev: string) => git(origin, 'rev-parse', `${rev}^`).trim();

describe('leases on remote claims', () => {
  it('LEASE-1: the claim commit records claimant and expiry; --lease beats AGENTS_CLAIM_LEASE, which beats the 1800 s default; a bad lease is a usage error', async () => {
    const { origin, clones } = cluster(dirs, 3, 1);
    const [a] = clones as [string];
    const before = Date.now();
    const first = await tool('claim', a, ['--remote', 'origin']);
    expect(first.code).toBe(0);
    const lease = leaseFields(origin, 'refs/tasks/R-00');
    const owner = claimed(a)[0]!.split('_').slice(0, 2).join('_');
    expect(lease).toMatchObject({ kind: 'claim', task: 'R-00', claimant: owner, 'lease-seconds': '1800' });
    expect(git(origin, 'log', '-1', '--format=%s', 'refs/tasks/R-00').trim()).toBe('claim R-00');
    const span = Date.parse(lease['lease-until']!) - Date.parse(lease.time!);
    expect(span).toBe(1800_000);
    expect(Date.parse(lease.time!)).toBeGreaterThanOrEqual(before - 1000);
    expect((await tool('claim', a, ['--remote', 'origin'], { AGENTS_CLAIM_LEASE: '90' })).code).toBe(0);
    expect(leaseFields(origin, 'refs/tasks/R-01')['lease-seconds']).toBe('90');
    expect((await tool('claim', a, ['--lease', '45', '--remote', 'origin'], { AGENTS_CLAIM_LEASE: '90' })).code).toBe(0);
    expect(leaseFields(origin, 'refs/tasks/R-02')['lease-seconds']).toBe('45');

    const { origin: o2, clones: [b] } = cluster(dirs, 1, 1);
    for (const [args, env] of [[['--remote', 'origin', '--lease', '0'], {}], [['--remote', 'origin', '--lease', '1.5'], {}], [['--remote', 'origin', '--lease', '9999999'], {}], [['--remote', 'origin'], { AGENTS_CLAIM_LEASE: 'soon' }], [['--lease', '60'], {}]] as const) {
      const res = await tool('claim', b!, [...args], { ...env });
      expect(res.code, JSON.stringify([args, env])).toBe(2);
      expect(res.stdout).toBe('');
      expect(res.stderr).toMatch(/lease/);
    }
    expect(git(o2, 'for-each-ref', 'refs/tasks/').trim()).toBe('');
    expect(claimed(b!)).toEqual([]);
  });

  it('LEASE-2: a live lease is never taken: another machine skips the task without pushing', async () => {
    const { origin, clones: [a, b] } = cluster(dirs, 1, 2);
    expect((await tool('claim', a!, ['--remote', 'origin', '--lease', '600'])).stdout).toMatch(/^claimed:/);
    const held = tip(origin, 'R-00');
    const res = await tool('claim', b!, ['--remote', 'origin']);
    expect(res).toMatchObject({ code: 0, stdout: 'inbox:empty\n' });
    expect(tip(origin, 'R-00')).toBe(held);
    expect(inbox(b!)).toEqual(['R-00.md']);
    expect(events(b!)).toEqual([]);
  });

  it('LEASE-4: a claimant that vanishes (SIGKILL mid-work) loses its task once the lease lapses: another machine takes it over by compare-and-swap and logs task_reclaimed naming it', async () => {
    const { root, origin, clones: [a, b] } = cluster(dirs, 1, 2);
    const claim = await tool('claim', a!, ['--remote', 'origin', '--lease', '2']);
    const victim = claimed(a!)[0]!.split('_').slice(0, 2).join('_');
    // The claimant's agent: reports progress (renewing) until it is killed.
    const agent = looper(root, await bundleCli('progress'), a!, ['R-00', 'working on it'], { go: join(root, 'go-a'), stop: join(root, 'never') });
    writeFileSync(join(root, 'go-a'), '');
    await until(() => agent.lines().length >= 2, 20_000, 'two renewals');
    expect(agent.lines().every((l) => l.startsWith('0 '))).toBe(true);
    agent.child.kill('SIGKILL');
    await agent.closed;
    // A progress run the agent had started may still finish as an orphan: wait until nothing runs in that clone.
    await until(() => processesIn(a!).length === 0, 20_000, 'the killed agent\'s last tool to exit');
    const last = tip(origin, 'R-00');
    expect(leaseFields(origin, last).kind).toBe('renew');
    // Before the lease lapses the task is not free.
    if (Date.now() < Date.parse(leaseFields(origin, last)['lease-until']!) - 1000) {
      expect((await tool('claim', b!, ['--remote', 'origin'])).stdout).toBe('inbox:empty\n');
    }
    await leaseLapsed(origin, 'R-00');
    const take = await tool('claim', b!, ['--remote', 'origin']);
    expect(take.code).toBe(0);
    expect(take.stdout).toMatch(/^claimed:.*R-00\.md\n---\nid: R-00/);
    expect(take.stderr).toContain(`took over R-00 from ${victim}`);
    const taken = tip(origin, 'R-00');
    expect(parentOf(origin, taken)).toBe(last);
    expect(leaseFields(origin, taken)).toMatchObject({ kind: 'reclaim', previous: victim });
    const taker = claimed(b!)[0]!.split('_').slice(0, 2).join('_');
    expect(events(b!).map((e) => [e.event, e.agent, e.previous])).toEqual([['task_claimed', taker, undefined], ['task_reclaimed', taker, victim]]);
    expect(claim.code).toBe(0);
  });

  it('LEASE-5: two machines racing for the same lapsed tasks: each task is taken over by exactly one of them', async () => {
    const { root, origin, ids, clones: [a, b, c] } = cluster(dirs, 3, 3);
    for (let i = 0; i < 3; i++) expect((await tool('claim', a!, ['--remote', 'origin', '--lease', '1'])).stdout).toMatch(/^claimed:/);
    const lapsedTips = Object.fromEntries(ids.map((id) => [id, tip(origin, id)]));
    for (const id of ids) await leaseLapsed(origin, id);
    const cli = await bundleCli('claim');
    const go = join(root, 'go');
    const racers = [b!, c!].map((clone) => claimWorker(root, cli, clone, go, {}, ['--remote', 'origin']));
    writeFileSync(go, '');
    const results = await Promise.all(racers);
    expect(results.map((r) => [r.code, r.err])).toEqual([[0, ''], [0, '']]);
    const won = [b!, c!].map((clone) => claimed(clone).map((n) => /_(R-\d+)\.md$/.exec(n)![1]!));
    expect(won.flat().sort()).toEqual(ids);
    for (const id of ids) {
      const now = tip(origin, id);
      expect(parentOf(origin, now)).toBe(lapsedTips[id]);
      expect(git(origin, 'rev-list', '--count', `refs/tasks/${id}`).trim()).toBe('2');
    }
    for (const [k, clone] of [b!, c!].entries()) {
      const reclaimed = events(clone).filter((e) => e.event === 'task_reclaimed').map((e) => e.task);
      expect(reclaimed.sort()).toEqual([...won[k]!].sort());
    }
  });

  it('LEASE-3: a claimant that keeps renewing through progress is never taken, across several lease lengths; once it stops, the lease lapses and the task is taken', async () => {
    const { root, origin, clones: [a, b] } = cluster(dirs, 1, 2);
    const lease = 3;
    expect((await tool('claim', a!, ['--remote', 'origin', '--lease', String(lease)])).stdout).toMatch(/^claimed:/);
    const claimedAt = Date.now();
    const files = { go: join(root, 'go'), stop: join(root, 'stop') };
    const renewer = looper(root, await bundleCli('progress'), a!, ['R-00', 'still going'], files);
    const taker = looper(root, await bundleCli('claim'), b!, ['--remote', 'origin'], { go: files.go, stop: join(root, 'stop-taker') });
    writeFileSync(files.go, '');
    // Three lease lengths pass with the taker trying all the time.
    await until(() => Date.now() - claimedAt > 3 * lease * 1000 && taker.lines().length >= 3, 60_000, 'three lease lengths');
    writeFileSync(join(root, 'stop-taker'), '');
    writeFileSync(files.stop, '');
    await Promise.all([renewer.closed, taker.closed]);
    expect(taker.lines().every((l) => l === '0 inbox:empty'), taker.lines().join('\n')).toBe(true);
    expect(renewer.lines().every((l) => l.startsWith('0 ')), renewer.lines().join('\n')).toBe(true);
    expect(claimed(b!)).toEqual([]);
    const kinds = git(origin, 'log', '--format=%s', 'refs/tasks/R-00').trim().split('\n');
    expect(kinds.at(-1)).toBe('claim R-00');
    expect(kinds.filter((k) => k === 'renew R-00').length).toBe(renewer.lines().length);
    expect(events(a!).filter((e) => e.event === 'task_progress')).toHaveLength(renewer.lines().length);
    // The same taker wins once the claimant is silent for a lease.
    await leaseLapsed(origin, 'R-00');
    expect((await tool('claim', b!, ['--remote', 'origin'])).stdout).toMatch(/^claimed:/);
  });

  it('LEASE-6: a claimant that comes back after being taken over has its complete (and progress) refused with a clear message; nothing moves', async () => {
    const { origin, clones: [a, b] } = cluster(dirs, 1, 2);
    const mine = claimedPath((await tool('claim', a!, ['--remote', 'origin', '--lease', '1'])).stdout);
    await leaseLapsed(origin, 'R-00');
    const theirs = claimedPath((await tool('claim', b!, ['--remote', 'origin'])).stdout);
    const taker = claimed(b!)[0]!.split('_').slice(0, 2).join('_');
    const takenTip = tip(origin, 'R-00');

    const refused = await tool('complete', a!, [mine, 'pass']);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('E_LEASE_LOST');
    expect(refused.stderr).toContain('task R-00 is no longer yours');
    expect(refused.stderr).toContain(`${taker} (machine `);
    expect(readdirSync(join(a!, '.agents', 'done'))).toEqual([]);
    expect(readFileSync(mine, 'utf8')).toMatch(/id: R-00/);
    const note = await tool('progress', a!, ['R-00', 'back from the dead']);
    expect(note.code).toBe(1);
    expect(note.stderr).toContain('E_LEASE_LOST');
    expect(events(a!).map((e) => e.event)).toEqual(['task_claimed']);
    expect(tip(origin, 'R-00')).toBe(takenTip);

    // The new holder completes: the ref ends with a done commit, which no lease rule ever takes.
    const done = await tool('complete', b!, [theirs, 'pass']);
    expect(done.code).toBe(0);
    expect(leaseFields(origin, 'refs/tasks/R-00')).toMatchObject({ kind: 'done', claimant: taker });
    expect(parentOf(origin, 'refs/tasks/R-00')).toBe(takenTip);
  });

  it('LEASE-7: claims release gives a task back: release commit, packet back in the inbox, task_released; another machine claims it at once (no takeover)', async () => {
    const { origin, clones: [a, b] } = cluster(dirs, 1, 2);
    expect((await tool('claim', a!, ['--remote', 'origin', '--lease', '600'])).stdout).toMatch(/^claimed:/);
    const holder = claimed(a!)[0]!.split('_').slice(0, 2).join('_');
    const rel = await tool('claims', a!, ['release', 'R-00']);
    expect(rel.code, rel.stderr).toBe(0);
    expect(rel.stdout).toContain('released:R-00 on origin');
    expect(inbox(a!)).toEqual(['R-00.md']);
    expect(claimed(a!)).toEqual([]);
    expect(leaseFields(origin, 'refs/tasks/R-00')).toMatchObject({ kind: 'release', claimant: holder });
    expect(events(a!).map((e) => [e.event, e.agent])).toEqual([['task_claimed', holder], ['task_released', holder]]);
    const again = await tool('claims', a!, ['release', 'R-00']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('E_NOT_HELD');
    const take = await tool('claim', b!, ['--remote', 'origin']);
    expect(take.stdout).toMatch(/^claimed:/);
    expect(take.stderr).not.toContain('took over');
    expect(events(b!).map((e) => e.event)).toEqual(['task_claimed']);
    expect(leaseFields(origin, 'refs/tasks/R-00')).toMatchObject({ kind: 'claim' });
  });

  it('LEASE-8: commandr claims <remote> lists every claim with owner, age and lease state', async () => {
    const { origin, clones: [a, b] } = cluster(dirs, 4, 2);
    expect((await tool('claim', a!, ['--remote', 'origin', '--lease', '600'])).code).toBe(0); // R-00 live
    expect((await tool('claim', a!, ['--remote', 'origin', '--lease', '1'])).code).toBe(0); // R-01 lapses
    const done = claimedPath((await tool('claim', a!, ['--remote', 'origin'])).stdout); // R-02 done
    expect((await tool('complete', a!, [done])).code).toBe(0);
    await leaseLapsed(origin, 'R-01');
    const list = await tool('claims', b!, ['origin', '--json']);
    expect(list.code, list.stderr).toBe(0);
    const rows = JSON.parse(list.stdout) as ClaimRow[];
    for (const row of rows) expect(ClaimRow.safeParse(row).success).toBe(true);
    const holder = claimed(a!)[0]!.split('_').slice(0, 2).join('_').replace(/_\d+$/, '');
    expect(rows.map((r) => [r.task, r.state])).toEqual([['R-00', 'live'], ['R-01', 'lapsed'], ['R-02', 'done']]);
    for (const r of rows) {
      expect(r.owner).toMatch(new RegExp(`^${holder}_\\d+$`));
      expect(r.age_seconds).toBeGreaterThanOrEqual(0);
      expect(r.tip).toBe(tip(origin, r.task));
    }
    expect(rows[2]!.lease_until).toBeNull();
    const text = await tool('claims', b!, ['list', 'origin']);
    const lines = text.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^TASK\s+OWNER\s+AGE\s+LEASE$/);
    expect(lines[1]).toMatch(/^R-00\s+\S+_\d+\s+\d+s\s+live, \d+m left$/);
    expect(lines[2]).toMatch(/^R-01\s+\S+\s+\d+s\s+lapsed \d+s ago \(free to take over\)$/);
    expect(lines[3]).toMatch(/^R-02\s+\S+\s+\d+s\s+done$/);
    expect((await tool('claims', b!, [])).code).toBe(2);
    expect((await tool('claims', b!, ['--force'])).code).toBe(2);
  });

  it('LEASE-2: a task ref written by a tool without leases is unleased and never taken over', async () => {
    const { origin, clones: [a, b] } = cluster(dirs, 1, 2);
    const tree = git(a!, 'hash-object', '-t', 'tree', '-w', '--stdin').trim();
    const legacy = git(a!, 'commit-tree', tree, '-m', 'claim R-00\n\nhost: old\npid: 7\ntime: 2020-01-01T00:00:00.000Z\nnonce: 00\n').trim();
    git(a!, 'push', '-q', 'origin', `${legacy}:refs/tasks/R-00`);
    expect((await tool('claim', b!, ['--remote', 'origin'])).stdout).toBe('inbox:empty\n');
    expect(tip(origin, 'R-00')).toBe(legacy);
    const rows = JSON.parse((await tool('claims', b!, ['origin', '--json'])).stdout) as ClaimRow[];
    expect(rows).toEqual([expect.objectContaining({ task: 'R-00', owner: 'old_7', state: 'unleased', lease_until: null })]);
  });

  it('LEASE-9 LEASE-3: the lease record lives in the git dir (0600), follows renewals and goes with done; reads leave no refs; an unreachable remote does not lose a note', async () => {
    const { origin, clones: [a] } = cluster(dirs, 1, 1);
    const path = claimedPath((await tool('claim', a!, ['--remote', 'origin', '--lease', '600'])).stdout);
    const file = join(a!, '.git', 'commandr', 'leases', 'R-00.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const record = LeaseRecord.parse(JSON.parse(readFileSync(file, 'utf8')));
    expect(record).toMatchObject({ task: 'R-00', remote: 'origin', lease_seconds: 600, tip: tip(origin, 'R-00') });
    expect(readdirSync(join(a!, '.agents')).sort()).toEqual(['approvals', 'claimed', 'done', 'events.jsonl', 'inbox']);
    expect((await tool('progress', a!, ['R-00', 'half way'])).code).toBe(0);
    const renewed = LeaseRecord.parse(JSON.parse(readFileSync(file, 'utf8')));
    expect(renewed.tip).toBe(tip(origin, 'R-00'));
    expect(renewed.tip).not.toBe(record.tip);
    expect(leaseFields(origin, 'refs/tasks/R-00')).toMatchObject({ kind: 'renew', 'lease-id': record.lease_id, since: leaseFields(origin, record.tip).since });
    expect(git(a!, 'for-each-ref', 'refs/commandr/').trim()).toBe('');

    renameSync(origin, `${origin}.away`);
    const offline = await tool('progress', a!, ['R-00', 'remote is away']);
    expect(offline.code).toBe(0);
    expect(offline.stderr).toContain('the lease on R-00 was not renewed');
    expect(events(a!).filter((e) => e.event === 'task_progress').map((e) => e.note)).toEqual(['half way', 'remote is away']);
    const stuck = await tool('complete', a!, [path]);
    expect(stuck.code).toBe(1);
    expect(stuck.stderr).toContain('E_GIT');
    expect(existsSync(path)).toBe(true);
    renameSync(`${origin}.away`, origin);

    expect((await tool('complete', a!, [path])).code).toBe(0);
    expect(existsSync(file)).toBe(false);
  });
});
