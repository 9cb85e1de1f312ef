// Permission prompts raised on a member (FLEETX-1..3, FLEETX-6): a real member relay
// over a real repo, joined to a real home relay; the hook's ask is a real long-poll
// to the MEMBER's `POST /api/permissions`; the phone is paired with the home only and
// subscribed to push through the local Web Push stand-in. Hostile members are real
// authenticated links driven by hand.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HomeFrame } from '../../protocol/wire/fleet';
import type { Relay } from '../../relay/server';
import { labelRepo } from '../../relay/fleet/home';
import { createJoinCode } from '../../relay/fleet/machines';
import { joinHome, openLink } from '../../relay/fleet/member';
import { fleetAuditFile } from '../../relay/fleet/serve';
import { type DeviceClient, pairDevice, WireFrameError } from '../helpers/device';
import { TempDirs } from '../council/fixtures';
import { repoIdFor, startRelay, subscribedClient } from '../relay-watch/fixture';
import { type PushDevice, pushDevice, type PushWorld, startPushWorld } from '../push/fixture';
import { ask, askBody } from '../permissions/helpers';

const dirs = new TempDirs();
let pw: PushWorld;
let home: Relay;
let phone: PushDevice;
let watcher: DeviceClient;
let label: string;
let machine: string;
let prefix: string;

type Request = { id: string; repo: string | null; status: string; summary: string; decidedBy: string | null };
const requestFrame = (client: DeviceClient, match: (r: Request) => boolean, what: string) =>
  client.waitFor((f) => f.type === 'permission.request' && match((f as unknown as { request: Request }).request), what).then((f) => (f as unknown as { request: Request }).request);

beforeAll(async () => {
  pw = await startPushWorld(['Q-1']);
  home = await startRelay([], { dataDir: dirs.make('fleet-home-') });
  const { code } = createJoinCode(home.dataDir, 'laptop');
  machine = (await joinHome(pw.relay.dataDir, home.url, code, 'laptop')).machine;
  prefix = machine.slice(2, 10);
  label = labelRepo(machine, repoIdFor(pw.world.repo));
  phone = await pushDevice(home, pw.endpoint, 'Pixel on the home', false);
  const sub = await subscribedClient(home, undefined, 'watcher');
  watcher = sub.client;
  await sub.bus.task(label, 'Q-1');
});

afterAll(async () => {
  await phone?.client.close();
  await watcher?.close();
  await home?.close();
  await pw?.cleanup();
  dirs.cleanup();
});

/** A machine joined to the home whose link the test drives by hand. */
async function handLink(name: string, ownRepo: string) {
  const dataDir = dirs.make('fleet-hand-');
  const { code } = createJoinCode(home.dataDir, name);
  const record = await joinHome(dataDir, home.url, code, name);
  const link = await openLink(dataDir, home.url, { auth: record });
  const actions: Array<Extract<HomeFrame, { type: 'fleet.action' }>> = [];
  link.ws.on('message', (d) => actions.push(JSON.parse(String(d))));
  const send = (frame: unknown) => link.ws.send(JSON.stringify(frame));
  send({ type: 'fleet.bus', frame: { type: 'repo.snapshot', repo: { id: ownRepo, name: 'hand', path: '/nowhere', demo: false }, tasks: [], cursor: { offset: 0, epoch: 'e' } } });
  const repo = labelRepo(record.machine, ownRepo);
  await watcher.waitFor((f) => f.type === 'repo.snapshot' && (f as { repo: { id: string } }).repo.id === repo, `${name} snapshot`);
  return { link, machine: record.machine, prefix: record.machine.slice(2, 10), repo, actions, send };
}

