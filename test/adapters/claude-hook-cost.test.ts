// What a bash hook's request to the relay costs (HOOKCOST-n): the answer is read in blocks, not a
// byte per system call, and only a whole answer counts. The real `permission-fast` and
// `relay-client.bash` in a temp copy of the hooks, against a raw loopback server that answers as
// told; its slow path (`permission-node`) and `spool` are stand-ins that say they ran, since what
// is tested is which way the fast path goes, not what the slow path decides.
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, onCleanup, ROOT, runProcess, tempDir } from './harness';
import { expectStrace } from '../helpers/strace';

const REAL = path.join(ROOT, 'adapters', 'claude', 'hooks');
let hooks: string;
let home: string;
const ANSWER = '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"fast"}}\n';
const payload = JSON.stringify({ session_id: 's', cwd: '/tmp', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'echo hi' } });

beforeAll(() => {
  hooks = tempDir('commandr-hookcost-hooks-');
  for (const f of ['permission-fast', 'relay-client.bash']) fs.copyFileSync(path.join(REAL, f), path.join(hooks, f));
  fs.chmodSync(path.join(hooks, 'permission-fast'), 0o755);
  fs.writeFileSync(path.join(hooks, 'permission-node'), '#!/bin/sh\ncat >/dev/null\necho SLOW\n', { mode: 0o755 });
  fs.writeFileSync(path.join(hooks, 'spool'), '#!/bin/sh\ncat >/dev/null\n', { mode: 0o755 });
  home = tempDir('commandr-hookcost-home-');
  fs.writeFileSync(path.join(home, 'hook-token'), `${'t'.repeat(40)}\n`);
});
afterAll(cleanup);

/** A loopback server that, once a whole request is in, writes `parts` (one write each, each after the last was flushed) and closes. */
async function server(parts: string[]): Promise<string> {
  const srv = net.createServer((socket) => {
    let got = Buffer.alloc(0);
    socket.on('data', (d: Buffer) => {
      got = Buffer.concat([got, d]);
      const end = got.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(got.toString('latin1'))?.[1];
      if (end < 0 || length === undefined || got.length < end + 4 + Number(length)) return;
      const send = (i: number): void => {
        if (i === parts.length) { socket.end(); return; }
        socket.write(parts[i]!, () => send(i + 1));
      };
      send(0);
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  onCleanup(() => new Promise<void>((r) => srv.close(() => r())));
  return `http://127.0.0.1:${(srv.address() as net.AddressInfo).port}`;
}

const head = (status: number, length: number, extra = '') => `HTTP/1.1 ${status} X\r\ncontent-type: application/json\r\n${extra}content-length: ${length}\r\nConnection: close\r\n\r\n`;

function run(url: string, command = 'bash', args = [path.join(hooks, 'permission-fast')]) {
  return runProcess(command, args, { cwd: home, input: payload, env: { PATH: process.env.PATH, HOME: home, COMMANDR_HOME: home, COMMANDR_URL: url }, timeoutMs: 30_000 });
}

describe('the permission hook reads the relay answer', () => {
  it('HOOKCOST-1: a 200 with 4 KiB of headers is read in a few system calls, not one per byte', async () => {
    expectStrace();
    const pad = `x-pad: ${'p'.repeat(4000)}\r\n`;
    const url = await server([head(200, Buffer.byteLength(ANSWER), pad) + ANSWER]);
    const log = path.join(home, 'strace.log');
    const ran = await run(url, 'strace', ['-f', '-e', 'trace=read', '-o', log, 'bash', path.join(hooks, 'permission-fast')]);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toBe(ANSWER);
    const reads = fs.readFileSync(log, 'utf8').split('\n').filter((l) => /read\(\d+, "HTTP|read\(\d+, "(x-pad|[^"]{0,4}")/.test(l) || / read\(\d+, ".", 1\)/.test(l));
    // Reading line by line (bash's `read` on a socket) took one `read(…, 1)` per byte: > 4000 here.
    expect(reads.length).toBeLessThan(20);
  });

  it('HOOKCOST-1: an answer that arrives in pieces is put together whole', async () => {
    const whole = head(200, Buffer.byteLength(ANSWER)) + ANSWER;
    const url = await server([whole.slice(0, 5), whole.slice(5, 40), whole.slice(40, whole.length - 30), whole.slice(whole.length - 30)]);
    const ran = await run(url);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toBe(ANSWER);
  });

  it('HOOKCOST-1: a 200 whose body is cut short is no answer: the slow path decides, nothing partial is printed', async () => {
    const url = await server([head(200, Buffer.byteLength(ANSWER)) + ANSWER.slice(0, 50)]);
    const ran = await run(url);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toBe('SLOW\n');
  });

  it('HOOKCOST-1: a 200 without content-length is no answer either', async () => {
    const url = await server([`HTTP/1.1 200 X\r\nConnection: close\r\n\r\n${ANSWER}`]);
    const ran = await run(url);
    expect(ran.stdout).toBe('SLOW\n');
  });
});
