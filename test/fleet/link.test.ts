// The fleet link: three real relays on port 0 (a home and two members, each with
// its own data dir, machine key and repo) and a paired device on the home.
import WebSocket from 'ws';
import { describe, expect, it } from 'vitest';
import { appendProgress } from '../../bus/progress';
import { FLEET_PATH, MAX_MEMBER_STATE_CHARS } from '../../protocol/wire/fleet';
import { labelRepo } from '../../relay/fleet/home';
import { homeName } from '../../relay/fleet/device-frames';
import { fingerprintOf, loadMachineKey } from '../../relay/fleet/keys';
import { createJoinCode, listMachines, removeMachine } from '../../relay/fleet/machines';
import { fleetUrl, joinHome, openLink, readHome } from '../../relay/fleet/member';
import { makeRepo, packetText, writePacket } from '../council/fixtures';
import { fleetRelays } from './member-fixture';
import * as fs from 'node:fs';
import { registryOf, repoIdFor, subscribedClient } from '../relay-watch/fixture';

const fleet = fleetRelays('fleet-data-');

/** One masked client text frame, written straight to the socket (the hostile member's own framing). */
function wsTextFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const mask = Buffer.from([1, 2, 3, 4]);
  const head = payload.length < 126 ? Buffer.from([0x81, 0x80 | payload.length]) : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 255]);
  return Buffer.concat([head, mask, Buffer.from(payload.map((b, i) => b ^ mask[i % 4]!))]);
}

/** A home with a subscribed device, and a member joined and linked to it by hand (it can send anything). */
async function linkedMember(name: string) {
  const home = await fleet.relay([]);
  const { client } = await subscribedClient(home);
  const joiner = fleet.dirs.make('fleet-member-');
  const { code } = createJoinCode(home.dataDir, name);
  const record = await joinHome(joiner, home.url, code, name);
  const link = await openLink(joiner, home.url, { auth: record });
  return { home, client, record, link };
}