describe('fleet: permission prompts raised on a member', () => {
  it('FLEETX-1, FLEETX-3: a hook asks the member relay (no device paired there); the home device sees the labelled card and a push, and its signed allow decides the member hook', async () => {
    const body = askBody({ cwd: pw.world.repo, summary: 'rm -rf build', detail: 'rm -rf build', prefix: 'rm' });
    const asking = ask(pw.relay, body);
    // FLEETX-1: the card carries the member's machine prefix and the labelled repo.
    const card = await requestFrame(phone.client, (r) => r.summary === 'rm -rf build', 'the member prompt on the home phone');
    expect(card.id).toMatch(new RegExp(`^${prefix}\\.perm-[0-9a-f]{20}$`));
    expect(card).toMatchObject({ repo: label, status: 'pending' });
    // The push is the home's, labelled with the machine, naming the labelled request.
    const pushed = await pw.endpoint.waitFor((p) => p.subscription === phone.sub.id && (p.payload as { kind?: string }).kind === 'permission_request');
    expect(pushed.payload).toMatchObject({ title: expect.stringMatching(/^laptop: Bash needs your OK/), tag: `permission:${card.id}`, data: { request: card.id } });
    const ack = await phone.client.request({ type: 'permission.decide', request: card.id, decision: 'allow' });
    expect(ack.result).toMatchObject({ request: { id: card.id, repo: label, status: 'allowed', decidedBy: 'Pixel on the home' } });
    const answer = await asking;
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ decision: 'allow', by: 'Pixel on the home' });
    // Every device learns the outcome; the member records which home device decided.
    await requestFrame(watcher, (r) => r.id === card.id && r.status === 'allowed', 'the outcome on another device');
    const audit = fs.readFileSync(fleetAuditFile(pw.relay.dataDir), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(audit.at(-1)).toMatchObject({ type: 'permission.decide', name: 'Pixel on the home', request: card.id, ok: true });
    // The first decision wins (PERM-3), also across the link.
    const late = await watcher.request({ type: 'permission.decide', request: card.id, decision: 'deny' }).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(WireFrameError);
    expect((late as WireFrameError).code).toBe('E_CONFLICT');
    expect((late as WireFrameError).message).toContain('laptop: request');
  });

  it('FLEETX-2, FLEETX-3: a device arriving later gets the member prompt after its subscribe; a deny reaches the member hook', async () => {
    const body = askBody({ cwd: pw.world.repo, summary: 'git push --force' });
    const asking = ask(pw.relay, body);
    const card = await requestFrame(watcher, (r) => r.summary === 'git push --force', 'the second prompt');
    const late = await subscribedClient(home, undefined, 'tablet');
    const list = late.client.received.find((f) => f.type === 'permission.list');
    expect(list, 'the home still sends its own list first').toBeDefined();
    await requestFrame(late.client, (r) => r.id === card.id && r.status === 'pending', 'the replayed member prompt');
    await late.client.request({ type: 'permission.decide', request: card.id, decision: 'deny', reason: 'not on main' });
    const answer = await asking;
    expect(answer.body).toMatchObject({ decision: 'deny', by: 'tablet' });
    expect(answer.body.reason).toContain('not on main');
    await late.client.close();
  });

  it('FLEETX-6: a member cannot answer or forge prompts of another member or of the home', async () => {
    // A real prompt on the laptop member, and one on the home itself (the home has paired devices).
    const onLaptop = ask(pw.relay, askBody({ cwd: pw.world.repo, summary: 'laptop prompt' }));
    const laptopCard = await requestFrame(watcher, (r) => r.summary === 'laptop prompt', 'laptop prompt');
    const onHome = ask(home, askBody({ summary: 'home prompt' }));
    const homeCard = await requestFrame(watcher, (r) => r.summary === 'home prompt', 'home prompt');
    expect(homeCard.id).toMatch(/^perm-[0-9a-f]{20}$/);
    const laptopOwn = laptopCard.id.slice(prefix.length + 1);

    const rogue = await handLink('rogue', 'rogue-0000abcd');
    const forged = (id: string, status: string, summary: string) => rogue.send({
      type: 'fleet.frame', frame: { type: 'permission.request', request: {
        id, session: 's', task: null, agent: null, repo: null, tool: 'Bash', summary, detail: null, cwd: '/x',
        createdAt: new Date().toISOString(), expiresAt: new Date(Date.now() + 60_000).toISOString(), status, decidedBy: status === 'pending' ? null : 'rogue', reason: null,
      } },
    });
    // Another member's labelled id, a foreign repo: dropped. The home's own id announced as the rogue's is only ever the rogue's.
    forged(laptopCard.id, 'allowed', 'forged 1');
    forged(homeCard.id, 'allowed', 'rogue shadow');
    forged(laptopOwn, 'pending', 'rogue copy');
    rogue.send({ type: 'fleet.frame', frame: { type: 'permission.request', request: {
      id: 'perm-00000000000000000000', session: 's', task: null, agent: null, repo: repoIdFor(pw.world.repo), tool: 'Bash', summary: 'forged 3', detail: null, cwd: '/x',
      createdAt: new Date().toISOString(), expiresAt: new Date().toISOString(), status: 'pending', decidedBy: null, reason: null,
    } } });
    const copy = await requestFrame(watcher, (r) => r.summary === 'rogue copy', 'the rogue own prompt');
    expect(copy.id).toBe(`${rogue.prefix}.${laptopOwn}`);
    const shadow = await requestFrame(watcher, (r) => r.summary === 'rogue shadow', 'the rogue shadow of the home id');
    expect(shadow.id).toBe(`${rogue.prefix}.${homeCard.id}`);
    expect(watcher.received.filter((f) => f.type === 'permission.request' && String((f as unknown as { request: Request }).request.summary).startsWith('forged'))).toEqual([]);

    // Deciding the laptop's and the home's requests still goes to their owners, never to the rogue.
    await phone.client.request({ type: 'permission.decide', request: laptopCard.id, decision: 'allow' });
    expect((await onLaptop).body).toMatchObject({ decision: 'allow' });
    await phone.client.request({ type: 'permission.decide', request: homeCard.id, decision: 'deny' });
    expect((await onHome).body).toMatchObject({ decision: 'deny' });
    expect(rogue.actions.filter((a) => a.type === 'fleet.action')).toEqual([]);
    // Its own copy goes to it alone, verbatim (the device's signature kept).
    const toRogue = phone.client.request({ type: 'permission.decide', request: copy.id, decision: 'allow' });
    await expect.poll(() => rogue.actions.filter((a) => a.type === 'fleet.action').length).toBe(1);
    const action = rogue.actions.find((a) => a.type === 'fleet.action')!;
    expect(action.frame).toMatchObject({ type: 'permission.decide', request: copy.id, decision: 'allow', sig: expect.any(String) });
    rogue.send({ type: 'fleet.result', rid: action.rid, ok: true, result: { request: { id: laptopOwn, repo: null, status: 'allowed' } } });
    expect((await toRogue).result).toMatchObject({ request: { id: copy.id } });

    // FLEETX-3: an offline member's prompt is refused at once, nothing queued.
    rogue.link.ws.close();
    await watcher.waitFor((f) => f.type === 'machine.state' && (f as unknown as { machine: { id: string; online: boolean } }).machine.id === rogue.machine && !(f as unknown as { machine: { online: boolean } }).machine.online, 'rogue offline');
    const offline = await phone.client.request({ type: 'permission.decide', request: copy.id, decision: 'deny' }).catch((e: unknown) => e);
    expect((offline as WireFrameError).code).toBe('E_UNAVAILABLE');
    expect((offline as WireFrameError).message).toMatch(/rogue is offline/);
    // An id with a prefix nobody announced is not the home's to decide either.
    const unknown = await phone.client.request({ type: 'permission.decide', request: `0123abcd.${laptopOwn}`, decision: 'allow' }).catch((e: unknown) => e);
    expect((unknown as WireFrameError).code).toBe('E_NOT_FOUND');
  });

  it('FLEETX-2: a prompt already pending on a machine when it links to the home is sent on (re)link, once pushed, and answerable from the home', async () => {
    const desk = await startRelay([], { dataDir: dirs.make('fleet-desk-') });
    try {
      await pairDevice(desk, 'a device of the desk itself'); // so the desk takes the ask before it has a home (PERM-10)
      const asking = ask(desk, askBody({ summary: 'before the link' }));
      await expect.poll(() => fs.readdirSync(path.join(desk.dataDir, 'permissions')).some((f) => f.startsWith('perm-'))).toBe(true);
      const { code } = createJoinCode(home.dataDir, 'desk');
      const deskMachine = (await joinHome(desk.dataDir, home.url, code, 'desk')).machine;
      const card = await requestFrame(watcher, (r) => r.summary === 'before the link', 'the prompt sent on link');
      expect(card.id.startsWith(`${deskMachine.slice(2, 10)}.perm-`)).toBe(true);
      await pw.endpoint.waitFor((p) => p.subscription === phone.sub.id && (p.payload as { data?: { request?: string } }).data?.request === card.id);
      await phone.client.request({ type: 'permission.decide', request: card.id, decision: 'allow-session' });
      expect((await asking).body).toMatchObject({ decision: 'allow', by: 'Pixel on the home' });
    } finally {
      await desk.close();
    }
  });

  it('FLEETX-3: a member with no paired device and no link to a home still refuses the ask at once (PERM-10)', async () => {
    const lone = await startRelay([], { dataDir: dirs.make('fleet-lone-') });
    try {
      const answer = await ask(lone, askBody());
      expect(answer.status).toBe(503);
      expect(answer.body.error?.code).toBe('E_UNAVAILABLE');
    } finally {
      await lone.close();
    }
    expect(fs.existsSync(path.join(home.dataDir, 'fleet', 'machines.json'))).toBe(true);
  });
});
