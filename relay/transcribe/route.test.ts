// The transcription routes on a real relay (createRelay, port 0) with a paired
// device and a stand-in transcriber process (VOICE-4..6). Only the timeout case
// mounts the handler on a bare server, to shorten the 60 s limit.
import * as crypto from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, chmodSync, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelay, type Relay } from '../server';
import { DEVICE_HEADER, SIG_HEADER, TS_HEADER } from '../../protocol/wire/http';
import { requestMessage } from '../../protocol/wire/signing';
import { newKeyPair, pairDevice, sign, type TestDevice } from '../../test/helpers/device';
import { gone } from '../../test/helpers/processes';
import { MAX_AUDIO_BYTES, postTranscribe, transcribeOptions } from './route';

let dir: string;
let relay: Relay;
let device: TestDevice;
const servers: Server[] = [];

/** A transcriber that records its argv and prints a fixed sentence (or misbehaves on request). */
function standIn(): string {
  const script = join(dir, 'fake-transcriber.js');
  writeFileSync(script, [
    "const fs = require('fs');",
    "const file = process.argv[process.argv.length - 1];",
    "fs.writeFileSync(process.env.ARGV_LOG || '/dev/null', JSON.stringify({ argv: process.argv.slice(2), bytes: fs.readFileSync(file).length }));",
    "if (process.argv.includes('--fail')) { console.error('model missing'); process.exit(3); }",
    "const pidFile = process.argv.find((a) => a.startsWith('--pid-file='));",
    "if (pidFile) fs.writeFileSync(pidFile.slice(11), String(process.pid));",
    "if (process.argv.includes('--hang')) setInterval(() => {}, 1000);",
    "else process.stdout.write('  rename the helper please \\n');",
  ].join('\n'));
  chmodSync(script, 0o755);
  return script;
}

/** The relay reads COMMANDR_TRANSCRIBE_CMD at each request. */
function serve(command: string): string {
  process.env.COMMANDR_TRANSCRIBE_CMD = command;
  return relay.url;
}

/** The POST handler alone on a bare server, with a short timeout. */
async function serveWithTimeout(command: string, timeoutMs: number): Promise<string> {
  const options = { ...transcribeOptions(relay.services), command, timeoutMs };
  const server = createServer((req, res) => {
    postTranscribe(options, req, res).catch((e: { code: string; message: string }) =>
      res.writeHead(500).end(JSON.stringify({ type: 'error', error: { code: e.code, message: e.message } })));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function signedHeaders(body: Buffer, ts = Date.now(), who = device): Record<string, string> {
  const digest = crypto.createHash('sha256').update(body).digest('hex');
  return {
    'content-type': 'audio/webm;codecs=opus',
    [DEVICE_HEADER]: who.id,
    [TS_HEADER]: String(ts),
    [SIG_HEADER]: sign(who.privateKey, requestMessage(who.id, 'POST', '/api/transcribe', ts, digest)),
  };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'transcribe-'));
  relay = await createRelay({ port: 0, host: '127.0.0.1', dataDir: join(dir, 'data'), repos: [], demo: false });
  device = await pairDevice(relay);
});

