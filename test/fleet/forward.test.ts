// Acting on a member's repo from a device paired with the home (FLEET-20..22):
// two real relays on port 0, a real git repo made bus-ready by the real
// `commandr init` (so its pre-commit gate is the real one), a device paired with
// the home only. Hostile members are real authenticated links driven by hand.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLEET_PATH, type HomeFrame } from '../../protocol/wire/fleet';
import type { Relay } from '../../relay/server';
import { labelRepo } from '../../relay/fleet/home';
import { createJoinCode } from '../../relay/fleet/machines';
import { joinHome, openLink, type Welcomed } from '../../relay/fleet/member';
import { fleetAuditFile } from '../../relay/fleet/serve';
import { type Install, World, buildInstall, packet } from '../conformance/harness';
import { connectDevice, type DeviceClient, pairDevice, postJson, signAction, WireFrameError } from '../helpers/device';
import { DEVICE_HEADER } from '../../protocol/wire/http';
import { TempDirs } from '../council/fixtures';
import { type BusRecorder, repoIdFor, startRelay, subscribedClient } from '../relay-watch/fixture';

const dirs = new TempDirs();
let install: Install;
let world: World;
let home: Relay;
let member: Relay;
let client: DeviceClient;
let bus: BusRecorder;
let repo: string;
let machine: string;

beforeAll(async () => {
  install = await buildInstall();
  world = new World(install);
  for (const id of ['F-1', 'F-2', 'F-3']) world.write(`inbox/${id}.md`, `${packet({ id })}\n# ${id}\n`);
  home = await startRelay([], { dataDir: dirs.make('fleet-home-') });
  member = await startRelay([world.repo], { dataDir: dirs.make('fleet-member-') });
  // The member's gate trusts the member relay's approval key (COMMANDR_HOME is its data dir).
  world.env.COMMANDR_HOME = member.dataDir;
  const { code } = createJoinCode(home.dataDir, 'laptop');
  machine = (await joinHome(member.dataDir, home.url, code, 'laptop')).machine;
  repo = labelRepo(machine, repoIdFor(world.repo));
  ({ client, bus } = await subscribedClient(home, undefined, 'Pixel on the home'));
  await bus.task(repo, 'F-1');
});

afterAll(async () => {
  await client?.close();
  await member?.close();
  await home?.close();
  world?.cleanup();
  if (install) fs.rmSync(install.root, { recursive: true, force: true });
  dirs.cleanup();
});

function commit(cwd: string, message: string): { code: number | null; stderr: string } {
  const r = spawnSync('git', ['commit', '-q', '-m', message], { cwd, env: world.env, encoding: 'utf8' });
  return { code: r.status, stderr: r.stderr };
}
function stage(cwd: string, file: string, text: string): void {
  fs.writeFileSync(path.join(cwd, file), text);
  world.git(['add', file], cwd);
}
async function readDiff(who: DeviceClient, task: string, id: string): Promise<{ begin: Record<string, unknown>; patch: string }> {
  const ack = who.request({ type: 'task.diff', id, repo, task });
  const begin = await who.next('task.diff.begin', (f) => f.id === id);
  const end = await who.next('task.diff.end', (f) => f.id === id) as unknown as { chunks: number };
  await ack;
  const chunks = who.received.filter((f) => f.type === 'task.diff.chunk' && f.id === id) as unknown as { seq: number; data: string }[];
  expect(chunks).toHaveLength(end.chunks);
  return { begin: begin as unknown as Record<string, unknown>, patch: chunks.sort((a, b) => a.seq - b.seq).map((c) => c.data).join('') };
}
function auditLines(): Array<Record<string, unknown>> {
  const file = fleetAuditFile(member.dataDir);
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) : [];
}

