// One-time codes on disk (FLEET-1, PAIR-2): a code whose time is up is forgotten when the
// next one is made, and so is what a process that died mid-redeem left behind, so the home's
// data dir does not keep every code `commandr machines add` (or `commandr pair`) ever printed.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPairingCode } from '../../relay/devices/pairing';
import { loadMachineKey } from '../../relay/fleet/keys';
import { createJoinCode, redeemJoinSecret } from '../../relay/fleet/machines';
import { TempDirs } from '../council/fixtures';

const dirs = new TempDirs();
afterEach(() => dirs.cleanup());

const HOUR = 60 * 60_000;

describe('one-time code files', () => {
  it('FLEET-1: join codes whose time is up, and a dead redeemer\'s claimed file, are forgotten when a new code is made; live codes stay and still work', () => {
    const dataDir = dirs.make('fleet-codes-');
    loadMachineKey(dataDir);
    const join = path.join(dataDir, 'fleet', 'join');
    const live = createJoinCode(dataDir, 'live');
    const old = createJoinCode(dataDir, 'old', Date.now() - HOUR);
    // What a redeemer killed between its claim (rename) and its cleanup leaves.
    const stray = path.join(join, 'f'.repeat(64) + '.redeemed-1-abcd');
    fs.writeFileSync(stray, JSON.stringify({ expiresAt: Date.now() + HOUR }));
    fs.utimesSync(stray, new Date(Date.now() - HOUR), new Date(Date.now() - HOUR));
    expect(fs.readdirSync(join)).toHaveLength(3);

    const next = createJoinCode(dataDir, 'next');
    expect(fs.readdirSync(join)).toHaveLength(2);
    expect(() => redeemJoinSecret(dataDir, old.code.split('.')[0]!)).toThrow(/unknown, expired or already used/);
    expect(redeemJoinSecret(dataDir, live.code.split('.')[0]!)).toBe('live');
    expect(redeemJoinSecret(dataDir, next.code.split('.')[0]!)).toBe('next');
    expect(fs.readdirSync(join)).toEqual([]);
  });

  it('FLEET-1: a join code never starts with "-", which `commandr join <url> <code>` and shells would take for an option', () => {
    const dataDir = dirs.make('fleet-codes-dash-');
    loadMachineKey(dataDir);
    // One draw in 64 would start with "-": 1,000 codes without one cannot happen by luck (p ≈ 1e-7).
    const codes = Array.from({ length: 1000 }, () => createJoinCode(dataDir, undefined).code);
    expect(codes.filter((c) => c.startsWith('-'))).toEqual([]);
    expect(codes.every((c) => /^[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}$/.test(c))).toBe(true);
  });

  it('PAIR-2: pairing codes whose time is up are forgotten when a new one is made', () => {
    const dataDir = dirs.make('pair-codes-');
    createPairingCode(dataDir);
    createPairingCode(dataDir, 10, Date.now() - HOUR);
    expect(fs.readdirSync(path.join(dataDir, 'pairing'))).toHaveLength(2);
    createPairingCode(dataDir);
    expect(fs.readdirSync(path.join(dataDir, 'pairing'))).toHaveLength(2);
  });
});
