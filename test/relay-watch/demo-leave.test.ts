// DEMO-6: demo commanders leave with the demo: registering a real repo makes the demo
// step aside, and its sample commander is deleted with it. Real relay, real registry file.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { initRepo } from '../../bus/init';
import { DEMO_COMMANDER_ID } from '../../relay/demo/commander';
import type { Relay } from '../../relay/server';
import { git } from '../council/fixtures';
import { registryOf, startRelay, subscribedClient } from './fixture';

let dataDir: string;
let relay: Relay | undefined;

afterAll(async () => {
  await relay?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('demo commanders', () => {
  it('DEMO-6: when a real repo is registered the demo steps aside and the demo commander is removed', async () => {
    dataDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'relay-demo-leave-')));
    relay = await startRelay([], { demo: true, dataDir });
    const dir = path.join(dataDir, 'commanders', DEMO_COMMANDER_ID);
    expect(fs.existsSync(dir)).toBe(true);
    const { client } = await subscribedClient(relay);
    const repo = path.join(dataDir, 'mine');
    fs.mkdirSync(repo);
    git(repo, 'init', '-q', '-b', 'main');
    initRepo(repo, { gateBin: '/bin/false', registryFile: registryOf(dataDir) });
    await client.next('commander.removed', (f) => f.commander === DEMO_COMMANDER_ID);
    expect(fs.existsSync(dir)).toBe(false);
    await client.close();
  });
});
