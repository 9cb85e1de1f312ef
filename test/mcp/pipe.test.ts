// `commandr mcp` as a byte pipe to the server the relay hosts (MCP-ONE-n), spoken to by the
// official SDK client exactly as an agent starts it (`bin/commandr mcp` through sh): which process
// serves, what is left when the agent goes, what the relay refuses, and the Node server when
// there is no relay.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { COMMANDR_BIN, McpWorld, ROOT, TASK, textOf } from './fixture';
import { MAX_FRAME_BYTES } from '../../protocol/wire/frames';

let world: McpWorld;
afterEach(async () => {
  await world.close();
});

function pidOf(client: Client): number {
  const pid = (client.transport as StdioClientTransport).pid;
  if (!pid) throw new Error('no server pid');
  return pid;
}

function exeOf(pid: number): string {
  return path.basename(fs.readlinkSync(`/proc/${pid}/exe`));
}

/** Pids whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      if (Number(fields[1]) === pid) out.push(Number(entry));
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(') ') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Waits for `check`, re-reading it as the processes and sockets change; the deadline only bounds a hang. */
async function until(what: string, check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** One raw upgrade request to the pipe; the relay's answer head (status line and headers). */
function rawPipe(port: number, headers: string[], extra = ''): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let got = '';
    socket.on('data', (d) => {
      got += d.toString('latin1');
      const at = got.indexOf('\r\n\r\n');
      if (at >= 0) {
        socket.destroy();
        resolve(got.slice(0, at));
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(got));
    socket.write(`GET /api/mcp/pipe HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: Upgrade\r\nUpgrade: commandr-mcp\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n${extra}`, 'latin1');
  });
}

/** A raw `GET /api/mcp/pipe` upgrade to the world's relay with its hook credential and `headers`. */
function pipeUpgrade(to: McpWorld, headers: string[]): string {
  const token = fs.readFileSync(path.join(to.dataDir, 'hook-token'), 'utf8').trim();
  return `GET /api/mcp/pipe HTTP/1.1\r\nHost: 127.0.0.1:${to.relay.port}\r\nAuthorization: Bearer ${token}\r\nConnection: Upgrade\r\nUpgrade: commandr-mcp\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n`;
}

