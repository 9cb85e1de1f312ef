// `commandr mcp` answers the handshake from a shell responder and becomes the Node
// server on the first line it does not answer (MCP-FAST-n). Real processes throughout:
// `bin/commandr mcp` started as an agent starts it (the file itself, sh first), next to
// `node bin/commandr mcp` (the SDK server from the start) fed the same lines, byte for byte.
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serverLines } from '../../adapters/mcp/listing';
import { serverCommand } from '../../adapters/mcp/wire';
import { COMMANDR_BIN, McpWorld, ROOT, TASK } from './fixture';

let world: McpWorld;
beforeEach(() => {
  world = new McpWorld();
});
afterEach(async () => {
  for (const s of sessions.splice(0)) s.kill();
  await world.close();
});

const sessions: Session[] = [];

/** One server process spoken to line by line over its stdio. */
class Session {
  readonly child: ChildProcessWithoutNullStreams;
  private buffer = '';
  private lines: string[] = [];
  private waiters: Array<() => void> = [];
  readonly exited: Promise<number | null>;
  constructor(command: string, args: string[], env: Record<string, string>, cwd: string) {
    this.child = spawn(command, args, { cwd, env: env as NodeJS.ProcessEnv, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      this.buffer += chunk;
      for (let at = this.buffer.indexOf('\n'); at >= 0; at = this.buffer.indexOf('\n')) {
        this.lines.push(this.buffer.slice(0, at + 1));
        this.buffer = this.buffer.slice(at + 1);
      }
      for (const w of this.waiters.splice(0)) w();
    });
    this.child.stderr.resume();
    this.exited = new Promise((resolve) => this.child.on('close', (code) => { for (const w of this.waiters.splice(0)) w(); resolve(code); }));
    sessions.push(this);
  }
  get pid(): number { return this.child.pid!; }
  write(text: string): void { this.child.stdin.write(text); }
  /** The next line written, newline included. */
  async next(): Promise<string> {
    while (this.lines.length === 0) {
      if (this.child.exitCode !== null || this.child.signalCode !== null) throw new Error(`the server exited; unread: ${this.buffer}`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    return this.lines.shift()!;
  }
  /** Sends a line, then a ping with a marker id, and returns every line written before the ping's answer. */
  async step(line: string, marker: string): Promise<string[]> {
    this.write(line);
    this.write(`${JSON.stringify({ jsonrpc: '2.0', id: marker, method: 'ping' })}\n`);
    const out: string[] = [];
    for (;;) {
      const l = await this.next();
      if (l === `{"result":{},"jsonrpc":"2.0","id":${JSON.stringify(marker)}}\n`) return out;
      out.push(l);
    }
  }
  /** What the process is now: `bash` (the responder) or `node` (the server), from /proc. */
  comm(): string { return fs.readFileSync(`/proc/${this.pid}/comm`, 'utf8').trim(); }
  /** Processes this one has started (none, for the responder). */
  children(): string { return fs.readFileSync(`/proc/${this.pid}/task/${this.pid}/children`, 'utf8').trim(); }
  kill(): void { if (this.child.exitCode === null) this.child.kill('SIGKILL'); }
}

const env = () => world.env({ AGENTS_TASK_ID: TASK });
/** As an agent starts it: the file itself, through its `#!/bin/sh`. */
const fast = (bin = COMMANDR_BIN) => new Session(bin, ['mcp'], env(), world.worktree);
/** The SDK server from the start: node runs the same file as JavaScript. */
const slow = () => new Session(process.execPath, [COMMANDR_BIN, 'mcp'], env(), world.worktree);

const init = (protocolVersion = '2025-06-18', id: unknown = 0) =>
  `${JSON.stringify({ method: 'initialize', params: { protocolVersion, capabilities: { roots: { listChanged: true }, elicitation: {} }, clientInfo: { name: 'claude-code', version: '2.1.332' } }, jsonrpc: '2.0', id })}\n`;
const initialized = '{"method":"notifications/initialized","jsonrpc":"2.0"}\n';
const list = (id: unknown = 1) => `${JSON.stringify({ method: 'tools/list', params: {}, jsonrpc: '2.0', id })}\n`;
const call = (id: unknown, note: string) => `${JSON.stringify({ method: 'tools/call', params: { name: 'progress', arguments: { note } }, jsonrpc: '2.0', id })}\n`;

describe('commandr mcp: the handshake without Node, the server on the first tool call', () => {
  it('MCP-FAST-1: initialize (each version the SDK supports, and others), ping and tools/list are answered by the shell, byte for byte as the SDK server answers them', async () => {
    const versions = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07', '2099-01-01', '', 'not a version'];
    for (const [i, version] of versions.entries()) {
      const id = i % 2 === 0 ? i : `req-${i}`;
      const f = fast();
      const s = slow();
      const script = [init(version, id), initialized, list(i + 100), `{"jsonrpc":"2.0","id":${i + 200},"method":"ping"}\n`, '{"jsonrpc":"2.0","id":"x","method":"tools/list"}\n'];
      const got: string[][] = [];
      const want: string[][] = [];
      for (const [n, line] of script.entries()) {
        got.push(await f.step(line, `m${n}`));
        want.push(await s.step(line, `m${n}`));
      }
      expect(got).toEqual(want);
      // The same answers the server gives in-process (what the build captured from).
      expect(got.flat()).toEqual(await serverLines(script.map((l) => JSON.parse(l))));
      expect(JSON.parse(got[0]![0]!).result.protocolVersion).toBe(i < 5 ? version : '2025-11-25');
      expect(JSON.parse(got[2]![0]!).result.tools.map((t: { name: string }) => t.name)).toEqual(['progress', 'ask', 'request_approval', 'emit_artifact', 'complete', 'notes']);
      // No Node: the process is still bash, and has started nothing.
      expect(f.comm()).toBe('bash');
      expect(f.children()).toBe('');
      expect(s.comm()).toBe('node');
      f.kill();
      s.kill();
    }
  });

  // What Claude Code 2.1.332 sends first, as it sent it (captured with tee): a `server/discover`
  // probe (a method this SDK does not have), then the handshake.
  const CLAUDE_OPENING = [
    '{"jsonrpc":"2.0","id":"server-discover-probe-1","method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"claude-code","title":"Claude Code","version":"2.1.332","description":"Anthropic\'s agentic coding tool","websiteUrl":"https://claude.com/claude-code"},"io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true},"elicitation":{"form":{},"url":{}}}}}}\n',
    '{"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{"listChanged":true},"elicitation":{"form":{},"url":{}}},"clientInfo":{"name":"claude-code","title":"Claude Code","version":"2.1.332","description":"Anthropic\'s agentic coding tool","websiteUrl":"https://claude.com/claude-code"}},"jsonrpc":"2.0","id":0}\n',
    '{"jsonrpc":"2.0","method":"notifications/initialized"}\n',
    '{"method":"tools/list","jsonrpc":"2.0","id":1}\n',
  ];
  it('MCP-FAST-1: Claude Code\'s opening (a server/discover probe, initialize, initialized, tools/list) is answered by the shell as the SDK server answers it', async () => {
    const f = fast();
    const s = slow();
    for (const line of CLAUDE_OPENING) expect(await f.step(line, 'h')).toEqual(await s.step(line, 'h'));
    expect(f.comm()).toBe('bash');
    expect(f.children()).toBe('');
  });

  it('MCP-FAST-2 MCP-2: the first tool call turns the same process into the Node server; progress lands on the bus with the same result as before, and later calls are served by it', async () => {
    const f = fast();
    const s = slow();
    for (const line of [init(), initialized, list()]) {
      expect(await f.step(line, 'h')).toEqual(await s.step(line, 'h'));
    }
    expect(f.comm()).toBe('bash');
    const pid = f.pid;
    f.write(call(2, 'parser done'));
    const first = await f.next();
    s.write(call(2, 'parser done'));
    expect(first).toBe(await s.next());
    expect(JSON.parse(first)).toMatchObject({ id: 2, result: { structuredContent: { task: TASK, note: 'parser done' } } });
    // Same pid, now node: the responder exec'd the server in its place.
    expect(f.pid).toBe(pid);
    expect(f.comm()).toBe('node');
    f.write(call('three', 'wiring next'));
    expect(JSON.parse(await f.next())).toMatchObject({ id: 'three', result: { structuredContent: { note: 'wiring next' } } });
    expect(await f.step(list(4), 'after')).toEqual(await s.step(list(4), 'after'));
    expect(world.events().filter((e) => e.event === 'task_progress').map((e) => e.note)).toEqual(['parser done', 'parser done', 'wiring next']);
    // The agent closes stdin: the server ends cleanly.
    f.child.stdin.end();
    expect(await f.exited).toBe(0);
  });

  // Lines the responder must not answer itself; each is sent after the handshake, to a
  // fresh responder and to the Node server, and both must write exactly the same.
  const hostile: Array<[string, string]> = [
    ['not JSON', 'hello\n'],
    ['JSON with trailing garbage', '{"jsonrpc":"2.0","id":5,"method":"ping"} x\n'],
    ['two values', '{"jsonrpc":"2.0","id":5,"method":"ping"}{}\n'],
    ['a top-level array', '[{"jsonrpc":"2.0","id":5,"method":"ping"}]\n'],
    ['a repeated key, the last one unknown', '{"jsonrpc":"2.0","id":5,"method":"tools/list","method":"resources/list"}\n'],
    ['an escaped method name', '{"jsonrpc":"2.0","id":5,"method":"tools\\/list"}\n'],
    ['an escaped key', '{"jsonrpc":"2.0","id":5,"m\\u0065thod":"ping"}\n'],
    ['an unknown method asking for progress', '{"jsonrpc":"2.0","id":5,"method":"resources/list","params":{"_meta":{"progressToken":"p"}}}\n'],
    ['an unknown method in a task', '{"jsonrpc":"2.0","id":5,"method":"resources/list","params":{"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"t"}}}}\n'],
    ['an unknown method with _meta an array', '{"jsonrpc":"2.0","id":5,"method":"resources/list","params":{"_meta":[]}}\n'],
    ['an unknown notification', '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}\n'],
    ['ping without an id', '{"jsonrpc":"2.0","method":"ping"}\n'],
    ['a null id', '{"jsonrpc":"2.0","id":null,"method":"ping"}\n'],
    ['a fractional id', '{"jsonrpc":"2.0","id":1.5,"method":"ping"}\n'],
    ['an id with an exponent', '{"jsonrpc":"2.0","id":1e2,"method":"tools/list"}\n'],
    ['a string id with an escape', '{"jsonrpc":"2.0","id":"a\\"b","method":"ping"}\n'],
    ['a string id with non-ASCII', '{"jsonrpc":"2.0","id":"é","method":"ping"}\n'],
    ['jsonrpc 1.0', '{"jsonrpc":"1.0","id":5,"method":"ping"}\n'],
    ['an extra top-level key', '{"jsonrpc":"2.0","id":5,"method":"ping","extra":1}\n'],
    ['params null', '{"jsonrpc":"2.0","id":5,"method":"tools/list","params":null}\n'],
    ['params an array', '{"jsonrpc":"2.0","id":5,"method":"tools/list","params":[]}\n'],
    ['a cursor that is a number', '{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"cursor":3}}\n'],
    ['_meta on tools/list', '{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"_meta":{"progressToken":1}}}\n'],
    ['a second initialize', init('2024-11-05', 9)],
    ['a response from the client', '{"jsonrpc":"2.0","id":5,"result":{}}\n'],
    ['a raw control character', '{"jsonrpc":"2.0","id":5,"method":"ping","params":{"x":"a\tb"}}\n'],
    ['an empty line', '\n'],
    ['a line over the limit (100 KB)', `${JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'tools/list', params: { cursor: 'c'.repeat(100_000) } })}\n`],
    ['a line of exactly the limit, then its newline', `${JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'ping', params: { pad: '' } }).replace('""', `"${'p'.repeat(16384 - 60)}"`)}\n`],
  ];
  it.each(hostile)('MCP-FAST-3: %s is handed to the Node server, which answers it as it always has', async (_name, line) => {
    const f = fast();
    const s = slow();
    for (const l of [init(), initialized]) expect(await f.step(l, 'h')).toEqual(await s.step(l, 'h'));
    expect(f.comm()).toBe('bash');
    expect(await f.step(line, 'x')).toEqual(await s.step(line, 'x'));
    expect(f.comm()).toBe('node');
    // The session goes on, the handshake's state intact in the server it became.
    expect(await f.step(list(7), 'y')).toEqual(await s.step(list(7), 'y'));
  });

  it('MCP-FAST-3: a tool call over the line limit is read on by the Node server from the part the responder took', async () => {
    const f = fast();
    const s = slow();
    for (const l of [init(), initialized]) expect(await f.step(l, 'h')).toEqual(await s.step(l, 'h'));
    const huge = `${JSON.stringify({ method: 'tools/call', params: { name: 'progress', arguments: { note: 'short', pad: 'x'.repeat(100_000) } }, jsonrpc: '2.0', id: 6 })}\n`;
    f.write(huge);
    s.write(huge);
    const got = await f.next();
    expect(got).toBe(await s.next());
    expect(JSON.parse(got)).toMatchObject({ id: 6, result: { structuredContent: { note: 'short' } } });
    expect(f.comm()).toBe('node');
  });

  const answered: Array<[string, string]> = [
    ['an unknown method', '{"jsonrpc":"2.0","id":5,"method":"resources/list"}\n'],
    ['an unknown method with other _meta', '{"jsonrpc":"2.0","id":"u","method":"prompts/list","params":{"cursor":"c","_meta":{"x.y/z":[1,{"a":null}]}}}\n'],
    ['non-ASCII text in the client\'s info', `${JSON.stringify({ method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: { experimental: { 'x/y': {} }, sampling: { tools: {} } }, clientInfo: { name: 'Cöde 日本', version: '1\u00e9' } }, jsonrpc: '2.0', id: 9 })}\n`],
    ['a numeric id', '{"jsonrpc":"2.0","id":123456789012345,"method":"ping"}\n'],
    ['a negative id', '{"jsonrpc":"2.0","id":-3,"method":"tools/list"}\n'],
    ['a string id', '{"id":"abc-1 ok","method":"tools/list","jsonrpc":"2.0","params":{"cursor":"c"}}\n'],
    ['white space and CRLF', ' { "jsonrpc" : "2.0" , "id" : 5 , "method" : "ping" , "params" : { } } \r\n'],
  ];
  it.each(answered)('MCP-FAST-1: %s is answered by the shell, as the SDK server answers it', async (_name, line) => {
    const f = fast();
    const s = slow();
    const opening = line.includes('"initialize"') ? [] : [init(), initialized];
    for (const l of [...opening, line]) expect(await f.step(l, 'h')).toEqual(await s.step(l, 'h'));
    expect(f.comm()).toBe('bash');
  });

  it('MCP-FAST-3: an initialize whose capabilities the SDK refuses is the Node server\'s to answer', async () => {
    const bad = `${JSON.stringify({ method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: { roots: { listChanged: 'yes' } }, clientInfo: { name: 'c', version: '1' } }, jsonrpc: '2.0', id: 0 })}\n`;
    const f = fast();
    const s = slow();
    const got = await f.step(bad, 'h');
    expect(got).toEqual(await s.step(bad, 'h'));
    expect(JSON.parse(got[0]!)).toMatchObject({ id: 0, error: { message: expect.stringMatching(/listChanged/) } });
    expect(f.comm()).toBe('node');
  });

  it('MCP-FAST-4: at end of input the responder exits 0; a last line without its newline is not a message', async () => {
    const f = fast();
    f.write(init());
    expect(JSON.parse(await f.next())).toMatchObject({ id: 0, result: { protocolVersion: '2025-06-18' } });
    f.child.stdin.end('{"jsonrpc":"2.0","id":1,"method":"tools/li');
    expect(await f.exited).toBe(0);
    expect(await f.next().catch(() => 'nothing')).toBe('nothing');
  });

  it('MCP-FAST-2: a second session, side by side, is served the same way', async () => {
    const [a, b] = [fast(), fast()];
    expect(await a.step(init(), 'h')).toEqual(await b.step(init(), 'h'));
    expect(a.pid).not.toBe(b.pid);
    a.write(call(1, 'from a'));
    expect(JSON.parse(await a.next())).toMatchObject({ result: { structuredContent: { note: 'from a' } } });
    expect([a.comm(), b.comm()]).toEqual(['node', 'bash']);
    b.write(call(1, 'from b'));
    expect(JSON.parse(await b.next())).toMatchObject({ result: { structuredContent: { note: 'from b' } } });
    expect(world.events().filter((e) => e.event === 'task_progress').map((e) => e.note).sort()).toEqual(['from a', 'from b']);
  });

  it('MCP-FAST-5: reached through an npm-link style symlink it finds its install; every other subcommand is Node as before', async () => {
    const linkDir = path.join(world.dir, 'global-bin');
    fs.mkdirSync(path.join(linkDir, 'lib'), { recursive: true });
    // npm link: <prefix>/bin/commandr -> ../lib/node_modules/commandr/bin/commandr, itself a link to the checkout.
    fs.symlinkSync(ROOT, path.join(linkDir, 'lib', 'commandr'));
    fs.mkdirSync(path.join(linkDir, 'bin'));
    fs.symlinkSync(path.join('..', 'lib', 'commandr', 'bin', 'commandr'), path.join(linkDir, 'bin', 'commandr'));
    const f = fast(path.join(linkDir, 'bin', 'commandr'));
    const s = slow();
    for (const l of [init(), list()]) expect(await f.step(l, 'h')).toEqual(await s.step(l, 'h'));
    expect(f.comm()).toBe('bash');
    const version = new Session(path.join(linkDir, 'bin', 'commandr'), ['--version'], env(), world.worktree);
    expect(await version.next()).toBe(`${JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version}\n`);
    expect(await version.exited).toBe(0);
    // `mcp --help` is not the responder's: Node prints the usage.
    const help = new Session(path.join(linkDir, 'bin', 'commandr'), ['mcp', '--help'], env(), world.worktree);
    expect(await help.next()).toMatch(/^usage: commandr mcp/);
  });

  it('MCP-FAST-5 MCP-8: with --node=<path> (jobs, OpenCode) it hands over to that node, whatever PATH holds; with none on PATH it says so', async () => {
    const tools = path.join(world.dir, 'tools-without-node');
    fs.mkdirSync(tools);
    for (const t of ['bash', 'readlink', 'git']) fs.symlinkSync(execFileSync('sh', ['-c', `command -v ${t}`], { encoding: 'utf8' }).trim(), path.join(tools, t));
    const noNode = { ...env(), PATH: tools };
    const f = new Session(COMMANDR_BIN, ['mcp', `--node=${process.execPath}`], noNode, world.worktree);
    const s = slow();
    for (const l of [init(), initialized, list()]) expect(await f.step(l, 'h')).toEqual(await s.step(l, 'h'));
    expect(f.comm()).toBe('bash');
    f.write(call(2, 'from a job'));
    expect(JSON.parse(await f.next())).toMatchObject({ id: 2, result: { structuredContent: { note: 'from a job' } } });
    expect(f.comm()).toBe('node');
    // What jobs and OpenCode are given to start (MCP-8).
    expect(serverCommand()).toEqual([COMMANDR_BIN, 'mcp', `--node=${process.execPath}`]);
    const lost = new Session(COMMANDR_BIN, ['mcp'], noNode, world.worktree);
    let stderr = '';
    lost.child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    expect(await lost.exited).toBe(70);
    expect(stderr).toMatch(/commandr mcp: node is not found/);
  });

  it('MCP-FAST-5: an install whose listing is missing or older than its server starts the Node server at once', async () => {
    const copy = path.join(world.dir, 'install');
    fs.mkdirSync(path.join(copy, 'bin'), { recursive: true });
    fs.mkdirSync(path.join(copy, 'dist'));
    for (const f of ['commandr', 'load.cjs', 'commandr-mcp.bash']) fs.copyFileSync(path.join(ROOT, 'bin', f), path.join(copy, 'bin', f));
    fs.chmodSync(path.join(copy, 'bin', 'commandr'), 0o755);
    for (const f of ['commandr.cjs', 'mcp.cjs']) fs.copyFileSync(path.join(ROOT, 'dist', f), path.join(copy, 'dist', f));
    const bin = path.join(copy, 'bin', 'commandr');
    const none = fast(bin);
    expect(await none.step(init(), 'h')).toHaveLength(1);
    expect(none.comm()).toBe('node');
    fs.copyFileSync(path.join(ROOT, 'dist', 'mcp-listing.sh'), path.join(copy, 'dist', 'mcp-listing.sh'));
    const fresh = fast(bin);
    expect(await fresh.step(init(), 'h')).toHaveLength(1);
    expect(fresh.comm()).toBe('bash');
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(path.join(copy, 'dist', 'mcp-listing.sh'), old, old);
    const stale = fast(bin);
    expect(await stale.step(init(), 'h')).toHaveLength(1);
    expect(stale.comm()).toBe('node');
  });
});
