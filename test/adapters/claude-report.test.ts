// Reporting hooks straight to the relay (REPORT-n): with the relay up, a real Claude Code turn's
// hooks go to `POST /api/hooks/report` (and the permission check) and never touch the spool; the
// bus part of Stop / SessionEnd is done by the relay before the hook returns. With records still
// in the spool, a refused or a hung relay, the hook spools as before. The route takes only the
// hook credential and a well-formed record.
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { planTurn } from './claude-script';
import { busEvents, CLAUDE_BIN, claudeEnv, eventually, ROOT, runProcess } from './harness';
import { useClaudeWorld } from './world';

const HOOKS = path.join(ROOT, 'adapters', 'claude', 'hooks');
const TASK = 'T-report-1';
const w = useClaudeWorld();

const spoolDir = () => path.join(w.h.commandrHome, 'hook-state', 'spool');
const token = () => fs.readFileSync(path.join(w.h.commandrHome, 'hook-token'), 'utf8').trim();
const url = () => w.relay.relay.url;
const hookEnv = (extra: Record<string, string> = {}) => ({ PATH: process.env.PATH, HOME: w.h.home, COMMANDR_HOME: w.h.commandrHome, AGENTS_TASK_ID: TASK, ...extra });
const payload = (event: string, session: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ session_id: session, cwd: w.repo, hook_event_name: event, tool_name: 'Bash', tool_input: { command: 'echo hi' }, tool_use_id: `tu-${session}`, tool_response: { stdout: 'hi' }, ...extra });
/** The body `hooks/report` sends: NUL-terminated fields, an empty field, the payload. */
const record = (fields: Record<string, string>, body: string): string => Object.entries(fields).map(([k, v]) => `${k}=${v}\0`).join('') + '\0' + body;
const post = (body: string, headers: Record<string, string> = { authorization: `Bearer ${token()}` }) =>
  fetch(new URL('/api/hooks/report', url()), { method: 'POST', headers, body });

