// A job the relay starts in a sandbox has no data dir: an empty COMMANDR_HOME, and the relay's
// URL and a credential in its env (COMMANDR_URL, COMMANDR_HOOK_TOKEN). Every hook path must
// deliver to the relay with that credential (HOOKCRED-4): bash report and permission, the spool
// and its poster, the OpenCode hook, the MCP ask. A real relay on port 0, the real hook scripts.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askRelay } from '../../adapters/mcp/relay-ask';
import { cleanup, eventually, makeHome, makeRepo, ROOT, runProcess, startRelay, tempDir, type Home, type TestRelay } from '../adapters/harness';

const CLAUDE_HOOKS = path.join(ROOT, 'adapters', 'claude', 'hooks');
const OPENCODE_HOOK = path.join(ROOT, 'adapters', 'opencode', 'hooks', 'hook');

let h: Home;
let repo: string;
let relay: TestRelay;
let empty: string;
let token: string;

beforeAll(async () => {
  h = makeHome();
  ({ repo } = makeRepo());
  relay = await startRelay(h.commandrHome);
  token = fs.readFileSync(path.join(h.commandrHome, 'hook-token'), 'utf8').trim();
  empty = tempDir('commandr-hookcred-sandbox-');
}, 60_000);

afterAll(cleanup);

const env = (extra: Record<string, string> = {}) => ({
  PATH: process.env.PATH, HOME: h.home, COMMANDR_HOME: empty, COMMANDR_URL: relay.relay.url, COMMANDR_HOOK_TOKEN: token, ...extra,
});
const payload = (session: string, command: string, event = 'PostToolUse') =>
  JSON.stringify({ session_id: session, cwd: repo, hook_event_name: event, tool_name: 'Bash', tool_input: { command }, tool_use_id: `tu-${session}`, tool_response: { stdout: '' } });
const liveOf = (session: string) => relay.live().filter((e) => e.session === session);

describe('a job with its credential in the env and an empty data dir', () => {
  it('HOOKCRED-4: with COMMANDR_HOOK_TOKEN and COMMANDR_URL and an empty COMMANDR_HOME, the bash report and permission hooks, the spool and poster, the OpenCode hook and the MCP ask all reach the relay', async () => {
    expect(fs.readdirSync(empty)).toEqual([]);
    const report = await runProcess(path.join(CLAUDE_HOOKS, 'report'), ['PostToolUse'], { cwd: repo, env: env(), input: payload('s-env-1', 'echo one') });
    expect(report.code).toBe(0);
    expect(liveOf('s-env-1').map((e) => e.cmd)).toEqual(['echo one']); // the report hook waits for the relay's 200

    const spooled = await runProcess(path.join(CLAUDE_HOOKS, 'report'), ['PostToolUse'], { cwd: repo, env: env({ COMMANDR_REPORT_SPOOL: '1' }), input: payload('s-env-2', 'echo two') });
    expect(spooled.code).toBe(0);
    await eventually(() => liveOf('s-env-2').length === 1, 30_000, 'the poster to post the spooled record');

    const permission = await runProcess(path.join(CLAUDE_HOOKS, 'permission'), [], { cwd: repo, env: env(), input: payload('s-env-3', 'git status', 'PreToolUse') });
    expect(permission.code).toBe(0);
    expect(JSON.parse(permission.stdout).hookSpecificOutput.hookEventName).toBe('PreToolUse');
    await eventually(() => liveOf('s-env-3').find((e) => e.running), 30_000, 'the permission check to report the call start');

    const opencode = await runProcess(OPENCODE_HOOK, ['tool-start'], {
      cwd: repo, env: env(), input: JSON.stringify({ session: 's-env-4', cwd: repo, call: 'c-4', tool: 'bash', args: { command: 'echo four' }, at: 1 }),
    });
    expect(opencode.code).toBe(0);
    expect(liveOf('s-env-4').map((e) => e.cmd)).toEqual(['echo four']);

    const ask = { kind: 'question' as const, task: 'T-1', cwd: repo, question: 'Which?', choices: ['a'], timeoutMs: 5000 };
    const wrong = await askRelay({ ...ask, key: 'q-hookcred-wrong-0001' }, env({ COMMANDR_HOOK_TOKEN: 'w'.repeat(43) }));
    expect(wrong).toMatchObject({ kind: 'unavailable', reason: expect.stringMatching(/hook credential/) });
    const asked = await askRelay({ ...ask, key: 'q-hookcred-right-0001' }, env());
    expect(asked.kind).toBe('unavailable'); // no paired device: the relay took the credential and said so
    expect(asked).not.toMatchObject({ reason: expect.stringMatching(/hook credential|not running/) });
    // Nothing of the relay's was needed here: no hook-token, no relay.json.
    expect(fs.readdirSync(empty).filter((n) => n !== 'hook-state')).toEqual([]);
  }, 120_000);

  it('HOOKCRED-6: a spooled record carries its own hook’s credential: the poster never posts it with the one it inherited', async () => {
    const dir = path.join(empty, 'hook-state', 'spool');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    await eventually(() => !fs.existsSync(path.join(dir, 'poster.pid')), 30_000, 'an earlier poster to leave');
    // A live process holds the poster's place: the records wait, and the test runs the poster itself.
    fs.writeFileSync(path.join(dir, 'poster.pid'), `${process.pid}\n`);
    for (const [session, credential] of [['s-env-6', 'w'.repeat(43)], ['s-env-7', token]] as const) {
      const ran = await runProcess(path.join(CLAUDE_HOOKS, 'spool'), ['PostToolUse'], { cwd: repo, env: env({ COMMANDR_HOOK_TOKEN: credential }), input: payload(session, `echo ${session}`) });
      expect(ran.code).toBe(0);
    }
    const records = fs.readdirSync(dir).filter((n) => /^\d/.test(n));
    expect(records).toHaveLength(2);
    expect(records.map((n) => fs.readFileSync(path.join(dir, n), 'latin1')).join('')).toContain(`COMMANDR_HOOK_TOKEN=${'w'.repeat(43)}\0`);
    fs.rmSync(path.join(dir, 'poster.pid'));
    const poster = await runProcess(path.join(CLAUDE_HOOKS, 'poster'), [], { cwd: repo, env: env() }); // the right credential in its env
    expect(poster.code).toBe(0);
    expect(fs.readdirSync(dir).filter((n) => /^\d/.test(n))).toEqual([]);
    expect(liveOf('s-env-7').map((e) => e.cmd)).toEqual(['echo s-env-7']);
    expect(liveOf('s-env-6'), 'the record made with a wrong credential is not posted with the poster’s').toEqual([]);
  }, 90_000);
});
