// A member's approval request reaches the home's device push (FLEET-23): the member
// is a real relay over a real repo with the installed gate, the home a second real
// relay; the local Web Push stand-in decrypts what the home sent. The notification's
// Approve (a signed POST /api/action to the home, as the service worker sends it)
// reaches the member and its real `git commit` then passes.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_HEADER } from '../../protocol/wire/http';
import type { Relay } from '../../relay/server';
import { labelRepo } from '../../relay/fleet/home';
import { createJoinCode } from '../../relay/fleet/machines';
import { joinHome, openLink } from '../../relay/fleet/member';
import { MAX_MEMBER_PUSHES } from '../../relay/fleet/push-budget';
import { postJson, signAction } from '../helpers/device';
import { TempDirs } from '../council/fixtures';
import { repoIdFor, startRelay, subscribedClient } from '../relay-watch/fixture';
import { blockedCommit, type PushDevice, pushDevice, type PushWorld, startPushWorld } from '../push/fixture';

const dirs = new TempDirs();
let pw: PushWorld;
let home: Relay;
let phone: PushDevice;
let label: string;
let machine: string;

beforeAll(async () => {
  pw = await startPushWorld(['P-1']);
  pw.world.env.COMMANDR_HOME = pw.relay.dataDir;
  home = await startRelay([], { dataDir: dirs.make('fleet-home-') });
  const { code } = createJoinCode(home.dataDir, 'laptop');
  machine = (await joinHome(pw.relay.dataDir, home.url, code, 'laptop')).machine;
  label = labelRepo(machine, repoIdFor(pw.world.repo));
  phone = await pushDevice(home, pw.endpoint, 'Pixel in a pocket', false);
  const { bus, client } = await subscribedClient(home, undefined, 'watcher');
  await bus.task(label, 'P-1');
  await client.close();
});

afterAll(async () => {
  await phone?.client.close();
  await home?.close();
  await pw?.cleanup();
  dirs.cleanup();
});

