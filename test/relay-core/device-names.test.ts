// DEVNAME-1..2: a device name is one visible line. A non-owner phone renaming itself
// (allowed, OWNER-1) or a phone pairing must not store a name with terminal escapes,
// line breaks or bidi controls; a name stored before this rule is printed escaped by
// `commandr devices list`. Real relay on port 0, real device keys, the real CLI.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPairingCode } from '../../relay/devices/pairing';
import { connectDevice, newKeyPair, postJson } from '../helpers/device';
import { cleanup, commandr, startRelay } from './setup';

afterEach(cleanup);

const HOSTILE = [
  'x\u001b[2J\u001b[H\u001b[31mFAKE owner\u001b[0m\nd-0123456789abcdef  injected-line', // the audit's name
  'two\nlines', 'carriage\rreturn', 'tab\there', 'del\u007f', 'c1\u009b2J', 'line\u2028sep', 'para\u2029sep',
  'rlo\u202Eevil', 'lre\u202Aevil', 'lri\u2066evil', 'pdi\u2069evil', '   ', '', 'x'.repeat(81),
];

describe('device names', () => {
  it('DEVNAME-1: device.rename (even of itself) refuses control characters, line breaks, bidi controls and 0 or >80 characters with E_BAD_FRAME naming the field', async () => {
    const relay = await startRelay();
    await connectDevice(relay, 'owner phone');
    const phone = await connectDevice(relay, 'second phone');
    for (const name of HOSTILE) {
      const refused = phone.request({ type: 'device.rename', device: phone.device!.id, name });
      await expect(refused, JSON.stringify(name)).rejects.toMatchObject({ code: 'E_BAD_FRAME', message: expect.stringContaining('name: must be 1–80') });
    }
    expect(relay.services.devices.get(phone.device!.id)?.name).toBe('second phone');
    // A good name is stored trimmed; 80 characters and non-ASCII letters are fine.
    await phone.request({ type: 'device.rename', device: phone.device!.id, name: '  Zoë’s phone  ' });
    expect(relay.services.devices.get(phone.device!.id)?.name).toBe('Zoë’s phone');
    await phone.request({ type: 'device.rename', device: phone.device!.id, name: 'y'.repeat(80) });
    expect(relay.services.devices.get(phone.device!.id)?.name).toBe('y'.repeat(80));
  });

  it('DEVNAME-1: POST /api/pair refuses the same names with 400 E_BAD_FRAME naming `name`, and pairs nothing', async () => {
    const relay = await startRelay();
    for (const name of HOSTILE) {
      const { code } = createPairingCode(relay.dataDir);
      const res = await postJson(relay, '/api/pair', { code, name, publicKey: newKeyPair().publicJwk });
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'E_BAD_FRAME', message: expect.stringContaining('name') } });
    }
    expect(relay.services.devices.list()).toEqual([]);
    const { code } = createPairingCode(relay.dataDir);
    const ok = await postJson(relay, '/api/pair', { code, name: ' kitchen tablet ', publicKey: newKeyPair().publicJwk });
    expect(ok.status).toBe(201);
    expect(relay.services.devices.list().map((d) => d.name)).toEqual(['kitchen tablet']);
    // The store itself refuses too, whoever calls it.
    expect(() => relay.services.devices.add('a\nb', newKeyPair().publicJwk)).toThrow(/name must be/);
  });

  it('DEVNAME-2: `commandr devices list` prints a name stored before the rule with every control character escaped: no escape reaches the terminal, no line is forged', async () => {
    const relay = await startRelay();
    const owner = await connectDevice(relay, 'owner phone');
    const phone = await connectDevice(relay, 'second phone');
    const file = path.join(relay.dataDir, 'devices.json');
    const data = JSON.parse(fs.readFileSync(file, 'utf8')) as { devices: Array<{ id: string; name: string }> };
    const forged = `x\u001b[2J\u001b[H\u001b[31mFAKE owner\u001b[0m\n${owner.device!.id}  injected-line\u009b\u202E\u2028`;
    data.devices.find((d) => d.id === phone.device!.id)!.name = forged;
    fs.writeFileSync(file, JSON.stringify(data));

    const listed = commandr(['devices', 'list', '--data', relay.dataDir]);
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    const lines = listed.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2); // one line per device, nothing forged
    expect(lines.filter((l) => l.startsWith(owner.device!.id))).toEqual([expect.stringMatching(new RegExp(`^${owner.device!.id}  owner phone  `))]);
    expect(lines.find((l) => l.startsWith(phone.device!.id))).toContain(
      `x\\u001b[2J\\u001b[H\\u001b[31mFAKE owner\\u001b[0m\\u000a${owner.device!.id}  injected-line\\u009b\\u202e\\u2028`,
    );

    const json = commandr(['devices', 'list', '--data', relay.dataDir, '--json']);
    expect(json.stdout).not.toMatch(/[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    const parsed = JSON.parse(json.stdout) as Array<{ id: string; name: string }>;
    expect(parsed.find((d) => d.id === phone.device!.id)?.name).toBe(forged); // still the stored name, as JSON
  });
});