describe('commandr mcp through the relay (MCP-ONE)', () => {
  it('MCP-ONE-1 MCP-ONE-2: with a relay, the server the agent starts is cat piping bytes; the relay serves the tools, scoped to the session', async () => {
    world = new McpWorld();
    await world.startRelay();
    const client = await world.connect({ asAgent: true, env: { AGENTS_TASK_ID: TASK } });
    const pid = pidOf(client);
    expect(exeOf(pid)).toBe('cat');
    expect(childrenOf(pid).map(exeOf)).toEqual(['cat']);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['progress', 'ask', 'request_approval', 'emit_artifact', 'complete', 'notes']);
    const result = await client.callTool({ name: 'progress', arguments: { note: 'through the relay' } });
    expect(textOf(result)).toBe('Noted on task T-1.');
    expect(world.events()).toContainEqual(expect.objectContaining({ event: 'task_progress', task: TASK, note: 'through the relay' }));
    // The session's own task only (MCP-3), as in the Node server.
    expect(textOf(await client.callTool({ name: 'progress', arguments: { task: 'T-2', note: 'x' } }))).toMatch(/^E_OTHER_TASK/);
    expect(world.relay.mcp.stats()).toEqual({ served: 1, open: 1 });
  });

  it('MCP-ONE-4: the agent closing stdin, or killing the server, leaves no process and no session behind', async () => {
    world = new McpWorld();
    await world.startRelay();
    const gentle = await world.connect({ asAgent: true, env: { AGENTS_TASK_ID: TASK } });
    const killed = await world.connect({ asAgent: true, env: { AGENTS_TASK_ID: TASK } });
    await gentle.listTools();
    await killed.listTools();
    const pids = [pidOf(gentle), pidOf(killed)];
    const all = [...pids, ...pids.flatMap(childrenOf)];
    expect(all).toHaveLength(4);
    expect(world.relay.mcp.stats().open).toBe(2);
    process.kill(pids[1], 'SIGKILL');
    await until('the killed server\'s child and session to end', () => !alive(all[3]) && world.relay.mcp.stats().open === 1);
    await gentle.close(); // ends stdin (then SIGTERM only if it lingers)
    await until('every pipe process and session to end', () => all.every((p) => !alive(p)) && world.relay.mcp.stats().open === 0);
  });

  it('MCP-ONE-6: no relay (never started, or stopped): the Node server here serves the same tools', async () => {
    world = new McpWorld();
    const client = await world.connect({ asAgent: true, env: { AGENTS_TASK_ID: TASK } });
    expect(exeOf(pidOf(client))).toBe('node');
    expect(textOf(await client.callTool({ name: 'progress', arguments: { note: 'no relay at all' } }))).toBe('Noted on task T-1.');
    await world.startRelay();
    const url = world.relay.url;
    await world.relay.close();
    const after = await world.connect({ asAgent: true, env: { AGENTS_TASK_ID: TASK, COMMANDR_URL: url } });
    expect(exeOf(pidOf(after))).toBe('node');
    expect(textOf(await after.callTool({ name: 'progress', arguments: { note: 'relay stopped' } }))).toBe('Noted on task T-1.');
    expect(world.events().filter((e) => e.event === 'task_progress').map((e) => e.note)).toEqual(['no relay at all', 'relay stopped']);
  });

  it('MCP-ONE-5: a run\'s own credential (COMMANDR_HOOK_TOKEN) keeps the Node server in the run; the relay refuses it on the pipe', async () => {
    world = new McpWorld();
    await world.startRelay();
    const client = await world.connect({ asAgent: true, env: { AGENTS_TASK_ID: TASK, COMMANDR_HOOK_TOKEN: `cj_${'a'.repeat(43)}` } });
    expect(exeOf(pidOf(client))).toBe('node');
    expect(textOf(await client.callTool({ name: 'progress', arguments: { note: 'in the run' } }))).toBe('Noted on task T-1.');
    expect(world.relay.mcp.stats().served).toBe(0);
    const head = await rawPipe(world.relay.port, [`Authorization: Bearer cj_${'a'.repeat(43)}`, 'Commandr-Mcp-Role: down', `Commandr-Env: PWD=${world.worktree}`]);
    expect(head).toMatch(/^HTTP\/1\.1 401 /);
    expect(head).toContain('E_UNAUTHORIZED');
  });

  it('MCP-ONE-3: the relay treats the upgrade as hostile input: each bad credential or field is refused, naming what is wrong, and nothing is served', async () => {
    world = new McpWorld();
    await world.startRelay();
    const token = fs.readFileSync(path.join(world.dataDir, 'hook-token'), 'utf8').trim();
    const port = world.relay.port;
    const auth = `Authorization: Bearer ${token}`;
    const cases: Array<[string[], RegExp]> = [
      [['Commandr-Mcp-Role: down', `Commandr-Env: PWD=${world.worktree}`], /^HTTP\/1\.1 401 [^]*E_UNAUTHORIZED/],
      [[`Authorization: Bearer ${token.slice(0, -1)}x`, 'Commandr-Mcp-Role: down', `Commandr-Env: PWD=${world.worktree}`], /^HTTP\/1\.1 401 /],
      [[auth, 'Origin: http://evil.example', 'Commandr-Mcp-Role: down', `Commandr-Env: PWD=${world.worktree}`], /^HTTP\/1\.1 403 [^]*E_FORBIDDEN_ORIGIN/],
      [[auth, 'Commandr-Mcp-Role: sideways'], /^HTTP\/1\.1 400 [^]*Commandr-Mcp-Role must be down or up/],
      [[auth, 'Commandr-Mcp-Role: down'], /^HTTP\/1\.1 400 [^]*PWD \(the session's directory\) is missing/],
      [[auth, 'Commandr-Mcp-Role: down', 'Commandr-Env: PWD=relative/dir'], /^HTTP\/1\.1 400 [^]*PWD must be an absolute path/],
      [[auth, 'Commandr-Mcp-Role: down', `Commandr-Env: PWD=${world.dir}/nope`], /^HTTP\/1\.1 400 [^]*is not a directory here/],
      [[auth, 'Commandr-Mcp-Role: down', `Commandr-Env: PWD=${world.worktree}`, 'Commandr-Env: LD_PRELOAD=/tmp/x.so'], /^HTTP\/1\.1 400 [^]*"LD_PRELOAD" is not a field the pipe takes/],
      [[auth, 'Commandr-Mcp-Role: down', `Commandr-Env: PWD=${world.worktree}`, 'Commandr-Env: AGENTS_TASK_ID=T-1', 'Commandr-Env: AGENTS_TASK_ID=T-2'], /^HTTP\/1\.1 400 [^]*AGENTS_TASK_ID given twice/],
      [[auth, 'Commandr-Mcp-Role: down', `Commandr-Env: PWD=${world.worktree}`, `Commandr-Env: COMMANDR_AGENT_ID=${'x'.repeat(5000)}`], /^HTTP\/1\.1 400 [^]*longer than 4096 bytes/],
      [[auth, 'Commandr-Mcp-Role: down', `Commandr-Env: PWD=${world.worktree}`, 'Commandr-Env: COMMANDR_AGENT_ID=a\u0001b'], /^HTTP\/1\.1 400 /],
      [[auth, 'Commandr-Mcp-Role: down', `Commandr-Env: PWD=${world.worktree}`, 'Commandr-Env: COMMANDR_AGENT_ID=a\u00ffb'], /^HTTP\/1\.1 400 [^]*bytes that are not UTF-8/],
      [[auth, 'Commandr-Mcp-Role: up', `Commandr-Mcp-Session: ${'0'.repeat(32)}`], /^HTTP\/1\.1 404 [^]*no MCP session is waiting/],
    ];
    for (const [headers, expected] of cases) expect(await rawPipe(port, headers), headers.join(' | ')).toMatch(expected);
    // Bytes sent before the relay answered `down` are not taken as the session's first message.
    expect(await rawPipe(port, [auth, 'Commandr-Mcp-Role: down', `Commandr-Env: PWD=${world.worktree}`], '{"jsonrpc":"2.0"}\n')).toMatch(/^HTTP\/1\.1 400 [^]*nothing may follow/);
    expect(world.relay.mcp.stats()).toEqual({ served: 0, open: 0 });
    // And the one that is right: answered 101 with a session id.
    expect(await rawPipe(port, [auth, 'Commandr-Mcp-Role: down', `Commandr-Env: PWD=${world.worktree}`])).toMatch(/^HTTP\/1\.1 101 [^]*Commandr-Mcp-Session: [0-9a-f]{32}/);
  });

  it('MCP-ONE-3: `up` is taken without an answer: the relay never writes a byte to it, and bytes sent right behind its request are the session\'s first message', async () => {
    world = new McpWorld();
    await world.startRelay();
    const port = world.relay.port;
    const upgrade = (headers: string[]) => pipeUpgrade(world, headers);
    const down = net.connect(port, '127.0.0.1');
    let fromDown = '';
    const session = await new Promise<string>((resolve, reject) => {
      down.on('data', (d) => {
        fromDown += d.toString('latin1');
        const head = fromDown.includes('\r\n\r\n') ? fromDown.slice(0, fromDown.indexOf('\r\n\r\n')) : undefined;
        if (head === undefined) return;
        const id = /^HTTP\/1\.1 101 [^]*Commandr-Mcp-Session: ([0-9a-f]{32})$/m.exec(head);
        if (id) resolve(id[1]);
        else reject(new Error(`down was not switched: ${head}`));
      });
      down.on('error', reject);
      down.write(upgrade(['Commandr-Mcp-Role: down', `Commandr-Env: PWD=${world.worktree}`]));
    });
    const up = net.connect(port, '127.0.0.1');
    let fromUp = 0;
    up.on('data', (d) => (fromUp += d.length));
    const upClosed = new Promise<void>((resolve) => up.on('close', () => resolve()));
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } };
    // The request and the first message in one write, as an agent's quick first message may come.
    up.write(upgrade(['Commandr-Mcp-Role: up', `Commandr-Mcp-Session: ${session}`]) + `${JSON.stringify(initialize)}\n`);
    await until('the initialize answer on down', () => /"id":1\b/.test(fromDown));
    up.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
    await until('the tools/list answer on down', () => /"id":2\b/.test(fromDown));
    expect(world.relay.mcp.stats()).toEqual({ served: 1, open: 1 });
    // The agent closes the server's stdin: up ends, the relay ends the session; up got nothing, ever.
    up.end();
    await upClosed;
    await until('the session to end', () => world.relay.mcp.stats().open === 0);
    expect(fromUp).toBe(0);
    down.destroy();
  });

  it('MCP-ONE-9: a session cannot grow the relay\'s memory: a message past MAX_FRAME_BYTES ends it unserved', async () => {
    world = new McpWorld();
    await world.startRelay();
    const port = world.relay.port;
    const upgrade = (headers: string[]) => pipeUpgrade(world, headers);
    const down = net.connect(port, '127.0.0.1');
    let fromDown = '';
    let answered = (): void => undefined;
    // Settles when the relay ends the session, or when it answers the long message.
    const outcome = new Promise<string>((resolve) => {
      down.on('close', () => resolve('closed'));
      answered = () => resolve('answered');
    });
    const session = await new Promise<string>((resolve, reject) => {
      down.on('data', (d) => {
        fromDown += d.toString('latin1');
        const id = /Commandr-Mcp-Session: ([0-9a-f]{32})\r\n/.exec(fromDown);
        if (id) resolve(id[1]!);
        if (/"id":1\b/.test(fromDown)) answered();
      });
      down.on('error', reject);
      down.write(upgrade(['Commandr-Mcp-Role: down', `Commandr-Env: PWD=${world.worktree}`]));
    });
    const up = net.connect(port, '127.0.0.1');
    up.on('error', () => undefined); // the relay may cut it while this test still writes
    up.write(upgrade(['Commandr-Mcp-Role: up', `Commandr-Mcp-Session: ${session}`]));
    // One message of 2 MiB (a client name padded out): the server would keep it all until its line
    // ends, then answer it.
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x'.repeat(2 * MAX_FRAME_BYTES), version: '0' } } };
    up.write(`${JSON.stringify(initialize)}\n`);
    expect(await outcome).toBe('closed');
    expect(fromDown).not.toMatch(/"id":1\b/);
    await until('the session to end', () => world.relay.mcp.stats().open === 0);
    up.destroy();
  });

  it('MCP-ONE-9: an agent that sends requests and never reads the answers has its session ended, not its answers kept', async () => {
    world = new McpWorld();
    await world.startRelay();
    const port = world.relay.port;
    const upgrade = (headers: string[]) => pipeUpgrade(world, headers);
    const down = net.connect(port, '127.0.0.1');
    down.on('error', () => undefined);
    const session = await new Promise<string>((resolve) => {
      let got = '';
      const onData = (d: Buffer) => {
        got += d.toString('latin1');
        const id = /Commandr-Mcp-Session: ([0-9a-f]{32})\r\n/.exec(got);
        if (!id) return;
        down.off('data', onData);
        down.pause(); // from here on, nothing the relay sends is read
        resolve(id[1]!);
      };
      down.on('data', onData);
      down.write(upgrade(['Commandr-Mcp-Role: down', `Commandr-Env: PWD=${world.worktree}`]));
    });
    const up = net.connect(port, '127.0.0.1');
    up.on('error', () => undefined);
    const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } };
    up.write(upgrade(['Commandr-Mcp-Role: up', `Commandr-Mcp-Session: ${session}`]) + `${JSON.stringify(initialize)}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    // tools/list answers are ~4 KB each: 8,000 of them are ~32 MB the relay would hold for this agent.
    const list = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })}\n`.repeat(1000);
    for (let i = 0; i < 8 && !up.destroyed; i++) up.write(list);
    await until('the session to end', () => world.relay.mcp.stats().open === 0 && world.relay.mcp.stats().served === 1);
    up.destroy();
    down.destroy();
  });

  it('MCP-ONE-6: a relay that refuses the credential (a hook-token from another data dir) means the Node server here, saying why on stderr', async () => {
    world = new McpWorld();
    await world.startRelay();
    const other = path.join(world.dir, 'other-home');
    fs.mkdirSync(other, { mode: 0o700 });
    fs.writeFileSync(path.join(other, 'hook-token'), `${'b'.repeat(43)}\n`, { mode: 0o600 });
    const client = await world.connect({ asAgent: true, env: { AGENTS_TASK_ID: TASK, COMMANDR_HOME: other, COMMANDR_URL: world.relay.url } });
    const stderr: string[] = [];
    (client.transport as StdioClientTransport).stderr?.on('data', (d: Buffer) => stderr.push(d.toString()));
    expect(exeOf(pidOf(client))).toBe('node');
    expect(textOf(await client.callTool({ name: 'progress', arguments: { note: 'refused, served here' } }))).toBe('Noted on task T-1.');
    expect(world.relay.mcp.stats().served).toBe(0);
    await until('the reason on stderr', () => stderr.join('').includes('the relay refused the pipe: E_UNAUTHORIZED'));
  });

  it('MCP-ONE-7: --node=<path> names only the no-relay server\'s node: through the relay no node starts, even when that path names none', async () => {
    world = new McpWorld();
    await world.startRelay();
    const start = () => {
      const transport = new StdioClientTransport({ command: COMMANDR_BIN, args: ['mcp', '--node=/nonexistent/node'], cwd: world.worktree, env: world.env({ AGENTS_TASK_ID: TASK }), stderr: 'pipe' });
      return { transport, client: new Client({ name: 'commandr-test', version: '0.0.0' }) };
    };
    const through = start();
    await through.client.connect(through.transport);
    expect(textOf(await through.client.callTool({ name: 'progress', arguments: { note: 'no node needed' } }))).toBe('Noted on task T-1.');
    await through.client.close();
    await world.relay.close();
    const without = start();
    await expect(without.client.connect(without.transport)).rejects.toThrow();
    await without.client.close();
    expect(world.events().filter((e) => e.event === 'task_progress').map((e) => e.note)).toEqual(['no node needed']);
  });

  it('MCP-ONE-1: the relay\'s answers are the Node server\'s, byte for byte (what the retired shell responder replayed: initialize, tools/list, an unknown method, ping); the build captures no listing', async () => {
    world = new McpWorld();
    await world.startRelay();
    expect(fs.existsSync(path.join(ROOT, 'dist', 'mcp-listing.sh'))).toBe(false);
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 'x', method: 'server/discover' },
      { jsonrpc: '2.0', id: 3, method: 'ping' },
    ].map((m) => `${JSON.stringify(m)}\n`);
    const exchange = (command: string, args: string[]) =>
      new Promise<string[]>((resolve, reject) => {
        const child = spawn(command, args, { cwd: world.worktree, env: world.env({ AGENTS_TASK_ID: TASK }) as unknown as NodeJS.ProcessEnv, stdio: ['pipe', 'pipe', 'ignore'] });
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString('utf8');
          if (out.split('\n').length > 4) child.stdin.end();
        });
        child.on('error', reject);
        child.on('close', () => resolve(out.split('\n').filter(Boolean)));
        child.stdin.write(lines.join(''));
      });
    const piped = await exchange(COMMANDR_BIN, ['mcp']);
    expect(world.relay.mcp.stats().served).toBe(1);
    const node = await exchange(process.execPath, [COMMANDR_BIN, 'mcp']);
    expect(world.relay.mcp.stats().served).toBe(1);
    expect(piped).toHaveLength(4);
    expect(piped).toEqual(node);
  });
});
