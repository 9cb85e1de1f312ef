// DEV-4: a device that connected is remembered as seen across a relay restart and by
// `commandr devices`, not only in the memory of the relay that saw it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectDevice } from '../helpers/device';
import { cleanup, commandr, startRelay } from './setup';

afterEach(cleanup);

const onDisk = (dataDir: string) => (JSON.parse(fs.readFileSync(path.join(dataDir, 'devices.json'), 'utf8')) as { devices: { id: string; lastSeenAt: string | null }[] }).devices;

describe('last seen', () => {
  it('DEV-4: the first authentication writes lastSeenAt to devices.json; a restarted relay and `commandr devices` show it', async () => {
    const relay = await startRelay();
    const started = Date.now();
    const phone = await connectDevice(relay, 'seen phone');
    const listed = await phone.request({ type: 'device.list' });
    await phone.close();
    const [device] = (listed.result as { devices: { id: string; lastSeenAt: string | null }[] }).devices;
    expect(Date.parse(device!.lastSeenAt!)).toBeGreaterThanOrEqual(started - 1000);
    expect(onDisk(relay.dataDir).find((d) => d.id === device!.id)?.lastSeenAt).toBe(device!.lastSeenAt);

    const again = await relay.restart();
    const other = await connectDevice(again, 'another phone');
    const after = (await other.request({ type: 'device.list' })).result as { devices: { id: string; lastSeenAt: string | null }[] };
    await other.close();
    expect(after.devices.find((d) => d.id === device!.id)?.lastSeenAt).toBe(device!.lastSeenAt);

    const cli = commandr(['devices', '--data', relay.dataDir]);
    expect(cli.stdout).toContain(`${device!.id}  seen phone  paired `);
    expect(cli.stdout).toContain(`last seen ${device!.lastSeenAt}`);
  });
});
