// OWNER-1..3: a stolen (non-owner) phone cannot revoke or rename the owner's
// devices; the owner can, and so can a person at the relay's machine
// (`commandr devices …`). Real relay, two real paired device keys, the real CLI.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectDevice } from '../helpers/device';
import { cleanup, commandr, startRelay } from './setup';

afterEach(cleanup);

describe('device ownership', () => {
  it('OWNER-1: the first paired device is the owner; another device cannot revoke or rename it, only itself', async () => {
    const relay = await startRelay();
    const owner = await connectDevice(relay, 'owner phone');
    const stolen = await connectDevice(relay, 'stolen phone');
    const list = (await stolen.request({ type: 'device.list' })).result as { devices: Array<{ id: string; owner?: boolean }> };
    expect(list.devices.find((d) => d.id === owner.device!.id)?.owner).toBe(true);
    expect(list.devices.find((d) => d.id === stolen.device!.id)?.owner).toBe(false);

    await expect(stolen.request({ type: 'device.revoke', device: owner.device!.id })).rejects.toMatchObject({ code: 'E_FORBIDDEN' });
    await expect(stolen.request({ type: 'device.rename', device: owner.device!.id, name: 'pwned' })).rejects.toMatchObject({ code: 'E_FORBIDDEN' });
    expect(relay.services.devices.get(owner.device!.id)?.name).toBe('owner phone');
    // The owner is still connected and works.
    expect((await owner.request({ type: 'device.list' })).result).toBeTruthy();

    expect((await stolen.request({ type: 'device.rename', device: stolen.device!.id, name: 'my phone' })).result).toMatchObject({ device: { name: 'my phone' } });
    // The owner revokes the stolen phone.
    await owner.request({ type: 'device.revoke', device: stolen.device!.id });
    expect((await stolen.closed).reason).toBe('device revoked');
  });

  it('OWNER-2: `commandr devices owner <id>` marks another owner, who may then revoke others', async () => {
    const relay = await startRelay();
    const first = await connectDevice(relay, 'first');
    const second = await connectDevice(relay, 'second');
    const third = await connectDevice(relay, 'third');
    await expect(second.request({ type: 'device.revoke', device: third.device!.id })).rejects.toMatchObject({ code: 'E_FORBIDDEN' });
    const marked = commandr(['devices', 'owner', second.device!.id, '--data', relay.dataDir]);
    expect(marked.status, marked.stderr).toBe(0);
    expect(marked.stdout).toBe(`owner: ${second.device!.id}\n`);
    const listed = JSON.parse(commandr(['devices', 'list', '--data', relay.dataDir, '--json']).stdout) as Array<{ id: string; owner: boolean }>;
    expect(listed.filter((d) => d.owner).map((d) => d.id).sort()).toEqual([first.device!.id, second.device!.id].sort());
    // The running relay sees the change made by the CLI.
    await second.request({ type: 'device.revoke', device: third.device!.id });
    expect((await third.closed).reason).toBe('device revoked');
    const unknown = commandr(['devices', 'owner', 'd-0000000000000000', '--data', relay.dataDir]);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/no device/);
  });

  it('OWNER-3: a revoke confirmed on the relay\'s machine works for any device, owner included', async () => {
    const relay = await startRelay();
    const owner = await connectDevice(relay, 'owner');
    const revoked = commandr(['devices', 'revoke', owner.device!.id, '--data', relay.dataDir]);
    expect(revoked.status).toBe(0);
    expect((await owner.closed).reason).toBe('device revoked');
  });

  it('OWNER-1: when the owner revokes itself no other phone becomes the owner, even after a restart, until `commandr devices owner` names one', async () => {
    const relay = await startRelay();
    const owner = await connectDevice(relay, 'owner');
    const second = await connectDevice(relay, 'second');
    const third = await connectDevice(relay, 'third');
    await owner.request({ type: 'device.revoke', device: owner.device!.id });
    expect((await owner.closed).reason).toBe('device revoked');

    const list = (await second.request({ type: 'device.list' })).result as { devices: Array<{ id: string; owner: boolean }> };
    expect(list.devices.map((d) => d.owner)).toEqual([false, false]);
    await expect(second.request({ type: 'device.revoke', device: third.device!.id })).rejects.toMatchObject({ code: 'E_FORBIDDEN' });
    await expect(second.request({ type: 'device.rename', device: third.device!.id, name: 'pwned' })).rejects.toMatchObject({ code: 'E_FORBIDDEN' });
    expect(relay.services.devices.get(third.device!.id)?.name).toBe('third');
    // A rename of itself (a write) does not promote it either.
    await second.request({ type: 'device.rename', device: second.device!.id, name: 'second renamed' });
    await expect(second.request({ type: 'device.revoke', device: third.device!.id })).rejects.toMatchObject({ code: 'E_FORBIDDEN' });
    // The file says so to a fresh reader (a restarted relay, the CLI).
    const listed = JSON.parse(commandr(['devices', 'list', '--data', relay.dataDir, '--json']).stdout) as Array<{ owner: boolean }>;
    expect(listed.map((d) => d.owner)).toEqual([false, false]);

    const marked = commandr(['devices', 'owner', third.device!.id, '--data', relay.dataDir]);
    expect(marked.status, marked.stderr).toBe(0);
    await third.request({ type: 'device.revoke', device: second.device!.id });
    expect((await second.closed).reason).toBe('device revoked');
  });

  it('OWNER-1, OWNER-3: an owner revoked from the CLI leaves no owner behind', async () => {
    const relay = await startRelay();
    const owner = await connectDevice(relay, 'owner');
    const second = await connectDevice(relay, 'second');
    const third = await connectDevice(relay, 'third');
    expect(commandr(['devices', 'revoke', owner.device!.id, '--data', relay.dataDir]).status).toBe(0);
    expect((await owner.closed).reason).toBe('device revoked');
    await expect(second.request({ type: 'device.revoke', device: third.device!.id })).rejects.toMatchObject({ code: 'E_FORBIDDEN' });
    expect(relay.services.devices.list().some((d) => relay.services.devices.isOwner(d.id))).toBe(false);
  });

  it('OWNER-1: a devices.json from before owners keeps its earliest device as owner when this version first writes it; revoking that one leaves no owner', async () => {
    const relay = await startRelay();
    const older = await connectDevice(relay, 'older');
    const newer = await connectDevice(relay, 'newer');
    const third = await connectDevice(relay, 'third');
    const file = path.join(relay.dataDir, 'devices.json');
    const data = JSON.parse(fs.readFileSync(file, 'utf8')) as { ownerChosen?: boolean; devices: Array<Record<string, unknown>> };
    expect(data.ownerChosen).toBe(true);
    delete data.ownerChosen;
    for (const d of data.devices) delete d.owner;
    fs.writeFileSync(file, JSON.stringify(data));
    // The first write by this version (a rename) marks the implied owner.
    await newer.request({ type: 'device.rename', device: newer.device!.id, name: 'newer renamed' });
    const written = JSON.parse(fs.readFileSync(file, 'utf8')) as { ownerChosen?: boolean; devices: Array<{ id: string; owner?: boolean }> };
    expect(written.ownerChosen).toBe(true);
    expect(written.devices.filter((d) => d.owner).map((d) => d.id)).toEqual([older.device!.id]);
    await older.request({ type: 'device.revoke', device: older.device!.id });
    await expect(newer.request({ type: 'device.revoke', device: third.device!.id })).rejects.toMatchObject({ code: 'E_FORBIDDEN' });
  });

  it('OWNER-1: a devices.json from before owners (no device marked) treats the earliest paired device as the owner', async () => {
    const relay = await startRelay();
    const older = await connectDevice(relay, 'older');
    const newer = await connectDevice(relay, 'newer');
    const file = path.join(relay.dataDir, 'devices.json');
    const data = JSON.parse(fs.readFileSync(file, 'utf8')) as { ownerChosen?: boolean; devices: Array<Record<string, unknown>> };
    delete data.ownerChosen;
    for (const d of data.devices) delete d.owner;
    fs.writeFileSync(file, JSON.stringify(data));
    await expect(newer.request({ type: 'device.revoke', device: older.device!.id })).rejects.toMatchObject({ code: 'E_FORBIDDEN' });
    await older.request({ type: 'device.rename', device: newer.device!.id, name: 'renamed by owner' });
    expect(relay.services.devices.get(newer.device!.id)?.name).toBe('renamed by owner');
  });
});
