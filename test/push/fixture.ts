// Shared by the push suites and bench/push.ts: a real relay over a real temp repo
// (bin tools + installed gate), the local push service trusted through
// $COMMANDR_PUSH_CA, and devices that subscribe with signed push.subscribe.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRelay, type Relay } from '../../relay/server';
import { DEFAULT_PREFS } from '../../relay/push/store';
import { type Install, World, buildInstall, packet } from '../conformance/harness';
import { type DeviceClient, connectDevice } from '../helpers/device';
import { PushService as LocalPushService, type TestSubscription } from '../stand-ins/push-service';

export interface PushWorld {
  install: Install;
  world: World;
  endpoint: LocalPushService;
  dataDir: string;
  caFile: string;
  relay: Relay;
  cleanup(): Promise<void>;
}

export async function startPushWorld(tasks: string[]): Promise<PushWorld> {
  const install = await buildInstall();
  const world = new World(install);
  for (const id of tasks) world.write(`inbox/${id}.md`, `${packet({ id })}\n# ${id} title\n`);
  const endpoint = await new LocalPushService().start();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-push-'));
  const caFile = path.join(dataDir, 'push-ca.pem');
  fs.writeFileSync(caFile, endpoint.certificate.cert);
  process.env.COMMANDR_PUSH_CA = caFile;
  const pw: PushWorld = {
    install, world, endpoint, dataDir, caFile,
    relay: await startRelayOn(dataDir, world.repo),
    async cleanup() {
      await pw.relay.close();
      await endpoint.close();
      delete process.env.COMMANDR_PUSH_CA;
      world.cleanup();
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(install.root, { recursive: true, force: true });
    },
  };
  return pw;
}

export function startRelayOn(dataDir: string, repo: string): Promise<Relay> {
  return createRelay({ port: 0, host: '127.0.0.1', dataDir, repos: [repo], registryFile: path.join(dataDir, 'no-registry'), demo: false });
}

export interface PushDevice {
  client: DeviceClient;
  sub: TestSubscription;
}

/** A paired device that subscribed to push; `visible: false` says its app is in the background. */
export async function pushDevice(relay: Relay, endpoint: LocalPushService, name: string, visible: boolean): Promise<PushDevice> {
  const client = await connectDevice(relay, name);
  const sub = endpoint.subscribe();
  await client.request({ type: 'push.subscribe', subscription: sub.json, prefs: DEFAULT_PREFS });
  if (!visible) await client.request({ type: 'client.visibility', visible: false });
  return { client, sub };
}

/** The claimed packet file of `id`. */
export function claimedPacket(world: World, id: string): string {
  const dir = path.join(world.bus, 'claimed');
  return path.join(dir, fs.readdirSync(dir).find((f) => f.endsWith(`_${id}.md`))!);
}

/** A worktree on agent/<id> with a staged change whose `git commit` the installed gate blocked. */
export function blockedCommit(world: World, id: string, files: Record<string, string>): string {
  const wt = world.worktree(`wt-${id}`, `agent/${id}`);
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(wt, file), text);
  world.git(['add', '-A'], wt);
  let blocked = false;
  try {
    world.git(['commit', '-q', '-m', 'agent work'], wt);
  } catch {
    blocked = true;
  }
  if (!blocked) throw new Error(`the gate did not block the commit for ${id}`);
  return wt;
}

/** Runs the real `claim` and returns the id of the task it claimed. */
export function claimNext(world: World): string {
  const before = new Set(world.list('claimed'));
  const r = world.tool('claim');
  if (r.code !== 0) throw new Error(`claim failed: ${r.stderr}`);
  const added = world.list('claimed').find((f) => !before.has(f));
  const id = added ? /_(T-\d+)\.md$/.exec(added)?.[1] : undefined;
  if (!id) throw new Error(`claim claimed nothing: ${r.stdout}`);
  return id;
}