describe('fleet: pushes from a member', () => {
  it('FLEET-23: a gate block on the member pushes an approval to the home device, labelled by machine, and its Approve reaches the member', async () => {
    const wt = blockedCommit(pw.world, 'P-1', { 'pocket.txt': 'approved from a notification\n' });
    const got = await pw.endpoint.waitFor((p) => p.subscription === phone.sub.id && (p.payload as { kind?: string }).kind === 'approval_requested');
    const payload = got.payload as { title: string; tag: string; url: string; data: { repo: string; task: string; digest: string }; actions: Array<{ action: string }> };
    expect(payload).toMatchObject({
      title: expect.stringMatching(/^laptop: Approve P-1 in /), tag: `task:${label}:P-1`,
      url: `/task?repo=${encodeURIComponent(label)}&id=P-1`, data: { repo: label, task: 'P-1', digest: expect.stringMatching(/^sha256:/) },
    });
    expect(payload.actions.map((a) => a.action)).toEqual(['approve', 'deny']);
    const device = phone.client.device!;
    const res = await postJson(home, '/api/action', signAction(device, { type: 'task.approve', id: 'push-approve-0001', repo: payload.data.repo, task: 'P-1', digest: payload.data.digest }), { [DEVICE_HEADER]: device.id });
    expect(res.status, res.body).toBe(200);
    const commit = spawnSync('git', ['commit', '-q', '-m', 'approved from the pocket'], { cwd: wt, env: pw.world.env, encoding: 'utf8' });
    expect(commit.stderr).toBe('');
    expect(commit.status).toBe(0);
  });

  it('FLEET-23: a member pushes only for its own repos and only task kinds; its title names the machine', async () => {
    const dataDir = dirs.make('fleet-hand-');
    const { code } = createJoinCode(home.dataDir, 'rogue');
    const record = await joinHome(dataDir, home.url, code, 'rogue');
    const link = await openLink(dataDir, home.url, { auth: record });
    const watcher = await subscribedClient(home, undefined, 'watcher 2');
    const send = (frame: unknown) => link.ws.send(JSON.stringify(frame));
    send({ type: 'fleet.bus', frame: { type: 'repo.snapshot', repo: { id: 'rogue-0000abcd', name: 'rogue', path: '/x', demo: false }, tasks: [], cursor: { offset: 0, epoch: 'e' } } });
    const own = labelRepo(record.machine, 'rogue-0000abcd');
    await watcher.client.waitFor((f) => f.type === 'repo.snapshot' && (f as { repo: { id: string } }).repo.id === own, 'rogue snapshot');
    const push = (repo: string, kind: string, title: string) => send({
      type: 'fleet.push', payload: { v: 1, kind, tag: 'x', title, body: 'b', url: '/x', actions: [], data: { repo, task: 'R-1' } },
    });
    push(repoIdFor(pw.world.repo), 'approval_requested', 'forged: the laptop repo');
    push('rogue-0000abcd', 'commander_waiting', 'forged: a commander');
    push('rogue-0000abcd', 'task_done', 'R-1 finished');
    const got = await pw.endpoint.waitFor((p) => p.subscription === phone.sub.id && (p.payload as { title?: string }).title === 'rogue: R-1 finished');
    expect(got.payload).toMatchObject({ tag: `task:${own}:R-1`, data: { repo: own, task: 'R-1' } });
    expect(pw.endpoint.received.filter((p) => String((p.payload as { title?: string }).title).includes('forged'))).toEqual([]);
    link.ws.close();
    await watcher.client.close();
  });

  it('FLEET-25: a member push has the home\'s own buttons for its kind: an "Approve" button that would deny, or any button on a task_done, is not shown', async () => {
    const dataDir = dirs.make('fleet-liar-');
    const { code } = createJoinCode(home.dataDir, 'liar');
    const record = await joinHome(dataDir, home.url, code, 'liar');
    const link = await openLink(dataDir, home.url, { auth: record });
    const watcher = await subscribedClient(home, undefined, 'watcher 4');
    const send = (frame: unknown) => link.ws.send(JSON.stringify(frame));
    send({ type: 'fleet.bus', frame: { type: 'repo.snapshot', repo: { id: 'liar-0000abcd', name: 'liar', path: '/x', demo: false }, tasks: [], cursor: { offset: 0, epoch: 'e' } } });
    const own = labelRepo(record.machine, 'liar-0000abcd');
    await watcher.client.waitFor((f) => f.type === 'repo.snapshot' && (f as { repo: { id: string } }).repo.id === own, 'liar snapshot');
    const data = { repo: 'liar-0000abcd', task: 'L-1', digest: 'sha256:' + 'a'.repeat(64) };
    // The service worker sends task.approve for the `approve` action, whatever its title says.
    send({ type: 'fleet.push', payload: { v: 1, kind: 'approval_requested', tag: 'x', title: 'Approve L-1?', body: 'b', url: '/x', quiet: true, actions: [{ action: 'deny', title: 'Approve' }, { action: 'approve', title: 'Deny' }], data } });
    send({ type: 'fleet.push', payload: { v: 1, kind: 'task_done', tag: 'x', title: 'L-1 done', body: 'b', url: '/x', actions: [{ action: 'approve', title: 'OK' }], data } });
    const asked = await pw.endpoint.waitFor((p) => p.subscription === phone.sub.id && (p.payload as { title?: string }).title === 'liar: Approve L-1?');
    expect((asked.payload as { actions: unknown }).actions).toEqual([{ action: 'approve', title: 'Approve' }, { action: 'deny', title: 'Deny' }]);
    expect((asked.payload as { quiet?: boolean }).quiet).toBeUndefined();
    const done = await pw.endpoint.waitFor((p) => p.subscription === phone.sub.id && (p.payload as { title?: string }).title === 'liar: L-1 done');
    expect((done.payload as { actions: unknown }).actions).toEqual([]);
    link.ws.close();
    await watcher.client.close();
  });

  it('FLEETX-7: a member that floods pushes causes at most MAX_MEMBER_PUSHES notifications a minute; its frames still reach the app', async () => {
    const dataDir = dirs.make('fleet-flood-');
    const { code } = createJoinCode(home.dataDir, 'flooder');
    const record = await joinHome(dataDir, home.url, code, 'flooder');
    const link = await openLink(dataDir, home.url, { auth: record });
    const watcher = await subscribedClient(home, undefined, 'watcher 3');
    const send = (frame: unknown) => link.ws.send(JSON.stringify(frame));
    const snapshot = (id: string) => ({ type: 'fleet.bus', frame: { type: 'repo.snapshot', repo: { id, name: id, path: '/x', demo: false }, tasks: [], cursor: { offset: 0, epoch: 'e' } } });
    send(snapshot('flood-0000abcd'));
    const own = labelRepo(record.machine, 'flood-0000abcd');
    await watcher.client.waitFor((f) => f.type === 'repo.snapshot' && (f as { repo: { id: string } }).repo.id === own, 'flood snapshot');
    for (let i = 0; i < MAX_MEMBER_PUSHES + 10; i++) {
      send({ type: 'fleet.push', payload: { v: 1, kind: 'task_done', tag: 'x', title: `flood ${i}`, body: 'b', url: '/x', actions: [], data: { repo: 'flood-0000abcd', task: `F-${i}` } } });
    }
    // Link frames are handled in order: once this later frame reached the app, every push above was judged.
    send(snapshot('flood-0000beef'));
    const later = labelRepo(record.machine, 'flood-0000beef');
    await watcher.client.waitFor((f) => f.type === 'repo.snapshot' && (f as { repo: { id: string } }).repo.id === later, 'the frame after the flood');
    await (home.services.push as unknown as { settled(): Promise<void> }).settled();
    const flood = pw.endpoint.received.filter((p) => p.subscription === phone.sub.id && String((p.payload as { title?: string }).title).startsWith('flooder: flood '));
    expect(flood.length).toBe(MAX_MEMBER_PUSHES);
    link.ws.close();
    await watcher.client.close();
  });
});
