// A tool's end reported in the background (REPORT-5): `wire` marks the PostToolUse hooks `async`,
// so Claude Code does not wait for them; the next call's start and the turn's end wait for those
// of their agent still running, so the relay still gets (and a phone is still sent) each call's end
// before what followed it. The real hooks, run as children of one process as Claude Code runs them,
// against a real relay; a report held in place with SIGSTOP stands for one that is slow.
import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ChildEnv, eventually, hookLine, ROOT } from './harness';
import { useClaudeWorld, wire } from './world';

const HOOKS = path.join(ROOT, 'adapters', 'claude', 'hooks');
const TASK = 'T-background-1';
const w = useClaudeWorld();

const hookEnv = (extra: Record<string, string> = {}): ChildEnv => ({ PATH: process.env.PATH, HOME: w.h.home, COMMANDR_HOME: w.h.commandrHome, AGENTS_TASK_ID: TASK, ...extra });
const payload = (event: string, session: string, call: string, command = 'git status') =>
  JSON.stringify({ session_id: session, cwd: w.repo, hook_event_name: event, tool_name: 'Bash', tool_input: { command }, tool_use_id: call, tool_response: { stdout: '' } });
const shown = (session: string) => w.relay.live().filter((e) => e.session === session).map((e) => `${e.cmd ?? e.kind}:${e.running ? 'running' : e.ok === false ? 'failed' : 'done'}`);

/** A bash hook started as Claude Code starts it: bash by its path, the script first, the payload on stdin. */
function startHook(script: string, args: string[], input: string, env = hookEnv()): { child: ChildProcess; ended: Promise<number | null> } {
  const child = spawn('bash', [path.join(HOOKS, script), ...args], { cwd: w.repo, env: env as NodeJS.ProcessEnv, stdio: ['pipe', 'ignore', 'ignore'] });
  const ended = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  child.stdin!.end(input);
  return { child, ended };
}

/** Whether `pid` has a `sleep` child: a hook between two looks at a report still running. */
function waitingOnAReport(pid: number): boolean {
  let tasks: string[];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return false;
  }
  for (const task of tasks) {
    let kids: string[] = [];
    try {
      kids = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    } catch { /* gone */ }
    for (const kid of kids) {
      try {
        if (fs.readFileSync(`/proc/${kid}/comm`, 'utf8').trim() === 'sleep') return true;
      } catch { /* gone */ }
    }
  }
  return false;
}

/** A call's start, reported by the permission hook (REPORT-4), run to its end. */
async function startCall(session: string, call: string, command: string): Promise<void> {
  const hook = startHook('permission-fast', [], payload('PreToolUse', session, call, command));
  expect(await hook.ended).toBe(0);
}

