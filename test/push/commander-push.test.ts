// A commander entering `waiting` (fake adapter, real relay) pushes its question to
// a subscribed device whose app is in the background.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Commanders } from '../../relay/commanders/service';
import { startRelayFixture, type RelayFixture } from '../commanders/relay-fixture';
import { untilState, settled } from '../commanders/helpers';
import { PushService as LocalPushService } from '../stand-ins/push-service';
import { pushDevice, type PushDevice } from './fixture';

let fx: RelayFixture;
let endpoint: LocalPushService;
let phone: PushDevice;

beforeAll(async () => {
  endpoint = await new LocalPushService().start();
  const caDir = fs.mkdtempSync(path.join(os.tmpdir(), 'push-ca-'));
  fs.writeFileSync(path.join(caDir, 'ca.pem'), endpoint.certificate.cert);
  process.env.COMMANDR_PUSH_CA = path.join(caDir, 'ca.pem');
  fx = await startRelayFixture();
  fs.rmSync(caDir, { recursive: true, force: true });
  phone = await pushDevice(fx.relay, endpoint, 'Pixel', false);
});

afterAll(async () => {
  await phone?.client.close();
  await fx?.cleanup();
  await endpoint?.close();
  delete process.env.COMMANDR_PUSH_CA;
});

it('PUSH-3: a commander entering waiting pushes its question, tagged per commander, opening its conversation', async () => {
  const commanders = fx.relay.services.commanders as Commanders;
  const v = commanders.create('memos', path.join(fx.root, 'memos'));
  await untilState(commanders, v.id, settled);
  commanders.message(v.id, 'FAKE:not-ready which mailbox?');
  const got = await endpoint.waitFor((p) => p.subscription === phone.sub.id);
  expect(got.payload).toEqual({
    v: 1, kind: 'commander_waiting', tag: `commander:${v.id}`,
    title: 'memos is waiting for you', body: 'which mailbox?',
    url: `/commander?id=${v.id}`, actions: [], data: { commander: v.id },
  });
});
