// The claude adapter's `wire` and hooks against the REAL Claude Code CLI, a Messages API
// stand-in and a real relay: checkpoints, session_end, annotations, live events, checks.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeAnnotation } from '../../bus/annotations';
import { noteProblem } from '../../bus/progress';
import { BusEvent } from '../../protocol/bus/events';
import { planTurn, requestText, type PlannedTool } from './claude-script';
import { hookBash } from '../../adapters/claude/lib/hook-specs';
import { adapterBin, busEvents, CLAUDE_BIN, claudeEnv, eventually, hookLine, makeRepo, ROOT, runProcess, tempDir } from './harness';
import { useClaudeWorld } from './world';

const TASK = 'T-wire-1';
// Not wired: the first tests wire it (WIREUP-1).
const w = useClaudeWorld({ wired: false, npmTest: true });

/**
 * One Claude Code turn in the wired repo. `sandbox`: started by hand the way the product runs a CLI in the
 * OS sandbox, `commandr sandbox -- claude …` (SANDBOX-7), so the project's own code (`npm test`) may run
 * unasked (POLPATH-5); plain, it would be asked, and with no phone paired, denied.
 */
async function turn(tools: PlannedTool[], prompt = 'carry on', extraEnv: Record<string, string> = {}, where: 'plain' | 'sandbox' = 'plain') {
  planTurn(w.api, tools);
  const args = ['-p', prompt, '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Bash(touch:*)', 'Bash(npm test:*)'];
  const env = claudeEnv(w.h, w.api.url, { AGENTS_TASK_ID: TASK, AGENT_COMMANDS: 'touch', ...extraEnv }); // no phone is paired: the policy itself allows touch (GUARD-6)
  const ran = where === 'sandbox'
    ? await runProcess(path.join(ROOT, 'bin', 'commandr'), ['sandbox', '--', CLAUDE_BIN, ...args], { cwd: w.repo, env })
    : await runProcess(CLAUDE_BIN, args, { cwd: w.repo, env });
  expect(ran.code, ran.stderr).toBe(0);
  const init = ran.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((o) => o.type === 'system' && o.subtype === 'init');
  const session = init.session_id as string;
  // The reporting hooks run detached; each posts its live event after its bus write.
  await eventually(() => w.relay.live().some((e) => e.session === session && e.kind === 'idle') || undefined, 15_000, 'the idle event');
  await eventually(() => w.relay.live().some((e) => e.session === session && e.kind === 'end') || undefined, 15_000, 'the end event');
  return { ...ran, session };
}

const progressOf = (task: string) => busEvents(w.bus).filter((e) => e.event === 'task_progress' && e.task === task);