/** A machine joined to the home whose link the test drives by hand (a hostile or silent member). */
async function handLink(name: string, ownRepo: string): Promise<{ link: Welcomed; label: string; actions: Array<Extract<HomeFrame, { type: 'fleet.action' }>>; send(frame: unknown): void; next(): Promise<Extract<HomeFrame, { type: 'fleet.action' }>> }> {
  const dataDir = dirs.make('fleet-hand-');
  const { code } = createJoinCode(home.dataDir, name);
  const record = await joinHome(dataDir, home.url, code, name);
  const link = await openLink(dataDir, home.url, { auth: record });
  const actions: Array<Extract<HomeFrame, { type: 'fleet.action' }>> = [];
  const waiters: Array<() => void> = [];
  link.ws.on('message', (d) => {
    actions.push(JSON.parse(String(d)));
    waiters.splice(0).forEach((w) => w());
  });
  const send = (frame: unknown) => link.ws.send(JSON.stringify(frame));
  send({ type: 'fleet.bus', frame: { type: 'repo.snapshot', repo: { id: ownRepo, name: 'hand', path: '/nowhere', demo: false }, tasks: [], cursor: { offset: 0, epoch: 'e' } } });
  const label = labelRepo(record.machine, ownRepo);
  await client.waitFor((f) => f.type === 'repo.snapshot' && (f as { repo: { id: string } }).repo.id === label, 'the hand member snapshot');
  let taken = 0;
  const next = async () => {
    while (actions.length <= taken) await new Promise<void>((r) => waiters.push(r));
    return actions[taken++]!;
  };
  return { link, label, actions, send, next };
}

