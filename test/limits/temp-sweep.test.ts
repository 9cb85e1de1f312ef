// LIMIT-4: a writer SIGKILLed between writing its temp file and renaming it leaves
// `.<name>.<pid>.<n>.tmp` behind; the next relay start (and the next bus tool
// writing into that directory) removes temps of dead processes — and only those.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileAtomic, sweepStaleTemps } from '../../bus/fs-atomic';
import { cleanup, tempDir } from '../relay-core/setup';
import { makeRepo, startWatching } from './fixture';

afterEach(cleanup);

const root = path.resolve(__dirname, '..', '..');

/**
 * Starts a real writer that creates its temp exactly as the bus does, writes part of
 * it, says where it is, and hangs before the rename; the test then SIGKILLs it.
 */
async function killWriterMidWrite(dir: string, name: string): Promise<string> {
  const script = `
    const fs = require('node:fs'); const path = require('node:path');
    const temp = path.join(${JSON.stringify(dir)}, '.' + ${JSON.stringify(name)} + '.' + process.pid + '.84.tmp');
    const fd = fs.openSync(temp, 'wx', 0o600);
    fs.writeSync(fd, '{"half": "writ');
    process.stdout.write(temp + '\\n');
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['-e', script], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const temp = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()));
    child.once('exit', (code) => reject(new Error(`writer exited early (${code})`)));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  expect(fs.existsSync(temp)).toBe(true);
  return temp;
}

describe('stale temp files', () => {
  it('LIMIT-4: a relay start sweeps temps of SIGKILLed writers from its data dir and its buses, keeping live ones and real files', async () => {
    const repo = makeRepo(['A-1']);
    const notes = path.join(repo.bus, 'annotations', 'A-1');
    fs.mkdirSync(notes, { recursive: true });
    const busTemp = await killWriterMidWrite(notes, '0001-0083.json');
    const dataDir = tempDir();
    const dataTemp = await killWriterMidWrite(dataDir, 'devices.json');
    // A temp of a live writer (this process) and look-alike names stay.
    const live = path.join(notes, `.0002-0001.json.${process.pid}.1.tmp`);
    fs.writeFileSync(live, 'in progress');
    const keep = [live, path.join(notes, '0001-0083.json'), path.join(notes, '.notes.tmp')];
    for (const f of keep.slice(1)) fs.writeFileSync(f, '{}');

    const relay = await startWatching(repo, { dataDir });
    expect(fs.existsSync(busTemp)).toBe(false);
    expect(fs.existsSync(dataTemp)).toBe(false);
    for (const f of keep) expect(fs.existsSync(f), f).toBe(true);
    await relay.close();
  });

  it('LIMIT-4: a bus write sweeps dead temps of its own directory once per process', async () => {
    const dir = tempDir('commandr-sweep-');
    const dead = await killWriterMidWrite(dir, 'verdict.json');
    writeFileAtomic(path.join(dir, 'other.json'), '{}');
    expect(fs.existsSync(dead)).toBe(false);
    expect(fs.readdirSync(dir)).toEqual(['other.json']);
    expect(sweepStaleTemps(dir)).toBe(0);
  });

  it('LIMIT-4: secret files are written durably: fsynced temp, then rename (content whole after the call)', async () => {
    const { writePrivateFile } = await import('../../relay/devices/files');
    const dir = tempDir('commandr-secret-');
    const file = path.join(dir, 'devices.json');
    const traced: string[] = [];
    const cjs = createRequire(__filename)('node:fs') as typeof fs;
    const { fsyncSync: fsync, renameSync: rename } = cjs;
    // Observe (not replace) the real calls to see their order.
    cjs.fsyncSync = (fd) => { traced.push('fsync'); fsync(fd); };
    cjs.renameSync = (a, b) => { traced.push('rename'); rename(a, b); };
    syncBuiltinESMExports();
    try {
      writePrivateFile(file, '{"secret":1}');
    } finally {
      cjs.fsyncSync = fsync;
      cjs.renameSync = rename;
      syncBuiltinESMExports();
    }
    expect(traced.slice(0, 2)).toEqual(['fsync', 'rename']);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"secret":1}');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });
});