describe('claude wire', () => {
  it('WIREUP-1 WIREPATH-2: wire merges the hooks into the local .claude/settings.local.json, keeps every other setting, and a second run changes nothing', async () => {
    const shared = path.join(w.repo, '.claude', 'settings.json');
    const file = path.join(w.repo, '.claude', 'settings.local.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const mine = { type: 'command', command: 'echo mine' };
    fs.writeFileSync(shared, JSON.stringify({ model: 'keep-me', hooks: { Stop: [{ hooks: [mine] }] } }, null, 2));
    fs.writeFileSync(file, JSON.stringify({ model: 'keep-me-too', hooks: { Stop: [{ hooks: [mine] }], Notification: [{ hooks: [mine] }] } }, null, 2));
    const dry = await runProcess(adapterBin('claude', 'wire'), [w.repo, '--dry-run'], { cwd: w.repo, env: { PATH: process.env.PATH } });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('would fix');
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).hooks.PreToolUse).toBeUndefined();

    const first = await runProcess(adapterBin('claude', 'wire'), [w.repo], { cwd: w.repo, env: { PATH: process.env.PATH } });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/fixed/);
    const settings = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(settings.model).toBe('keep-me-too');
    expect(settings.hooks.Notification).toEqual([{ hooks: [mine] }]);
    expect(settings.hooks.Stop.flatMap((e: any) => e.hooks)).toContainEqual(mine);
    for (const event of ['UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SessionEnd']) {
      const ours = settings.hooks[event].flatMap((e: any) => e.hooks).filter((x: any) => hookLine(x).includes('/adapters/claude/hooks/'));
      // PreToolUse holds only the permission hook, which also reports the call's start (REPORT-4).
      // UserPromptSubmit holds one hook per part of the notes block (NOTE-1).
      expect(ours.filter((x: any) => !hookLine(x).includes('/hooks/permission')), event).toHaveLength(event === 'UserPromptSubmit' ? 8 : event === 'PreToolUse' ? 0 : 1);
      // The exec form (HOOK-8): an executable and its arguments, no shell in between.
      for (const hook of ours) expect(Array.isArray(hook.args) && fs.existsSync(hook.command), JSON.stringify(hook)).toBe(true);
      // The bash hooks are started by bash's own path (HOOK-10): no `env` or sh before it.
      for (const hook of ours.filter((x: any) => /\/hooks\/(report|permission)/.test(hookLine(x)))) expect(hook.command, JSON.stringify(hook)).toBe(hookBash());
    }
    // The committed file keeps what the person put there and gets none of our paths.
    const committed = JSON.parse(fs.readFileSync(shared, 'utf8'));
    expect(committed.model).toBe('keep-me');
    expect(committed.hooks).toEqual({ Stop: [{ hooks: [mine] }] });
    expect(fs.readFileSync(shared, 'utf8')).not.toContain('/adapters/claude/hooks/');
    const before = [fs.readFileSync(file, 'utf8'), fs.readFileSync(shared, 'utf8')];
    const second = await runProcess(adapterBin('claude', 'wire'), [w.repo], { cwd: w.repo, env: { PATH: process.env.PATH } });
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/: ok$/m);
    expect(second.stdout).not.toMatch(/fixed/);
    expect([fs.readFileSync(file, 'utf8'), fs.readFileSync(shared, 'utf8')]).toEqual(before);
  });

  it('WIREUP-1 WIREPATH-2 HOOK-8: wire replaces the retired detached and spooling hooks of older installs and moves ours out of the committed file, keeping the person\'s own', async () => {
    const file = path.join(w.repo, '.claude', 'settings.json');
    const hooks = path.join(path.dirname(adapterBin('claude', 'wire')), 'hooks');
    const old = (shim: string) => ({ type: 'command', command: `'${hooks}/detach' '${hooks}/${shim}'`, timeout: 10 });
    const mine = { type: 'command', command: 'echo mine' };
    fs.writeFileSync(file, JSON.stringify({ hooks: {
      PreToolUse: [{ matcher: '*', hooks: [old('pre-tool-use')] }], PostToolUse: [{ matcher: '*', hooks: [old('post-tool-use'), mine] }],
      Stop: [{ hooks: [old('stop')] }], SessionEnd: [{ hooks: [old('session-end')] }],
    } }, null, 2));
    // The spool era's local entries (shell form, a PreToolUse reporting hook) are replaced too.
    const spooled = (event: string, shim = '') => ({ type: 'command', command: `'${hooks}/spool' ${event}${shim ? ` '${hooks}/${shim}'` : ''}`, timeout: 10 });
    fs.writeFileSync(path.join(w.repo, '.claude', 'settings.local.json'), JSON.stringify({ hooks: {
      PreToolUse: [{ matcher: '*', hooks: [spooled('PreToolUse')] }], PostToolUse: [{ matcher: '*', hooks: [spooled('PostToolUse')] }], Stop: [{ hooks: [spooled('Stop', 'stop')] }],
    } }));
    const ran = await runProcess(adapterBin('claude', 'wire'), [w.repo], { cwd: w.repo, env: { PATH: process.env.PATH } });
    expect(ran.code, ran.stderr).toBe(0);
    const committed = JSON.parse(fs.readFileSync(file, 'utf8'));
    const left = Object.values(committed.hooks).flatMap((entries: any) => entries.flatMap((e: any) => e.hooks));
    expect(left, JSON.stringify(committed)).toEqual([mine]); // ours moved to the local file (WIREPATH-2), the person's own stays
    const settings = JSON.parse(fs.readFileSync(path.join(w.repo, '.claude', 'settings.local.json'), 'utf8'));
    const all = Object.values(settings.hooks).flatMap((entries: any) => entries.flatMap((e: any) => e.hooks));
    expect(all.filter((h: any) => hookLine(h).includes('/hooks/detach'))).toEqual([]);
    expect(all.filter((h: any) => hookLine(h).includes('/hooks/spool'))).toEqual([]);
    const bash = hookBash()!;
    expect(settings.hooks.PreToolUse.flatMap((e: any) => e.hooks).map(hookLine)).toEqual([`${bash} ${hooks}/permission-fast`]);
    expect(settings.hooks.PostToolUse.flatMap((e: any) => e.hooks).filter((h: any) => hookLine(h).includes('/adapters/claude/hooks/')).map(hookLine)).toEqual([`${bash} ${hooks}/report PostToolUse`]);
    expect(settings.hooks.Stop.flatMap((e: any) => e.hooks).filter((h: any) => hookLine(h).includes('/adapters/claude/hooks/')).map(hookLine)).toEqual([`${bash} ${hooks}/report Stop ${hooks}/stop`]);
  });

  it('HOOK-10: the bash hooks are started by the path of the first bash 5 on PATH; an older one, or one in a relative PATH entry, is not used, and switching either way replaces our hooks, never doubles them', async () => {
    const { repo } = makeRepo();
    const hooks = path.join(path.dirname(adapterBin('claude', 'wire')), 'hooks');
    const file = path.join(repo, '.claude', 'settings.local.json');
    const fake = (dir: string, major: number) => {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'bash'), `#!/bin/sh\necho ${major}\n`, { mode: 0o755 });
      return dir;
    };
    const older = fake(tempDir('commandr-bash4-'), 4);
    fake(repo, 5); // `./bash`, reached only through a relative PATH entry
    const wire = async (PATH: string) => {
      const ran = await runProcess(adapterBin('claude', 'wire'), [repo], { cwd: repo, env: { PATH } });
      expect(ran.code, ran.stderr).toBe(0);
      const settings = JSON.parse(fs.readFileSync(file, 'utf8'));
      const ours = (event: string) => settings.hooks[event].flatMap((e: any) => e.hooks).map(hookLine).filter((l: string) => l.includes(hooks));
      return { pre: ours('PreToolUse'), post: ours('PostToolUse'), stop: ours('Stop') };
    };
    const bash = hookBash()!;
    expect(bash).toMatch(/^\/.*\/bash$/);
    const scripts = { pre: [`${hooks}/permission`], post: [`${hooks}/report PostToolUse`], stop: [`${hooks}/report Stop ${hooks}/stop`] };
    const bashed = { pre: [`${bash} ${hooks}/permission-fast`], post: [`${bash} ${hooks}/report PostToolUse`], stop: [`${bash} ${hooks}/report Stop ${hooks}/stop`] };
    expect(await wire(`${older}:${process.env.PATH}`)).toEqual(scripts); // bash 4 first: the scripts start themselves
    expect(await wire(process.env.PATH!)).toEqual(bashed);
    expect(await wire(`.:${process.env.PATH}`)).toEqual(bashed); // never ./bash: the hook runs wherever the agent is
    expect(await wire(`${older}:${process.env.PATH}`)).toEqual(scripts);
  });

  it('WIREUP-2: wire refuses settings that are not JSON, changes nothing and exits non-zero', async () => {
    const other = makeRepo().repo;
    const file = path.join(other, '.claude', 'settings.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{ not json');
    const ran = await runProcess(adapterBin('claude', 'wire'), [other], { cwd: other, env: { PATH: process.env.PATH } });
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain('E_BAD_SETTINGS');
    expect(fs.readFileSync(file, 'utf8')).toBe('{ not json');
  });
});