describe('reporting hooks straight to the relay', () => {
  it('REPORT-1 REPORT-2 REPORT-4: with the relay up a real turn never uses the spool; the bus part and every live event are done when claude exits', async () => {
    planTurn(w.api, [{ name: 'Bash', input: { command: 'touch reported.txt' } }]);
    const ran = await runProcess(CLAUDE_BIN, ['-p', 'go', '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Bash(touch:*)'], {
      cwd: w.repo, env: claudeEnv(w.h, w.api.url, { AGENTS_TASK_ID: TASK, AGENT_COMMANDS: 'touch' }),
    });
    expect(ran.code, ran.stderr).toBe(0);
    const session = ran.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((o) => o.type === 'system').session_id as string;
    // Everything is there the moment the CLI is gone: nothing was left to a background poster.
    const kinds = w.relay.live().filter((e) => e.session === session).map((e) => `${e.kind}${e.running ? ':running' : ''}`);
    expect(kinds).toEqual(['command:running', 'command', 'idle', 'end']);
    const mine = busEvents(w.bus).filter((e) => e.task === TASK || e.session === session);
    expect(mine.map((e) => e.event)).toEqual(['task_progress', 'session_end']);
    expect(String(mine[0]!.note)).toContain('reported.txt');
    expect(fs.existsSync(spoolDir()), 'the spool was never used').toBe(false);
  }, 120_000);

  it('REPORT-3: the route takes only the hook credential from a non-browser client and a well-formed record; a call left open is closed before idle', async () => {
    const good = record({ HOOK: 'PostToolUse', AT: String(Date.now() * 1000), CLAUDE_PROJECT_DIR: w.repo }, payload('PostToolUse', 's-route'));
    expect((await post(good, {})).status).toBe(401);
    expect((await post(good, { authorization: 'Bearer nope' })).status).toBe(401);
    expect((await post(good, { authorization: `Bearer ${token()}`, origin: 'http://evil.example' })).status).toBe(401);
    const badHook = await post(record({ HOOK: 'Whatever' }, payload('PostToolUse', 's-route')));
    expect(badHook.status).toBe(400);
    expect((await badHook.json()).error.message).toMatch(/HOOK must be one of/);
    expect((await post(record({ HOOK: 'PostToolUse' }, 'not json'))).status).toBe(400);
    expect((await post(record({ HOOK: 'PostToolUse' }, '[1]'))).status).toBe(400);
    expect((await post(record({ HOOK: 'PostToolUse' }, `{"x":"${'a'.repeat(1024 * 1024)}"}`))).status).toBe(413);
    expect(w.relay.live().filter((e) => e.session === 's-route')).toEqual([]);
    // A start (the permission check reports it, REPORT-4) with no end, then the turn's end.
    const at = Date.now() * 1000;
    const check = await fetch(new URL('/api/permissions/check', url()), {
      method: 'POST', headers: { authorization: `Bearer ${token()}` }, body: record({ AGENTS_TASK_ID: TASK, AT: String(at) }, payload('PreToolUse', 's-open', { tool_input: { command: 'git status' } })),
    });
    expect(check.status).toBe(200);
    expect((await post(record({ HOOK: 'Stop', AT: String(at + 10), AGENTS_TASK_ID: TASK }, payload('Stop', 's-open')))).status).toBe(200);
    const seen = w.relay.live().filter((e) => e.session === 's-open');
    expect(seen.map((e) => [e.kind, e.running ?? false, e.ok ?? null])).toEqual([['git', true, null], ['git', false, false], ['idle', false, null]]);
    expect(seen[1]!.seq).toBe(at + 1);
  });

  it('REPORT-2 REPORT-4: what a hook route publishes after its answer still goes before anything the relay reads after it, however soon', async () => {
    // A call's start (published after the check's answer) and the turn's idle, written on two
    // connections in one tick: the relay reads both in one go, the check first. The start must be
    // out before the idle, which closes it as unfinished (LIVE-EMIT-5); else it would stay running.
    const at = Date.now() * 1000;
    const check = record({ AGENTS_TASK_ID: TASK, AT: String(at) }, payload('PreToolUse', 's-soon', { tool_input: { command: 'git status' } }));
    const idle = JSON.stringify({ v: 1, session: 's-soon', kind: 'idle', summary: 'turn ended', seq: at + 50 });
    const raw = (route: string, body: string) =>
      `POST ${route} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token()}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
    const { port } = new URL(url());
    const open = () => new Promise<net.Socket>((resolve, reject) => { const s = net.connect(Number(port), '127.0.0.1', () => resolve(s)); s.on('error', reject); });
    const answer = (s: net.Socket) => new Promise<string>((resolve) => { let text = ''; s.on('data', (d) => (text += d.toString())); s.on('close', () => resolve(text)); });
    const [first, second] = [await open(), await open()];
    const answers = [answer(first), answer(second)];
    first.write(raw('/api/permissions/check', check));
    second.write(raw('/api/events', idle));
    const [checked, posted] = await Promise.all(answers);
    expect(checked).toMatch(/^HTTP\/1\.1 200 /);
    expect(posted).toMatch(/^HTTP\/1\.1 202 /);
    await eventually(() => w.relay.live().filter((e) => e.session === 's-soon').length >= 3 || undefined, 5000, 'the start, its close and idle');
    const seen = w.relay.live().filter((e) => e.session === 's-soon');
    expect(seen.map((e) => [e.kind, e.running ?? false, e.ok ?? null])).toEqual([['git', true, null], ['git', false, false], ['idle', false, null]]);
  });

  it('REPORT-1: records still in the spool go first — the hook spools behind them and the poster posts both in order', async () => {
    fs.mkdirSync(spoolDir(), { recursive: true, mode: 0o700 });
    const earlier = Date.now() * 1000;
    const fields = `HOOK=PostToolUse\0CLAUDE_PROJECT_DIR=${w.repo}\0AGENTS_TASK_ID=${TASK}\0COMMANDR_URL=\0COMMANDR_AGENT_ID=\0COMMANDR_TASK=\0\0`;
    fs.writeFileSync(path.join(spoolDir(), `${earlier}.1`), fields + payload('PostToolUse', 's-behind', { tool_input: { command: 'echo first' }, tool_use_id: 'a' }));
    const ran = await runProcess(path.join(HOOKS, 'report'), ['PostToolUse'], { cwd: w.repo, env: hookEnv(), input: payload('PostToolUse', 's-behind', { tool_input: { command: 'echo second' }, tool_use_id: 'b' }) });
    expect(ran.code).toBe(0);
    const cmds = await eventually(() => {
      const got = w.relay.live().filter((e) => e.session === 's-behind').map((e) => e.cmd);
      return got.length === 2 ? got : undefined;
    }, 15_000, 'both spooled records posted');
    expect(cmds).toEqual(['echo first', 'echo second']);
  });

  it('REPORT-1: an event the relay already holds is kept once; the poster posts while the relay is marked down', async () => {
    const at = String(Date.now() * 1000);
    const twice = record({ HOOK: 'PostToolUse', AT: at, AGENTS_TASK_ID: TASK }, payload('PostToolUse', 's-twice'));
    expect((await post(twice)).status).toBe(200);
    expect((await post(twice)).status).toBe(200);
    expect(w.relay.live().filter((e) => e.session === 's-twice')).toHaveLength(1);
    // A mark left by a hook that gave up: the poster, which nobody waits for, still delivers.
    fs.mkdirSync(spoolDir(), { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(w.h.commandrHome, 'hook-state', 'relay-down'), `${Math.floor(Date.now() / 1000)}\n`);
    const ran = await runProcess(path.join(HOOKS, 'report'), ['PostToolUse'], { cwd: w.repo, env: hookEnv(), input: payload('PostToolUse', 's-marked') });
    expect(ran.code).toBe(0);
    await eventually(() => w.relay.live().some((e) => e.session === 's-marked') || undefined, 15_000, 'the spooled event posted');
    fs.rmSync(path.join(w.h.commandrHome, 'hook-state', 'relay-down'), { force: true });
  });

  it('REPORT-1: with the relay refused, Stop still writes its checkpoint in the foreground and the record waits in the spool; a hung relay is given 0.3 s, then 5 s of rest', async () => {
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const refusedPort = (closed.address() as net.AddressInfo).port;
    await new Promise((r) => closed.close(r));
    fs.writeFileSync(path.join(w.repo, 'stop-fallback.txt'), 'x');
    const env = hookEnv({ COMMANDR_URL: `http://127.0.0.1:${refusedPort}` });
    const before = busEvents(w.bus).length;
    const stopped = await runProcess(path.join(HOOKS, 'report'), ['Stop', path.join(HOOKS, 'stop')], { cwd: w.repo, env, input: payload('Stop', 's-down') });
    expect(stopped.code).toBe(0);
    const written = busEvents(w.bus).slice(before);
    expect(written.map((e) => e.event)).toEqual(['task_progress']);
    expect(String(written[0]!.note)).toContain('stop-fallback.txt');

    // A relay that takes the connection and never answers.
    const sockets: net.Socket[] = [];
    let received = '';
    const hung = net.createServer((s) => { sockets.push(s); s.on('error', () => {}); s.on('data', (d) => { received += d.toString('latin1'); }); });
    await new Promise<void>((r) => hung.listen(0, '127.0.0.1', r));
    const hungEnv = hookEnv({ COMMANDR_URL: `http://127.0.0.1:${(hung.address() as net.AddressInfo).port}` });
    // The poster posting the refused records gone, and with it the mark it left.
    await eventually(() => fs.readdirSync(spoolDir()).every((f) => !/^\d/.test(f) && f !== 'poster.pid') || undefined, 20_000, 'the spool drained');
    fs.rmSync(path.join(w.h.commandrHome, 'hook-state', 'relay-down'), { force: true });
    const first = await runProcess(path.join(HOOKS, 'report'), ['PostToolUse'], { cwd: w.repo, env: hungEnv, input: payload('PostToolUse', 's-hung') });
    expect(first.code).toBe(0);
    expect(first.ms, 'the hook waited for the hung relay').toBeGreaterThanOrEqual(290);
    expect(sockets.length).toBeGreaterThanOrEqual(1);
    expect(Number(fs.readFileSync(path.join(w.h.commandrHome, 'hook-state', 'relay-down'), 'utf8'))).toBeGreaterThan(Date.now() / 1000 - 60);
    // Within 5 s a Stop does not try it at all (it would wait 2 s): its bus part runs here and it spools.
    const tried = sockets.length;
    const second = await runProcess(path.join(HOOKS, 'report'), ['Stop', path.join(HOOKS, 'stop')], { cwd: w.repo, env: hungEnv, input: payload('Stop', 's-hung') });
    expect(second.code).toBe(0);
    // It never sent the Stop there: a probe's bytes, sent now, arrive after anything the hook sent on
    // a connection made before it; the spool's poster is still stuck on the first record (the
    // records behind it wait), so a Stop payload at the hung relay can only be the hook's own.
    const probe = net.connect((hung.address() as net.AddressInfo).port, '127.0.0.1', () => probe.write('PROBE'));
    probe.on('error', () => {});
    await eventually(() => received.includes('PROBE') || undefined, 20_000, 'the probe received');
    expect(received.includes('"hook_event_name":"Stop"'), 'the Stop hook tried the relay marked down').toBe(false);
    expect(sockets.length).toBeGreaterThan(tried);
    probe.destroy();
    for (const s of sockets) s.destroy();
    await new Promise((r) => hung.close(r));
  }, 60_000);
});
