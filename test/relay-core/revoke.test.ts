import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DeviceStore } from '../../relay/devices/store';
import { connectDevice, newKeyPair, openSocket, postJson } from '../helpers/device';
import { cleanup, commandr, startRelay } from './setup';

afterEach(cleanup);

describe('revocation', () => {
  it('DEV-1: device.revoke closes the revoked device\'s sockets at once and refuses it afterwards', async () => {
    const relay = await startRelay();
    const admin = await connectDevice(relay, 'admin');
    const lost = await connectDevice(relay, 'lost phone');
    const forgotten: string[] = [];
    relay.services.push = { forgetDevice: (id: string) => forgotten.push(id) };
    const ack = await admin.request({ type: 'device.revoke', device: lost.device!.id });
    expect(ack.result).toEqual({ revoked: lost.device!.id });
    expect(await lost.closed).toEqual({ code: 1008, reason: 'device revoked' });
    expect(forgotten).toEqual([lost.device!.id]);
    await expect(openSocket(relay, lost.device)).rejects.toMatchObject({ code: 'E_UNAUTHORIZED' });
    const list = await admin.request({ type: 'device.list' });
    expect((list.result as { devices: { id: string }[] }).devices.map((d) => d.id)).toEqual([admin.device!.id]);
  });

  it('DEV-1: a device revoking itself gets its ack, then its socket closes', async () => {
    const relay = await startRelay();
    const phone = await connectDevice(relay, 'phone');
    const ack = await phone.request({ type: 'device.revoke', device: phone.device!.id });
    expect(ack.result).toEqual({ revoked: phone.device!.id });
    expect((await phone.closed).reason).toBe('device revoked');
    expect(relay.services.devices.list()).toEqual([]);
  });

  it('DEV-2: `commandr devices revoke` from another process takes effect on a running relay at once', async () => {
    const relay = await startRelay();
    const phone = await connectDevice(relay, 'phone');
    const listed = commandr(['devices', 'list', '--data', relay.dataDir, '--json']);
    expect(listed.status).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ id: phone.device!.id, name: 'phone' })]);
    const revoked = commandr(['devices', 'revoke', phone.device!.id, '--data', relay.dataDir]);
    expect(revoked.status).toBe(0);
    expect(revoked.stdout).toBe(`revoked: ${phone.device!.id}\n`);
    expect((await phone.closed).code).toBe(1008);
    await expect(openSocket(relay, phone.device)).rejects.toMatchObject({ code: 'E_UNAUTHORIZED' });
    const unknown = commandr(['devices', 'revoke', 'd-0000000000000000', '--data', relay.dataDir]);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/no device/);
  });

  it('DEV-2: a revoke is never undone by another process rewriting devices.json at the same moment (a stolen phone renaming itself in a loop)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'devices-race-'));
    try {
      const store = new DeviceStore(dir);
      const thief = store.add('thief', newKeyPair().publicJwk);
      const victims = Array.from({ length: 12 }, (_, i) => store.add(`phone ${i}`, newKeyPair().publicJwk).id);
      // The other process: the relay answering a device.rename as fast as the thief can send them.
      const script = `
        const fs = require('node:fs');
        const { DeviceStore } = require('./relay/devices/store.ts');
        const store = new DeviceStore(${JSON.stringify(dir)});
        for (let i = 0; !fs.existsSync(${JSON.stringify(path.join(dir, 'stop'))}); i++) {
          store.rename(${JSON.stringify(thief.id)}, 'thief ' + i);
          if (i === 0) process.stdout.write('renaming\\n');
        }`;
      const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { cwd: path.resolve(__dirname, '..', '..'), stdio: ['ignore', 'pipe', 'inherit'] });
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      for (const id of victims) store.revoke(id);
      writeFileSync(path.join(dir, 'stop'), '');
      expect(await exited).toBe(0);
      expect(new DeviceStore(dir).list().map((d) => d.id)).toEqual([thief.id]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('DEV-2: a store whose data dir does not exist yet pairs its first device into a new private dir (the lock needs the dir too)', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'devices-fresh-'));
    try {
      const dir = path.join(root, 'not', 'yet');
      const phone = new DeviceStore(dir).add('phone', newKeyPair().publicJwk);
      expect(new DeviceStore(dir).list().map((d) => d.id)).toEqual([phone.id]);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(readdirSync(dir)).toEqual(['devices.json']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('DEV-3: device ids in actions are validated (E_BAD_ID) and unknown ones are E_NOT_FOUND', async () => {
    const relay = await startRelay();
    const phone = await connectDevice(relay);
    await expect(phone.request({ type: 'device.revoke', device: '../devices.json' })).rejects.toMatchObject({ code: 'E_BAD_ID' });
    await expect(phone.request({ type: 'device.rename', device: 'd-0000000000000000', name: 'x' })).rejects.toMatchObject({ code: 'E_NOT_FOUND' });
  });

  it('SERVE-4: `commandr pair` prints a pairing URL on the running relay\'s origin; its code works once', async () => {
    const relay = await startRelay({ publicOrigin: 'https://relay.example' });
    const out = commandr(['pair', '--data', relay.dataDir]);
    expect(out.status).toBe(0);
    const code = new RegExp('https://relay\\.example/pair#code=([A-Za-z0-9_-]{43})').exec(out.stdout)?.[1];
    expect(code).toBeDefined();
    const pair = (name: string) => postJson(relay, '/api/pair', { code, name, publicKey: newKeyPair().publicJwk });
    expect((await pair('phone')).status).toBe(201);
    expect((await pair('again')).status).toBe(403);
  });
});