describe('claude hooks in a real session', () => {
  let firstSession = '';

  it('HOOK-1: a turn that changed the work state lands one neutral task_progress on the bus', async () => {
    const t = await turn([{ name: 'Bash', input: { command: 'touch made-1.txt', description: 'make a file' } }]);
    firstSession = t.session;
    expect(fs.existsSync(path.join(w.repo, 'made-1.txt'))).toBe(true);
    const notes = progressOf(TASK);
    expect(notes).toHaveLength(1);
    expect(noteProblem(String(notes[0]!.note))).toBeUndefined();
    expect(String(notes[0]!.note)).toContain('made-1.txt');
  });

  it('LIVE-EMIT-1: the relay receives running:true then the completed event for the tool call, classified, with the task', async () => {
    await eventually(() => w.relay.live().some((e) => e.session === firstSession && e.cmd === 'touch made-1.txt' && e.running === undefined) || undefined, 10_000, 'the completed event');
    const mine = w.relay.live().filter((e) => e.session === firstSession);
    const running = mine.findIndex((e) => e.running === true && e.kind === 'command' && e.cmd === 'touch made-1.txt');
    const done = mine.findIndex((e) => e.running === undefined && e.kind === 'command' && e.cmd === 'touch made-1.txt');
    expect(running).toBeGreaterThanOrEqual(0);
    expect(done).toBeGreaterThan(running);
    expect(mine[done]!.ok).toBe(true);
    expect(mine[done]!.task).toBe(TASK);
    expect(mine.some((e) => e.kind === 'idle')).toBe(true);
  });

  it('HOOK-2: SessionEnd appends session_end for the session and posts the end live event', () => {
    const ends = busEvents(w.bus).filter((e) => e.event === 'session_end');
    expect(ends.map((e) => e.session)).toContain(firstSession);
    expect(ends.find((e) => e.session === firstSession)!.task).toBe(TASK);
    expect(w.relay.live().some((e) => e.session === firstSession && e.kind === 'end')).toBe(true);
  });

  it('HOOK-1: a second turn with an unchanged work state adds no checkpoint; a changed one adds exactly one', async () => {
    await turn([]);
    expect(progressOf(TASK)).toHaveLength(1);
    await turn([{ name: 'Bash', input: { command: 'touch made-2.txt' } }]);
    expect(progressOf(TASK)).toHaveLength(2);
  });

  it('HOOK-3: unconsumed annotations are injected into the next prompt as one labelled block, then marked consumed', async () => {
    const first = writeAnnotation(w.bus, { task: TASK, turn: 1, body: 'Please rename foo to bar-ZEBRA-42.' });
    const second = writeAnnotation(w.bus, { task: TASK, turn: 1, anchor: 'card:src/a.ts', body: 'And keep the tests green.' });
    const from = w.api.messageRequests().length;
    await turn([], 'next step');
    const sent = requestText(w.api, from);
    expect(sent).toContain('bar-ZEBRA-42');
    expect(sent).toContain('keep the tests green');
    expect(sent).toContain('commandr-annotations');
    expect(sent.indexOf('bar-ZEBRA-42')).toBeLessThan(sent.indexOf('keep the tests green'));
    for (const file of [first.path, second.path]) expect(JSON.parse(fs.readFileSync(file, 'utf8')).consumed).toBe(true);
    const again = w.api.messageRequests().length;
    await turn([], 'and again');
    expect(requestText(w.api, again)).not.toContain('bar-ZEBRA-42');
  });

  it('CHECKS-1: a command matching the checks file is a live event of kind check with its label and verdict', async () => {
    const t = await turn([{ name: 'Bash', input: { command: 'npm test' } }], 'carry on', {}, 'sandbox');
    const check = await eventually(() => w.relay.live().find((e) => e.session === t.session && e.kind === 'check' && e.running === undefined), 10_000, 'the check event');
    expect(check).toMatchObject({ label: 'tests', ok: true, cmd: 'npm test', sandbox: 'on' });
  });

  it('CHECKS-2: a checks file in COMMANDR_HOME replaces the default wholesale and is read fresh', async () => {
    fs.writeFileSync(path.join(w.h.commandrHome, 'checks'), '# local\nsmoke: ^touch smoke\n');
    try {
      const t = await turn([{ name: 'Bash', input: { command: 'touch smoke.txt' } }, { name: 'Bash', input: { command: 'npm test' } }], 'carry on', {}, 'sandbox');
      const mine = await eventually(() => {
        const done = w.relay.live().filter((e) => e.session === t.session && e.running === undefined && e.cmd !== undefined);
        return done.length >= 2 ? done : undefined;
      }, 10_000, 'both completed events');
      expect(mine.find((e) => e.cmd === 'touch smoke.txt')).toMatchObject({ kind: 'check', label: 'smoke' });
      expect(mine.find((e) => e.cmd === 'npm test')?.kind).toBe('test');
    } finally {
      fs.rmSync(path.join(w.h.commandrHome, 'checks'));
    }
  });

  it('LIVE-EMIT-5: a call the agent denied still gets its completed event (failed) at turn end, so no line stays running', async () => {
    const t = await turn([{ name: 'Bash', input: { command: 'mkdir denied-dir' } }]);
    expect(fs.existsSync(path.join(w.repo, 'denied-dir'))).toBe(false);
    expect(w.relay.live().some((e) => e.session === t.session && e.running === true && e.cmd === 'mkdir denied-dir')).toBe(true);
    const closed = await eventually(() => w.relay.live().find((e) => e.session === t.session && e.running === undefined && e.cmd === 'mkdir denied-dir'), 15_000, 'the closing event');
    expect(closed).toMatchObject({ kind: 'command', ok: false });
    expect(w.relay.live().filter((e) => e.session === t.session && e.running === undefined && e.cmd === 'mkdir denied-dir')).toHaveLength(1);
  });

  it('LIVE-EMIT-2: nothing vendor-specific lands on the bus: only defined events, neutral notes', () => {
    const raw = fs.readFileSync(path.join(w.bus, 'events.jsonl'), 'utf8');
    for (const line of raw.split('\n').filter(Boolean)) {
      expect(BusEvent.safeParse(JSON.parse(line)).success, line).toBe(true);
      expect(line).not.toMatch(/tool_use|PreToolUse|PostToolUse|transcript|hook_event|Bash\(/);
    }
    for (const e of progressOf(TASK)) expect(noteProblem(String(e.note))).toBeUndefined();
  });
});