describe('fleet: a home device acts on a member repo', () => {
  it('FLEET-20: the home device reads the member diff and approves; the approval is signed by the member key and its real git commit passes the gate', async () => {
    const wt = world.worktree('wt-F-1', 'agent/F-1');
    stage(wt, 'member.txt', 'made on the laptop\n');
    const blocked = commit(wt, 'before approval');
    expect(blocked.code).not.toBe(0);
    const other = await connectDevice(home, 'second phone');
    const { begin, patch } = await readDiff(client, 'F-1', 'fleet-diff-0001');
    expect(begin).toMatchObject({ repo, task: 'F-1', source: expect.any(String) });
    expect(patch).toContain('+made on the laptop');
    const ack = await client.request({ type: 'task.approve', id: 'fleet-approve-0001', repo, task: 'F-1', digest: begin.digest });
    expect(ack.result).toMatchObject({ task: 'F-1', token: 'written' });
    const token = JSON.parse(fs.readFileSync(path.join(world.bus, 'approvals', 'F-1.approved'), 'utf8'));
    expect(token).toMatchObject({ task: 'F-1', digest: begin.digest, by: 'Pixel on the home' });
    // Signed with the member's approval key; the home never made one.
    expect(fs.existsSync(path.join(member.dataDir, 'approval', 'private.pem'))).toBe(true);
    expect(fs.existsSync(path.join(home.dataDir, 'approval', 'private.pem'))).toBe(false);
    const passed = commit(wt, 'after approval');
    expect(passed.stderr).toBe('');
    expect(passed.code).toBe(0);
    // The forwarded action keeps the device id for audit, on the member.
    expect(auditLines()).toContainEqual(expect.objectContaining({ type: 'task.approve', id: 'fleet-approve-0001', device: client.device!.id, name: 'Pixel on the home', repo, task: 'F-1', ok: true }));
    // The diff stream and the ack went to the asking device only.
    expect(other.received.filter((f) => f.type.startsWith('task.diff') || f.type === 'ack')).toEqual([]);
    await other.close();
  });

  it('FLEET-20: detail, timeline, annotate and deny reach the member; results carry the labelled repo id; a repeated action id is applied once', async () => {
    const detail = await client.request({ type: 'task.detail', repo, task: 'F-2' });
    expect(detail.result).toMatchObject({ summary: { repo, id: 'F-2' }, body: expect.stringContaining('# F-2') });
    const note = { type: 'task.annotate', id: 'fleet-annot-0001', repo, task: 'F-2', turn: 1, anchor: 'general', body: 'from the home phone' };
    const first = await client.request(note);
    const again = await client.request(note);
    expect(again.result).toEqual(first.result);
    const notes = fs.readdirSync(path.join(world.bus, 'annotations', 'F-2'));
    expect(notes).toHaveLength(1);
    expect(fs.readFileSync(path.join(world.bus, 'annotations', 'F-2', notes[0]!), 'utf8')).toContain('from the home phone');
    const timeline = await client.request({ type: 'task.timeline', repo, task: 'F-2' });
    expect(timeline.result).toMatchObject({ repo });
    expect((timeline.result as { events: Array<{ event: { event: string } }> }).events.map((e) => e.event.event)).toContain('task_annotation');
    const wt = world.worktree('wt-F-2', 'agent/F-2');
    stage(wt, 'deny.txt', 'no thanks\n');
    const { begin } = await readDiff(client, 'F-2', 'fleet-diff-0002');
    await client.request({ type: 'task.deny', repo, task: 'F-2', digest: begin.digest, reason: 'not this' });
    expect(world.events()).toContainEqual(expect.objectContaining({ event: 'approval_denied', task: 'F-2', by: 'Pixel on the home', reason: 'not this' }));
    // A member's own error comes back with its code, prefixed by the machine name.
    const missing = await client.request({ type: 'task.detail', repo, task: 'F-404' }).catch((e: WireFrameError) => e);
    expect(missing).toBeInstanceOf(WireFrameError);
    expect((missing as WireFrameError).code).toBe('E_UNKNOWN_TASK');
    expect((missing as WireFrameError).message).toContain('laptop:');
  });

  it('FLEET-21: a fleet.action sent to a relay by anyone but its verified home is refused, and nothing is applied', async () => {
    const wt = world.worktree('wt-F-3', 'agent/F-3');
    stage(wt, 'forged.txt', 'forged approval\n');
    const { begin } = await readDiff(client, 'F-3', 'fleet-diff-0003');
    // Straight to the member's fleet socket: it is a home's door, not a member's, and takes no actions.
    const ws = new WebSocket(`${member.url.replace(/^http/, 'ws')}${FLEET_PATH}`);
    const frames: Array<{ type: string; error?: { code: string } }> = [];
    ws.on('message', (d) => frames.push(JSON.parse(String(d))));
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({
      type: 'fleet.action', rid: 'f-0123456789abcdef', device: { id: client.device!.id, name: 'forger' },
      frame: { type: 'task.approve', id: 'forged-approve-01', ts: Date.now(), sig: 'x', repo, task: 'F-3', digest: begin.digest },
    }));
    expect(await new Promise<number>((r) => ws.once('close', (c) => r(c)))).toBe(1008);
    expect(frames.map((f) => f.type)).toEqual(['fleet.hello', 'fleet.error']);
    // An authenticated member cannot send actions to the home either.
    const hand = await handLink('rogue', 'rogue-0badc0de');
    const closed = new Promise<number>((r) => hand.link.ws.once('close', (c) => r(c)));
    hand.send({ type: 'fleet.action', rid: 'f-0123456789abcdef', device: { id: client.device!.id, name: 'x' }, frame: { type: 'task.approve', id: 'forged-approve-02', ts: Date.now(), sig: 'x', repo, task: 'F-3', digest: begin.digest } });
    expect(await closed).toBe(1008);
    expect(fs.existsSync(path.join(world.bus, 'approvals', 'F-3.approved'))).toBe(false);
    expect(auditLines().filter((l) => String(l.id).startsWith('forged'))).toEqual([]);
    expect(commit(wt, 'forged').code).not.toBe(0);
  });

  it('FLEET-21: only the member a request went to can answer it, only the asking device hears it, and its tasks stay in its own repo', async () => {
    const a = await handLink('quiet', 'quiet-00000001');
    const b = await handLink('nosy', 'nosy-00000002');
    const other = await connectDevice(home, 'bystander');
    // b tries to place a task into a's repo (and into the home's namespace): the home files it under b's own repo.
    b.send({ type: 'fleet.bus', frame: { type: 'repo.tasks', repo: 'nosy-00000002', tasks: [{
      repo: a.label, id: 'SNEAK-1', file: 'SNEAK-1.md', type: null, scope: null, title: 'sneak', state: 'inbox', owner: null, blockedBy: [], lastNote: null,
      lastEventTs: null, verdict: null, annotations: { total: 0, unconsumed: 0 }, pendingApproval: null, result: null,
    }] } });
    const digest = `sha256:${'a'.repeat(64)}`;
    const asked = client.request({ type: 'task.approve', id: 'fleet-approve-0100', repo: a.label, task: 'Q-1', digest });
    const action = await a.next();
    expect(action).toMatchObject({ type: 'fleet.action', device: { id: client.device!.id, name: 'Pixel on the home' }, frame: { type: 'task.approve', repo: a.label, task: 'Q-1', sig: expect.any(String) } });
    // b guesses a's request id: ignored. a streams frames that do not belong to an approve: dropped.
    b.send({ type: 'fleet.result', rid: action.rid, ok: true, result: { forged: true } });
    a.send({ type: 'fleet.stream', rid: action.rid, frame: { type: 'task.diff.chunk', id: 'fleet-approve-0100', seq: 0, data: 'injected' } });
    a.send({ type: 'fleet.result', rid: action.rid, ok: true, result: { task: 'Q-1', repo: 'quiet-00000001' } });
    const ack = await asked;
    expect(ack.result).toEqual({ task: 'Q-1', repo: a.label });
    expect(client.received.filter((f) => f.type === 'task.diff.chunk' && f.id === 'fleet-approve-0100')).toEqual([]);
    expect(other.received.filter((f) => f.type === 'ack' || f.type === 'task.diff.chunk')).toEqual([]);
    const sneak = client.received.find((f) => f.type === 'repo.tasks' && JSON.stringify(f).includes('SNEAK-1')) as unknown as { repo: string; tasks: Array<{ repo: string }> };
    expect(sneak.repo).toBe(b.label);
    expect(sneak.tasks[0]!.repo).toBe(b.label);
    // A revoked device's action is refused at the home and never forwarded: the next frame a sees is the bystander's.
    const lost = await pairDevice(home, 'lost phone');
    home.services.devices.revoke(lost.id);
    const refused = await postJson(home, '/api/action', signAction(lost, { type: 'task.approve', id: 'fleet-lost-000001', repo: a.label, task: 'Q-1', digest }), { [DEVICE_HEADER]: lost.id });
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body).error.code).toBe('E_UNAUTHORIZED');
    const later = other.request({ type: 'task.deny', id: 'fleet-deny-0101', repo: a.label, task: 'Q-1', digest });
    const seen = await a.next();
    expect(seen.device.name).toBe('bystander');
    // The member's link drops before it answers: the device gets a clear error, then the machine is offline.
    a.link.ws.terminate();
    const dropped = await later.catch((e: WireFrameError) => e);
    expect((dropped as WireFrameError).code).toBe('E_UNAVAILABLE');
    expect((dropped as WireFrameError).message).toMatch(/quiet dropped before it answered task.deny/);
    const offline = await client.request({ type: 'task.detail', repo: a.label, task: 'Q-1' }).catch((e: WireFrameError) => e);
    expect((offline as WireFrameError).code).toBe('E_UNAVAILABLE');
    expect((offline as WireFrameError).message).toMatch(/quiet is offline/);
    // A member answering with a result nested deep enough to overflow a recursive encoder loses its link; the home stays up.
    const deep = client.request({ type: 'task.detail', repo: b.label, task: 'Q-2' }).catch((e: WireFrameError) => e);
    const asked2 = await b.next();
    const bClosed = new Promise<number>((r) => b.link.ws.once('close', (c) => r(c)));
    b.link.ws.send(`{"type":"fleet.result","rid":"${asked2.rid}","ok":true,"result":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    expect(await bClosed).toBe(1008);
    expect(((await deep) as WireFrameError).code).toBe('E_UNAVAILABLE');
    expect((await client.request({ type: 'task.detail', repo, task: 'F-1' })).result).toMatchObject({ summary: { id: 'F-1' } });
    await other.close();
  });
});