describe('fleet link', () => {
  it('FLEET-1 FLEET-2 FLEET-3: two members join a home with one-time codes; the home device sees every member task labelled by machine, live', async () => {
    const home = await fleet.relay([]);
    const { client, bus } = await subscribedClient(home);
    const a = await fleet.member(home, 'laptop');
    const b = await fleet.member(home, 'desktop');
    expect(listMachines(home.dataDir).map((m) => m.name).sort()).toEqual(['desktop', 'laptop']);
    expect(readHome(a.relay.dataDir)).toMatchObject({ url: home.url, fingerprint: loadMachineKey(home.dataDir).fingerprint, machine: a.machine });
    // Each member relay notices its home record and links; its repo reaches the home's device.
    const repoA = labelRepo(a.machine, repoIdFor(a.repo));
    const repoB = labelRepo(b.machine, repoIdFor(b.repo));
    expect(repoA).not.toBe(repoB);
    await bus.task(repoA, 'LAPTOP-1');
    await bus.task(repoB, 'DESKTOP-1');
    const snap = bus.snapshots.find((s) => s.repo === repoA)!;
    expect(snap.tasks.map((t) => [t.repo, t.id, t.state])).toEqual([[repoA, 'LAPTOP-1', 'inbox']]);
    const labelled = client.received.find((f) => f.type === 'repo.snapshot' && (f as { repo: { id: string } }).repo.id === repoA) as unknown as { repo: { name: string } };
    expect(labelled.repo.name).toMatch(/^laptop\//);
    // A bus event on a member reaches the home's device.
    appendProgress(b.bus, 'DESKTOP-1', 'halfway there');
    const ev = await bus.event('task_progress', 'DESKTOP-1');
    expect(ev.repo).toBe(repoB);
    expect(ev.event.note).toBe('halfway there');
    await client.close();
  });

  it('FLEET-2: the member refuses a relay whose key is not the fingerprint in the code; a code works once', async () => {
    const home = await fleet.relay([]);
    const impostor = await fleet.relay([]);
    const joiner = fleet.dirs.make('fleet-member-');
    const { code } = createJoinCode(home.dataDir, 'm1');
    await expect(joinHome(joiner, impostor.url, code, 'm1')).rejects.toThrow(/not the home this code was made for/);
    expect(readHome(joiner)).toBeUndefined();
    const joined = await joinHome(joiner, home.url, code, 'm1');
    expect(joined.fingerprint).toBe(fingerprintOf(loadMachineKey(home.dataDir).publicKey));
    await expect(joinHome(fleet.dirs.make('fleet-member-'), home.url, code, 'm2')).rejects.toThrow(/unknown, expired or already used/);
    expect(listMachines(home.dataDir)).toHaveLength(1);
    await expect(joinHome(joiner, home.url, 'not-a-code', 'm1')).rejects.toThrow(/join code looks like/);
  });

  it('FLEET-2: a joining machine cannot take another machine\'s name: the name given to its code wins, and a name already used gets a suffix', async () => {
    const home = await fleet.relay([]);
    const join = async (codeName: string | undefined, asked: string) => {
      const { code } = createJoinCode(home.dataDir, codeName);
      const joined = await joinHome(fleet.dirs.make('fleet-member-'), home.url, code, asked);
      return { name: joined.name, listed: listMachines(home.dataDir).find((m) => m.id === joined.machine)!.name };
    };
    expect(await join('laptop', 'laptop')).toEqual({ name: 'laptop', listed: 'laptop' });
    // A code made for "desktop" (say, stolen) cannot join as the trusted "laptop".
    expect(await join('desktop', 'laptop')).toEqual({ name: 'desktop', listed: 'desktop' });
    // A code made without a name lets the machine name itself, but never after another machine or the home.
    expect(await join(undefined, 'laptop')).toEqual({ name: 'laptop-2', listed: 'laptop-2' });
    expect(await join(undefined, 'studio')).toEqual({ name: 'studio', listed: 'studio' });
    expect((await join(undefined, homeName())).name).toBe(`${homeName()}-2`);
    expect(listMachines(home.dataDir).map((m) => m.name).sort()).toEqual(['desktop', `${homeName()}-2`, 'laptop', 'laptop-2', 'studio'].sort());
  });

  it('FLEET-1: the member refuses a plain-http home off loopback before sending anything (its code is not spent); https and loopback http are taken', async () => {
    const home = await fleet.relay([]);
    const joiner = fleet.dirs.make('fleet-member-');
    const { code } = createJoinCode(home.dataDir, 'lan');
    for (const url of ['http://192.0.2.1:8787', 'http://desktop.lan:8787', 'http://127.0.0.1.evil.example:8787', 'http://[::ffff:c000:201]:8787']) {
      await expect(joinHome(joiner, url, code, 'lan')).rejects.toMatchObject({ code: 'E_FORBIDDEN', message: expect.stringMatching(/plain http off this machine/) });
    }
    expect(readHome(joiner)).toBeUndefined();
    expect(fleetUrl('https://home.example:8787/x?y')).toBe('wss://home.example:8787/fleet');
    expect(fleetUrl('http://localhost:8787')).toBe('ws://localhost:8787/fleet');
    expect(fleetUrl('http://[::1]:8787')).toBe('ws://[::1]:8787/fleet');
    expect(new URL(home.url).hostname).toBe('127.0.0.1');
    expect((await joinHome(joiner, home.url, code, 'lan')).machine).toMatch(/^m-/);
  });

  it('FLEET-6: a removed machine loses its link and cannot authenticate again without a new code', async () => {
    const home = await fleet.relay([]);
    const joiner = fleet.dirs.make('fleet-member-');
    const { code } = createJoinCode(home.dataDir, 'gone');
    const record = await joinHome(joiner, home.url, code, 'gone');
    const link = await openLink(joiner, home.url, { auth: record });
    const closed = new Promise<number>((resolve) => link.ws.once('close', (c) => resolve(c)));
    expect(removeMachine(home.dataDir, record.machine)).toBe(true);
    expect(await closed).toBe(1008);
    await expect(openLink(joiner, home.url, { auth: record })).rejects.toThrow(/unknown or removed machine/);
  });

  it('FLEET-6: a removed machine that ignores the close handshake is cut off: nothing it sends after its removal reaches a device', async () => {
    const { home, client, record, link } = await linkedMember('rogue');
    const snapshot = (id: string) => JSON.stringify({ type: 'fleet.bus', frame: { type: 'repo.snapshot', repo: { id, name: id, path: '/nowhere', demo: false }, tasks: [], cursor: { offset: 0, epoch: 'e' } } });
    const snapOf = (id: string) => (f: { type: string }) => f.type === 'repo.snapshot' && (f as unknown as { repo: { id: string } }).repo.id === labelRepo(record.machine, id);
    link.ws.send(snapshot('before-11111111'));
    await client.waitFor(snapOf('before-11111111'), 'the member repo');
    // A hostile member never reads what the home sends, so it never answers the close frame.
    const socket = (link.ws as unknown as { _socket: import('node:net').Socket })._socket;
    socket.removeAllListeners('data');
    socket.on('data', () => undefined);
    const cut = new Promise<string>((resolve) => socket.once('close', () => resolve('cut')));
    expect(removeMachine(home.dataDir, record.machine)).toBe(true);
    await client.waitFor((f) => f.type === 'machine.removed', 'machine.removed');
    socket.write(wsTextFrame(snapshot('after-22222222')));
    const first = await Promise.race([cut, client.waitFor(snapOf('after-22222222'), 'the late repo').then(() => 'delivered')]);
    expect(first).toBe('cut');
    expect(client.received.filter(snapOf('after-22222222'))).toEqual([]);
    await client.close();
  });

  it('FLEET-3: a repo the member starts watching while linked reaches the home device, and its events follow', async () => {
    const home = await fleet.relay([]);
    const { client, bus } = await subscribedClient(home);
    const first = makeRepo(fleet.dirs);
    writePacket(first.bus, 'inbox', 'EARLY-1.md', packetText('EARLY-1'));
    const m = await fleet.relay([]);
    fs.writeFileSync(registryOf(m.dataDir), `${first.repo}\n`);
    const { code } = createJoinCode(home.dataDir, 'lab');
    const { machine } = await joinHome(m.dataDir, home.url, code, 'lab');
    // The first repo arrived over the link: it is up before the second is listed.
    await bus.task(labelRepo(machine, repoIdFor(first.repo)), 'EARLY-1');
    const second = makeRepo(fleet.dirs);
    writePacket(second.bus, 'inbox', 'LATE-1.md', packetText('LATE-1'));
    fs.writeFileSync(registryOf(m.dataDir), `${first.repo}\n${second.repo}\n`);
    const label = labelRepo(machine, repoIdFor(second.repo));
    await bus.task(label, 'LATE-1');
    expect(bus.snapshots.find((s) => s.repo === label)!.tasks.map((t) => [t.repo, t.id])).toEqual([[label, 'LATE-1']]);
    appendProgress(second.bus, 'LATE-1', 'after the add');
    expect((await bus.event('task_progress', 'LATE-1')).repo).toBe(label);
    await client.close();
  });

  it('FLEET-22: a repo the member stops watching is removed on the home device and forgotten by the home', async () => {
    const home = await fleet.relay([]);
    const { client, bus } = await subscribedClient(home);
    const { repo, bus: memberBus } = makeRepo(fleet.dirs);
    writePacket(memberBus, 'inbox', 'GONE-1.md', packetText('GONE-1'));
    const m = await fleet.relay([]);
    const { code } = createJoinCode(home.dataDir, 'lab');
    const { machine } = await joinHome(m.dataDir, home.url, code, 'lab');
    fs.writeFileSync(registryOf(m.dataDir), `${repo}\n`);
    const label = labelRepo(machine, repoIdFor(repo));
    await bus.task(label, 'GONE-1');
    fs.writeFileSync(registryOf(m.dataDir), '');
    await client.next('repo.removed', (f) => f.repo === label);
    const late = await subscribedClient(home, undefined, 'late');
    await late.client.waitFor((f) => f.type === 'machine.state', 'machine state');
    expect(late.client.received.filter((f) => f.type === 'repo.snapshot' && (f as { repo: { id: string } }).repo.id === label)).toEqual([]);
    expect((late.client.received.find((f) => f.type === 'machine.state') as unknown as { machine: { repos: string[] } }).machine.repos).toEqual([]);
    const gone = await client.request({ type: 'task.detail', repo: label, task: 'GONE-1' }).catch((e: { code: string }) => e);
    expect((gone as { code: string }).code).toBe('E_UNKNOWN_REPO');
    await late.client.close();
    await client.close();
  });

  it('FLEET-22: the home keeps at most MAX_MEMBER_STATE_CHARS of one member\'s repo state: a snapshot past it is dropped, a task growing past it is not kept', async () => {
    const { home, client, record, link } = await linkedMember('hoarder');
    const note = 'x'.repeat(3.5 * 1024 * 1024); // a frame carries at most 4 MiB; many frames carry much more
    const task = (repo: string, id: string) => ({
      repo, id, file: `${id}.md`, type: 'implementation', scope: null, title: id, state: 'inbox', owner: null, blockedBy: [], lastNote: note,
      lastEventTs: null, verdict: null, annotations: { total: 0, unconsumed: 0 }, pendingApproval: null, result: null,
    });
    const repoId = (i: number) => `big${i}-${i.toString(16).padStart(8, '0')}`;
    const snapshot = (id: string, tasks: unknown[]) => ({ type: 'fleet.bus', frame: { type: 'repo.snapshot', repo: { id, name: id, path: '/nowhere', demo: false }, tasks, cursor: { offset: 0, epoch: 'e' } } });
    const fit = Math.floor(MAX_MEMBER_STATE_CHARS / (note.length + 1024));
    for (let i = 0; i <= fit; i += 1) link.ws.send(JSON.stringify(snapshot(repoId(i), [task(repoId(i), 'T-1')])));
    // A bigger task in a repo the home keeps, then a small repo: frames on one link are taken in order.
    link.ws.send(JSON.stringify({ type: 'fleet.bus', frame: { type: 'repo.tasks', repo: repoId(0), tasks: [task(repoId(0), 'T-2')] } }));
    link.ws.send(JSON.stringify(snapshot('tiny-00000000', [])));
    const labelOf = (id: string) => labelRepo(record.machine, id);
    const snapOf = (c: typeof client, id: string) => c.received.filter((f) => f.type === 'repo.snapshot' && (f as unknown as { repo: { id: string } }).repo.id === labelOf(id));
    await client.waitFor((f) => f.type === 'repo.snapshot' && (f as unknown as { repo: { id: string } }).repo.id === labelOf('tiny-00000000'), 'the small repo', 60_000);
    expect(snapOf(client, repoId(fit - 1))).toHaveLength(1);
    expect(snapOf(client, repoId(fit))).toEqual([]);
    const late = await subscribedClient(home, undefined, 'late');
    await late.client.waitFor((f) => f.type === 'machine.state', 'machine state');
    expect(snapOf(late.client, repoId(fit))).toEqual([]);
    expect((snapOf(late.client, repoId(0))[0] as unknown as { tasks: Array<{ id: string }> }).tasks.map((t) => t.id)).toEqual(['T-1']);
    expect(snapOf(late.client, 'tiny-00000000')).toHaveLength(1);
    await late.client.close();
    await client.close();
  }, 120_000);

  it('FLEETX-2: a member\'s prompts, jobs and commanders count against the same MAX_MEMBER_STATE_CHARS: a prompt past it is dropped', async () => {
    const { home, client, record, link } = await linkedMember('hoarder');
    const summary = 'x'.repeat(3.5 * 1024 * 1024);
    const id = (i: number) => `perm-${i.toString(16).padStart(20, '0')}`;
    const prompt = (i: number, text: string) => JSON.stringify({ type: 'fleet.frame', frame: { type: 'permission.request', request: {
      id: id(i), session: 's', task: null, agent: null, repo: null, tool: 'Bash', summary: text, detail: null, cwd: '/x',
      createdAt: new Date().toISOString(), expiresAt: new Date().toISOString(), status: 'denied', decidedBy: 'hoarder', reason: null,
    } } });
    const fit = Math.floor(MAX_MEMBER_STATE_CHARS / (summary.length + 1024));
    for (let i = 0; i <= fit; i += 1) link.ws.send(prompt(i, summary));
    link.ws.send(prompt(fit + 1, 'small'));
    const labelled = (i: number) => `${record.machine.slice(2, 10)}.${id(i)}`;
    const promptsOf = (c: typeof client, i: number) => c.received.filter((f) => f.type === 'permission.request' && (f as unknown as { request: { id: string } }).request.id === labelled(i));
    await client.waitFor((f) => f.type === 'permission.request' && (f as unknown as { request: { id: string } }).request.id === labelled(fit + 1), 'the small prompt', 60_000);
    expect(promptsOf(client, fit - 1)).toHaveLength(1);
    expect(promptsOf(client, fit)).toEqual([]);
    const late = await subscribedClient(home, undefined, 'late');
    await late.client.waitFor((f) => f.type === 'machine.state', 'machine state');
    expect(promptsOf(late.client, fit)).toEqual([]);
    expect(promptsOf(late.client, fit + 1)).toHaveLength(1);
    await late.client.close();
    await client.close();
  }, 120_000);

  it('FLEET-1: the fleet socket refuses browsers (any Origin) and junk before authentication', async () => {
    const home = await fleet.relay([]);
    const url = `${home.url.replace(/^http/, 'ws')}${FLEET_PATH}`;
    const refused = await new Promise<number>((resolve) => {
      const ws = new WebSocket(url, { origin: home.url });
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => resolve(101));
    });
    expect(refused).toBe(403);
    const ws = new WebSocket(url);
    const frames: Array<{ type: string; error?: { code: string } }> = [];
    ws.on('message', (d) => frames.push(JSON.parse(String(d))));
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ type: 'fleet.bus', frame: {} }));
    const code = await new Promise<number>((resolve) => ws.once('close', (c) => resolve(c)));
    expect(code).toBe(1008);
    expect(frames.map((f) => f.type)).toEqual(['fleet.hello', 'fleet.error']);
    expect(frames[1]!.error!.code).toBe('E_BAD_FRAME');
  });
});