afterAll(async () => {
  delete process.env.COMMANDR_TRANSCRIBE_CMD;
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  await relay?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A wrapper script, as people write around a model: it starts the stand-in as a child (no exec), which holds its pipes. */
function wrapper(extra: string, childArgs: string): string {
  const script = join(dir, `wrapper-${crypto.randomBytes(4).toString('hex')}.sh`);
  writeFileSync(script, `#!/bin/sh\n${extra}node ${standIn()} ${childArgs} "$@"\necho after >&2\n`);
  chmodSync(script, 0o755);
  return script;
}

describe('transcription routes', () => {
  it('VOICE-4: a signed upload is transcribed by the configured command, file path last, temp file removed', async () => {
    const log = join(dir, 'argv.json');
    process.env.ARGV_LOG = log;
    const url = serve(` node  ${standIn()} `);
    const body = crypto.randomBytes(3000);
    const res = await fetch(`${url}/api/transcribe`, { method: "POST", headers: signedHeaders(body), body: new Uint8Array(body) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ text: 'rename the helper please' });
    const seen = JSON.parse(readFileSync(log, 'utf8')) as { argv: string[]; bytes: number };
    expect(seen.bytes).toBe(3000);
    expect(seen.argv[seen.argv.length - 1]).toMatch(/transcribe\/[0-9a-f]+\.webm$/);
    expect(readdirSync(join(dir, 'data', 'transcribe'))).toEqual([]);
  });

  it('VOICE-5: the command is split on whitespace and never run through a shell', async () => {
    const marker = join(dir, 'shell-ran');
    const script = join(dir, 'echo-args.js');
    writeFileSync(script, "process.stdout.write(JSON.stringify(process.argv.slice(2, -1)))");
    const url = serve(`node ${script} $(touch ${marker}) ;touch ${marker}`);
    const body = Buffer.from('RIFF');
    const res = await fetch(`${url}/api/transcribe`, { method: "POST", headers: signedHeaders(body), body: new Uint8Array(body) });
    expect(res.status).toBe(200);
    const { text } = (await res.json()) as { text: string };
    expect(JSON.parse(text)).toEqual(['$(touch', `${marker})`, ';touch', marker]);
    expect(existsSync(marker)).toBe(false);
  });

  it('VOICE-4: unsigned, wrongly signed, stale and unknown-device uploads are refused', async () => {
    const url = serve(`node ${standIn()}`);
    const body = Buffer.from('audio');
    const post = (headers: Record<string, string>, b: Buffer = body) => fetch(`${url}/api/transcribe`, { method: 'POST', headers, body: new Uint8Array(b) });
    const unsigned = await post({ 'content-type': 'audio/webm' });
    expect(unsigned.status).toBe(401);
    expect(await unsigned.json()).toMatchObject({ type: 'error', error: { code: 'E_UNAUTHORIZED' } });
    const tampered = await post(signedHeaders(body), Buffer.from('other audio'));
    expect((await tampered.json()).error.code).toBe('E_UNAUTHORIZED');
    const stale = await post(signedHeaders(body, Date.now() - 120_000));
    expect((await stale.json()).error.code).toBe('E_REPLAY');
    const stranger = { id: 'd-0000000000000000', name: 'x', ...newKeyPair() };
    expect((await (await post(signedHeaders(body, Date.now(), stranger))).json()).error.code).toBe('E_UNAUTHORIZED');
    const notAudio = await post({ ...signedHeaders(body), 'content-type': 'text/plain' });
    expect(notAudio.status).toBe(400);
    expect((await notAudio.json()).error.message).toMatch(/must be audio/);
  });

  it('VOICE-4: a body over 10 MiB is refused with E_TOO_LARGE', async () => {
    const url = serve(`node ${standIn()}`);
    const body = Buffer.alloc(MAX_AUDIO_BYTES + 1);
    const res = await fetch(`${url}/api/transcribe`, { method: "POST", headers: signedHeaders(body), body: new Uint8Array(body) });
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe('E_TOO_LARGE');
  });

  it('VOICE-6: status says whether a transcriber is configured; without one uploads get E_UNAVAILABLE', async () => {
    const none = serve('  ');
    expect(await (await fetch(`${none}/api/transcribe/status`)).json()).toEqual({ available: false });
    const body = Buffer.from('x');
    const res = await fetch(`${none}/api/transcribe`, { method: "POST", headers: signedHeaders(body), body: new Uint8Array(body) });
    expect(res.status).toBe(503);
    expect((await res.json()).error.code).toBe('E_UNAVAILABLE');
    const some = serve(`node ${standIn()}`);
    expect(await (await fetch(`${some}/api/transcribe/status`)).json()).toEqual({ available: true });
  });

  it('VOICE-5: a failing or hanging transcriber becomes a sentence, and the temp file is still removed', async () => {
    const script = standIn();
    const failing = serve(`node ${script} --fail`);
    const body = Buffer.from('x');
    const res = await fetch(`${failing}/api/transcribe`, { method: "POST", headers: signedHeaders(body), body: new Uint8Array(body) });
    expect(res.status).toBe(500);
    expect((await res.json()).error.message).toMatch(/exit 3.*model missing/);
    const hanging = await serveWithTimeout(`node ${script} --hang`, 500);
    const slow = await fetch(`${hanging}/api/transcribe`, { method: "POST", headers: signedHeaders(body), body: new Uint8Array(body) });
    expect((await slow.json()).error.message).toMatch(/took longer than/);
    expect(readdirSync(join(dir, 'data', 'transcribe'))).toEqual([]);
  });

  it('VOICE-5: a wrapper script whose model run hangs is stopped whole at the time limit: the answer comes, the model run goes', async () => {
    const pidFile = join(dir, 'hung-model.pid');
    const hanging = await serveWithTimeout(wrapper('', `--hang --pid-file=${pidFile}`), 500);
    const body = Buffer.from('x');
    const res = await fetch(`${hanging}/api/transcribe`, { method: 'POST', headers: signedHeaders(body), body: new Uint8Array(body), signal: AbortSignal.timeout(20_000) });
    expect((await res.json()).error.message).toMatch(/took longer than/);
    expect(await gone(Number(readFileSync(pidFile, 'utf8')))).toBe(true);
    expect(readdirSync(join(dir, 'data', 'transcribe'))).toEqual([]);
  });

  it('VOICE-5: a transcriber that printed its text and exited is answered at once, though something it left behind holds its output', async () => {
    const pidFile = join(dir, 'left-behind.pid');
    const url = serve(wrapper(`sleep 600 &\necho $! > ${pidFile}\n`, ''));
    const body = Buffer.from('x');
    const res = await fetch(`${url}/api/transcribe`, { method: 'POST', headers: signedHeaders(body), body: new Uint8Array(body), signal: AbortSignal.timeout(20_000) });
    expect(await res.json()).toEqual({ text: 'rename the helper please' });
    expect(await gone(Number(readFileSync(pidFile, 'utf8')))).toBe(true);
  });

  it('VOICE-5: a transcriber whose child left its group (setsid) and holds its output is still answered once it exits', async () => {
    const pidFile = join(dir, 'escaped.pid');
    const url = serve(wrapper(`setsid sh -c 'echo $$ > ${pidFile}; exec sleep 600' &\n`, ''));
    const body = Buffer.from('x');
    try {
      const res = await fetch(`${url}/api/transcribe`, { method: 'POST', headers: signedHeaders(body), body: new Uint8Array(body), signal: AbortSignal.timeout(20_000) });
      expect(await res.json()).toEqual({ text: 'rename the helper please' });
    } finally {
      // Out of the group on purpose, so out of the relay's reach: the test ends it itself.
      if (existsSync(pidFile)) process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
    }
  });

  it('VOICE-5: a relay that stops while transcribing stops the transcriber with what it started, and says so', async () => {
    const other = await createRelay({ port: 0, host: '127.0.0.1', dataDir: join(dir, 'data-stopping'), repos: [], demo: false });
    const phone = await pairDevice(other);
    const pidFile = join(dir, 'stopping-model.pid');
    process.env.COMMANDR_TRANSCRIBE_CMD = wrapper('', `--hang --pid-file=${pidFile}`);
    const body = Buffer.from('x');
    const answer = fetch(`${other.url}/api/transcribe`, { method: 'POST', headers: signedHeaders(body, Date.now(), phone), body: new Uint8Array(body), signal: AbortSignal.timeout(20_000) });
    while (!existsSync(pidFile) || readFileSync(pidFile, 'utf8') === '') await new Promise((r) => setTimeout(r, 20));
    await other.close();
    expect(await gone(Number(readFileSync(pidFile, 'utf8')))).toBe(true);
    // The request ends: with the relay's sentence when its answer got out before the connections
    // closed, else with the connection closed — never by the 20 s abort, which would be a hang.
    const ended = await answer.then((res) => res.json(), (error: Error) => ({ failed: (error.cause as { code?: string } | undefined)?.code ?? error.name }));
    if ('failed' in ended) expect(ended.failed).toBe('UND_ERR_SOCKET');
    else expect(ended).toMatchObject({ error: { code: 'E_UNAVAILABLE', message: expect.stringMatching(/relay stopped while transcribing/) } });
    await expect.poll(() => readdirSync(join(dir, 'data-stopping', 'transcribe'))).toEqual([]);
  });
});
