// The permission fast path (FAST-n): the real hook (`hooks/permission`, sh → bash) against a
// real relay, with node kept out of its PATH where the claim is "no node start"; the slow path
// when the relay cannot answer; and the route's refusals, as an attacker would try them.
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DECISION_ENV_KEYS } from '../../adapters/claude/lib/permission-decide';
import { relayUrl } from '../../adapters/lib/env';
import { processStarted } from '../../protocol/relay-info';
import { cleanup, makeHome, makeRepo, runProcess, startRelay, tempDir, type Home, type TestRelay } from '../adapters/harness';

const HOOKS = path.resolve(__dirname, '..', '..', 'adapters', 'claude', 'hooks');
const HOOK = path.join(HOOKS, 'permission');
let h: Home;
let relay: TestRelay;
let repo: string;
let token: string;
/** A PATH with sh, bash and env but no node: the fast path must answer with it alone. */
let noNode: string;

beforeAll(async () => {
  h = makeHome();
  relay = await startRelay(h.commandrHome);
  ({ repo } = makeRepo());
  token = fs.readFileSync(path.join(h.commandrHome, 'hook-token'), 'utf8').trim();
  noNode = tempDir('commandr-no-node-');
  for (const tool of ['sh', 'bash', 'env', 'cat']) {
    const found = ['/usr/bin', '/bin', '/usr/local/bin'].map((d) => path.join(d, tool)).find((f) => fs.existsSync(f));
    if (found) fs.symlinkSync(found, path.join(noNode, tool));
  }
});
afterAll(cleanup);

type Out = { permissionDecision: string; permissionDecisionReason: string } | undefined;

async function hook(toolName: string, toolInput: Record<string, unknown>, env: Record<string, string | undefined> = {}): Promise<Out> {
  const payload = JSON.stringify({ session_id: 'fast-1', cwd: repo, hook_event_name: 'PreToolUse', tool_name: toolName, tool_input: toolInput, tool_use_id: `toolu_${Math.random()}` });
  const ran = await runProcess(HOOK, [], { cwd: repo, input: payload, env: { PATH: process.env.PATH, HOME: h.home, COMMANDR_HOME: h.commandrHome, ...env } });
  expect(ran.code).toBe(0);
  return ran.stdout.trim() ? (JSON.parse(ran.stdout) as { hookSpecificOutput: NonNullable<Out> }).hookSpecificOutput : undefined;
}