describe('tool ends reported in the background', () => {
  it('REPORT-5: wire runs the tool-end hooks in the background and no other; a project wired before is brought over, never doubled', async () => {
    const settingsFile = path.join(w.repo, '.claude', 'settings.local.json');
    const hooksOf = () => JSON.parse(fs.readFileSync(settingsFile, 'utf8')).hooks as Record<string, Array<{ hooks: Array<Record<string, unknown>> }>>;
    const background = (hooks: ReturnType<typeof hooksOf>) =>
      Object.fromEntries(Object.entries(hooks).map(([event, entries]) => [event, entries.flatMap((e) => e.hooks).map((h) => h.async === true)]));
    expect(background(hooksOf())).toMatchObject({ PostToolUse: [true], PostToolUseFailure: [true], Stop: [false], SessionEnd: [false], PreToolUse: [false] });
    expect(hooksOf().UserPromptSubmit!.flatMap((e) => e.hooks).every((h) => h.async === undefined)).toBe(true);
    // As an earlier version wrote it: the same hook, waited for.
    const old = hooksOf();
    for (const entry of old.PostToolUse!) for (const h of entry.hooks) delete h.async;
    const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
    fs.writeFileSync(settingsFile, JSON.stringify({ ...settings, hooks: old }, null, 2));
    expect((await wire('claude', w.repo, w.h)).code).toBe(0);
    const post = hooksOf().PostToolUse!.flatMap((e) => e.hooks);
    expect(post.map((h) => [hookLine(h), h.async])).toEqual([[hookLine(post[0]!), true]]);
    expect(hookLine(post[0]!)).toMatch(/hooks\/report PostToolUse$/);
  });

  it('REPORT-5: a call\'s start waits for the end of the call before it, still being reported, so the relay gets and sends them in that order', async () => {
    const session = `s-next-${process.pid}`;
    await startCall(session, 'tu-1', 'git status');
    // The first call's end, its report held still (as a slow one would be) before it reaches the relay.
    const report = startHook('report', ['PostToolUse'], payload('PostToolUse', session, 'tu-1', 'git status'));
    process.kill(report.child.pid!, 'SIGSTOP');
    const next = startHook('permission-fast', [], payload('PreToolUse', session, 'tu-2', 'git log'));
    // Either the next call's start was published at once (what this rule forbids), or its hook waits.
    await eventually(() => shown(session).includes('git log:running') || waitingOnAReport(next.child.pid!) || undefined, 20_000, 'the next call\'s start published, or its hook waiting');
    process.kill(report.child.pid!, 'SIGCONT');
    expect(await report.ended).toBe(0);
    expect(await next.ended).toBe(0);
    await eventually(() => shown(session).length >= 3 || undefined, 10_000, 'three events');
    expect(shown(session)).toEqual(['git status:running', 'git status:done', 'git log:running']);
    const kept = w.relay.relay.services.live.recent(session).map((s) => s.event.seq!);
    expect(kept).toEqual([...kept].sort((a, b) => a - b));
    expect(fs.existsSync(path.join(w.h.commandrHome, 'hook-state', 'spool')), 'nothing went through the spool').toBe(false);
  }, 60_000);

  it('REPORT-5: a turn\'s end waits for its last call\'s end, so that call is shown done, not closed as unfinished', async () => {
    const session = `s-stop-${process.pid}`;
    await startCall(session, 'tu-a', 'git status');
    const report = startHook('report', ['PostToolUse'], payload('PostToolUse', session, 'tu-a', 'git status'));
    process.kill(report.child.pid!, 'SIGSTOP');
    const stop = startHook('report', ['Stop', path.join(HOOKS, 'stop')], JSON.stringify({ session_id: session, cwd: w.repo, hook_event_name: 'Stop' }));
    await eventually(() => shown(session).includes('idle:done') || waitingOnAReport(stop.child.pid!) || undefined, 20_000, 'idle published, or the Stop hook waiting');
    process.kill(report.child.pid!, 'SIGCONT');
    expect(await report.ended).toBe(0);
    expect(await stop.ended).toBe(0);
    expect(shown(session)).toEqual(['git status:running', 'git status:done', 'idle:done']);
  }, 60_000);

  it('REPORT-5: a turn\'s end also waits for a tool end that gave up on the relay and is still writing its spool record, and goes behind it', async () => {
    const session = `s-spooling-${process.pid}`;
    await startCall(session, 'tu-s', 'git status');
    // What a report that gave up becomes (exec): `spool PostToolUse`, held before its record is written.
    const spooling = spawn('/bin/sh', [path.join(HOOKS, 'spool'), 'PostToolUse'], { cwd: w.repo, env: hookEnv() as NodeJS.ProcessEnv, stdio: ['pipe', 'ignore', 'ignore'] });
    const spooled = new Promise<number | null>((resolve) => spooling.on('close', (code) => resolve(code)));
    process.kill(spooling.pid!, 'SIGSTOP');
    spooling.stdin.end(payload('PostToolUse', session, 'tu-s', 'git status'));
    const stop = startHook('report', ['Stop', path.join(HOOKS, 'stop')], JSON.stringify({ session_id: session, cwd: w.repo, hook_event_name: 'Stop' }));
    await eventually(() => shown(session).includes('idle:done') || waitingOnAReport(stop.child.pid!) || undefined, 20_000, 'idle published, or the Stop hook waiting');
    process.kill(spooling.pid!, 'SIGCONT');
    expect(await spooled).toBe(0);
    expect(await stop.ended).toBe(0);
    // The record was there when Stop looked, so Stop went behind it: the poster brings both, in order.
    await eventually(() => shown(session).includes('idle:done') || undefined, 30_000, 'idle, through the spool');
    expect(shown(session)).toEqual(['git status:running', 'git status:done', 'idle:done']);
  }, 60_000);

  it('REPORT-5: a report Claude Code ends (SIGTERM) before the relay answered it spools its record, and does not mark the relay down', async () => {
    const sockets: net.Socket[] = [];
    let received = '';
    const hung = net.createServer((s) => { sockets.push(s); s.on('error', () => {}); s.on('data', (d) => { received += d.toString('latin1'); }); });
    await new Promise<void>((r) => hung.listen(0, '127.0.0.1', r));
    // A poster still running (an earlier test's) would make the report spool at once, behind it.
    const posterAlive = () => {
      try {
        const pid = Number(fs.readFileSync(path.join(w.h.commandrHome, 'hook-state', 'spool', 'poster.pid'), 'utf8'));
        if (!(pid > 0)) return false;
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    await eventually(() => !posterAlive() || undefined, 30_000, 'no poster running');
    try {
      const session = `s-term-${process.pid}`;
      const report = startHook('report', ['PostToolUse'], payload('PostToolUse', session, 'tu-t', 'echo ended'), hookEnv({ COMMANDR_URL: `http://127.0.0.1:${(hung.address() as net.AddressInfo).port}` }));
      await eventually(() => received.includes(session) || undefined, 20_000, 'the report at the hung relay');
      // Held still so it cannot give up on its own first; the TERM is taken when it goes on.
      process.kill(report.child.pid!, 'SIGSTOP');
      process.kill(report.child.pid!, 'SIGTERM');
      process.kill(report.child.pid!, 'SIGCONT');
      expect(await report.ended).toBe(0);
      expect(fs.existsSync(path.join(w.h.commandrHome, 'hook-state', 'relay-down')), 'the relay was not marked down').toBe(false);
      // The record is in the spool, for the poster (which is stuck on the hung relay it names, so
      // the record stays there to be seen).
      const spool = path.join(w.h.commandrHome, 'hook-state', 'spool');
      const records = fs.readdirSync(spool).filter((f) => /^\d/.test(f)).map((f) => fs.readFileSync(path.join(spool, f), 'latin1'));
      expect(records.filter((r) => r.includes(session))).toHaveLength(1);
      expect(records.find((r) => r.includes(session))).toMatch(/^HOOK=PostToolUse\0/);
      const poster = await eventually(() => {
        try {
          return Number(fs.readFileSync(path.join(spool, 'poster.pid'), 'utf8')) || undefined;
        } catch {
          return undefined; // not written yet
        }
      }, 20_000, 'the poster started');
      try {
        process.kill(poster, 'SIGKILL');
      } catch { /* a poster of an earlier test that has left since */ }
      fs.rmSync(spool, { recursive: true, force: true });
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((r) => hung.close(r));
    }
  }, 60_000);
});