function check(body: Buffer | string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${relay.relay.url}/api/permissions/check`, { method: 'POST', headers: { authorization: `Bearer ${token}`, ...headers }, body: typeof body === 'string' ? body : new Uint8Array(body) });
}

const record = (env: Record<string, string>, payload: unknown) => Buffer.concat([
  ...Object.entries(env).map(([k, v]) => Buffer.from(`${k}=${v}\0`)), Buffer.from('\0'), Buffer.from(JSON.stringify(payload)),
]);

describe('the permission fast path', () => {
  it('FAST-1: with the relay up, policy allow and deny are answered by sh, bash and the relay alone — no node on PATH', async () => {
    const env = { PATH: noNode };
    expect(await hook('Read', { file_path: path.join(repo, 'README.md') }, env)).toMatchObject({ permissionDecision: 'allow' });
    expect(await hook('Bash', { command: 'git status' }, env)).toMatchObject({ permissionDecision: 'allow' });
    const denied = await hook('Bash', { command: 'git commit --no-verify -m x' }, env);
    expect(denied).toMatchObject({ permissionDecision: 'deny' });
    expect(denied!.permissionDecisionReason).toMatch(/hooks\.no-verify/);
    // The environment reaches the decision: in a job an allow is left to the launch intent, a deny still applies.
    expect(await hook('Bash', { command: 'git status' }, { ...env, AGENT_MODE: 'work' })).toBeUndefined();
    expect(await hook('Bash', { command: 'git push --force' }, { ...env, AGENT_MODE: 'work' })).toMatchObject({ permissionDecision: 'deny' });
    // Without node the slow path cannot run at all: what was answered above came from the fast path.
    const payload = JSON.stringify({ session_id: 'fast-1', cwd: repo, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'git status' } });
    const slow = await runProcess(HOOK, [], { cwd: repo, input: payload, env: { PATH: noNode, HOME: h.home, COMMANDR_HOME: h.commandrHome, COMMANDR_URL: 'http://127.0.0.1:1' } });
    expect(slow.stdout).toBe('');
    expect(slow.stderr).toMatch(/node/);
    // COMMANDR_PERMISSION_SLOW forces the node hook even with the relay up.
    const forced = await runProcess(HOOK, [], { cwd: repo, input: payload, env: { PATH: noNode, HOME: h.home, COMMANDR_HOME: h.commandrHome, COMMANDR_PERMISSION_SLOW: '1' } });
    expect(forced.stdout).toBe('');
    expect(forced.stderr).toMatch(/node/);
    // The script sends exactly the keys the relay reads.
    const script = fs.readFileSync(path.join(HOOKS, 'permission-fast'), 'utf8');
    const sent = /relay_fields ([^\n]+)/.exec(script.replace(/\\\n/g, ' '))![1]!.trim().split(/\s+/);
    expect(sent).toEqual([...DECISION_ENV_KEYS]);
  });

  it('FAST-2: the relay keeps the parsed policy but an edited project policy applies to the next call', async () => {
    const file = path.join(repo, '.commandr', 'policy.yaml');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    try {
      expect(await hook('Bash', { command: 'git status' }, { PATH: noNode })).toMatchObject({ permissionDecision: 'allow' });
      fs.writeFileSync(file, 'deny:\n  commands: ["git status"]\n');
      expect(await hook('Bash', { command: 'git status' }, { PATH: noNode })).toMatchObject({ permissionDecision: 'deny' });
      fs.writeFileSync(file, 'deny:\n  commands: ["git log"]\n');
      expect(await hook('Bash', { command: 'git status' }, { PATH: noNode })).toMatchObject({ permissionDecision: 'allow' });
      // A policy that cannot be read is never judged by the fast path: the slow path fails closed, naming the file.
      fs.writeFileSync(file, 'allow: [oops\n');
      const res = await check(record({ PWD: repo, HOME: h.home }, { session_id: 's', cwd: repo, tool_name: 'Bash', tool_input: { command: 'git status' } }));
      expect(res.status).toBe(202);
      expect(await res.json()).toMatchObject({ slow: true });
      const answer = await hook('Bash', { command: 'git status' });
      expect(answer).toMatchObject({ permissionDecision: 'ask' });
      expect(answer!.permissionDecisionReason).toContain(file);
    } finally {
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });

  it('FAST-3: relay down, hung, or reached only over https — the node hook decides, fail-closed as before', async () => {
    // Down: policy allow/deny still answered (by node), a call that needs a person fails closed.
    const down = { COMMANDR_URL: 'http://127.0.0.1:1' };
    expect(await hook('Read', { file_path: path.join(repo, 'README.md') }, down)).toMatchObject({ permissionDecision: 'allow' });
    const asked = await hook('Bash', { command: 'curl https://example.com' }, down);
    expect(asked).toMatchObject({ permissionDecision: 'ask' });
    expect(asked!.permissionDecisionReason).toMatch(/no one can be asked/);
    // Hung: a server that takes the connection and never answers; the fast path gives up and node answers.
    const hungServer = async () => {
      const seen: string[] = [];
      const server = net.createServer((socket) => socket.on('data', (d) => seen.push(d.toString('latin1'))));
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return { seen, port: (server.address() as net.AddressInfo).port, close: () => new Promise((r) => server.close(r)) };
    };
    // Each URL gets its own server: the live event a call spools is posted later by the background
    // poster, to that call's URL, and must not be taken for traffic of the next call.
    const hung = await hungServer();
    const tls = await hungServer();
    try {
      expect(await hook('Read', { file_path: path.join(repo, 'README.md') }, { COMMANDR_URL: `http://127.0.0.1:${hung.port}` })).toMatchObject({ permissionDecision: 'allow' });
      expect(hung.seen.join('')).toContain('POST /api/permissions/check');
      // Not loopback http: the fast path sends nothing this way, so no request and no credential in clear
      // (node's own posts to an https URL are TLS).
      expect(await hook('Read', { file_path: path.join(repo, 'README.md') }, { COMMANDR_URL: `https://127.0.0.1:${tls.port}` })).toMatchObject({ permissionDecision: 'allow' });
      expect(tls.seen.join('')).not.toContain('POST ');
      expect(tls.seen.join('')).not.toContain(token);
    } finally {
      await Promise.all([hung.close(), tls.close()]);
    }
  }, 60_000);

  it('FAST-4: the route wants the hook credential, refuses any browser request, and a body naming another repo only judges that repo', async () => {
    // The other repo is made first: its git commands block this process, and a keep-alive socket the
    // relay closed after a refusal meanwhile would be reused by fetch and reset (ECONNRESET).
    const other = makeRepo().repo;
    fs.mkdirSync(path.join(other, '.commandr'));
    fs.writeFileSync(path.join(other, '.commandr', 'policy.yaml'), 'deny:\n  commands: ["git status"]\n');
    const payload = { session_id: 's', cwd: repo, tool_name: 'Read', tool_input: { file_path: path.join(repo, 'README.md') } };
    const body = record({ PWD: repo, HOME: h.home }, payload);
    expect((await check(body)).status).toBe(200);
    expect((await check(body, { authorization: 'Bearer wrong-token-wrong-token-wrong-token-x' })).status).toBe(401);
    expect((await fetch(`${relay.relay.url}/api/permissions/check`, { method: 'POST', body: new Uint8Array(body) })).status).toBe(401);
    // A page on a rebinding host, or any browser fetch, carries Origin / Sec-Fetch-Site: refused even with the token.
    expect((await check(body, { origin: 'http://evil.example' })).status).toBe(401);
    expect((await check(body, { 'sec-fetch-site': 'cross-site' })).status).toBe(401);
    expect((await check('not json at all')).status).toBe(400);
    expect((await check(record({}, [1, 2]))).status).toBe(400);
    // A body that names another repo is judged by that repo's policy and answered to the caller only:
    // it decides nothing for this repo's sessions and creates no request.
    const elsewhere = await check(record({ PWD: other }, { ...payload, cwd: other, tool_name: 'Bash', tool_input: { command: 'git status' } }));
    expect(elsewhere.status).toBe(200);
    expect(await elsewhere.text()).toContain('"permissionDecision":"deny"');
    expect(await hook('Bash', { command: 'git status' }, { PATH: noNode })).toMatchObject({ permissionDecision: 'allow' });
    expect(fs.existsSync(path.join(h.commandrHome, 'permissions')) ? fs.readdirSync(path.join(h.commandrHome, 'permissions')).filter((f) => f.startsWith('perm-')) : []).toEqual([]);
  });

  it('FAST-7: a relay that refuses the credential on the headers and closes never kills a hook: the write fails, the node hook decides, and relay_post says so', async () => {
    // A hook credential this relay refuses (another data dir's), and the relay named by COMMANDR_URL.
    const other = tempDir('commandr-other-home-');
    fs.writeFileSync(path.join(other, 'hook-token'), `${'b'.repeat(43)}\n`, { mode: 0o600 });
    const refused = { COMMANDR_HOME: other, COMMANDR_URL: relay.relay.url };
    // A payload of half a MiB: the relay's 401 and close come while the hook is still writing it.
    const big = { file_path: path.join(repo, 'big.txt'), content: 'x'.repeat(512 * 1024) };
    const payload = JSON.stringify({ session_id: 'fast-7', cwd: repo, hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: big, tool_use_id: 'toolu_fast7' });
    const ran = await runProcess(HOOK, [], { cwd: repo, input: payload, env: { PATH: process.env.PATH, HOME: h.home, ...refused } });
    expect(ran.signal, 'the hook was killed').toBeNull();
    expect(ran.code).toBe(0);
    const answer = (JSON.parse(ran.stdout) as { hookSpecificOutput: NonNullable<Out> }).hookSpecificOutput;
    // The node hook's answer: no phone can be reached with a refused credential, so a person must decide (fail closed).
    expect(answer).toMatchObject({ permissionDecision: 'ask' });
    expect(answer.permissionDecisionReason).toMatch(/no one can be asked/);
    // relay_post itself (the report hook's client too): the shell lives on and the call fails.
    const post = await runProcess('bash', ['-c', `source ${JSON.stringify(path.join(HOOKS, 'relay-client.bash'))}; relay_target || exit 9; fields=(HOOK=PostToolUse); payload=$(head -c 600000 /dev/zero | tr '\\0' x); relay_post /api/hooks/report 3; echo "rc=$? status=$status"`],
      { cwd: repo, input: '', env: { PATH: process.env.PATH, HOME: h.home, LC_ALL: 'C', ...refused } });
    expect(post.signal, 'relay_post was killed').toBeNull();
    // Either the write failed (the relay closed first) or, on a slow relay, the whole request went
    // out before its answer and the answer is the refusal: never a success.
    expect(post.stdout.trim()).toMatch(/^(rc=1 status=(401)?|rc=0 status=401)$/);
  });

  it('FAST-6 LIVE-EMIT-1: with no relay running (no relay.json, no COMMANDR_URL) the hooks send the credential nowhere, not to a guessed port another user may hold', async () => {
    const home = tempDir('commandr-norelay-');
    fs.writeFileSync(path.join(home, 'hook-token'), `${token}\n`, { mode: 0o600 });
    const target = (extra = '') => runProcess('bash', ['-c', `source ${JSON.stringify(path.join(HOOKS, 'relay-client.bash'))}; ${extra} relay_target && echo "$address:$port"; echo "rc=$?"`],
      { cwd: repo, input: '', env: { PATH: process.env.PATH, HOME: home, COMMANDR_HOME: home } });
    expect((await target()).stdout.trim()).toBe('rc=1');
    expect(relayUrl({ HOME: home, COMMANDR_HOME: home })).toBeUndefined();
    // A running relay records its URL, its pid and that pid's start time (HOOKCRED-1), and that URL is used.
    fs.writeFileSync(path.join(home, 'relay.json'), `${JSON.stringify({ url: 'http://127.0.0.1:40123', pid: process.pid, started: processStarted('self') })}\n`);
    expect((await target()).stdout.trim()).toBe('127.0.0.1:40123\nrc=0');
    expect(relayUrl({ HOME: home, COMMANDR_HOME: home })).toBe('http://127.0.0.1:40123');
  });
});
