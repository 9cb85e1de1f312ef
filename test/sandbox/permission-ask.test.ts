// A sandboxed job's permission ask reaches the paired phone, and the phone's answer reaches the
// agent (SANDBOX-9). The job's adapter is a probe (a real executable, run by the real relay inside
// the real bubblewrap sandbox) that runs Claude Code's real permission hook with a PreToolUse
// payload the policy asks a person about, and prints the hook's answer: what Claude Code would read.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jobsWorld, packet } from '../jobs/fixture';
import { FAKE_ADAPTER_DIR } from '../commanders/relay-fixture';

const ROOT = path.resolve(__dirname, '..', '..');
const HOOK = path.join(ROOT, 'adapters', 'claude', 'hooks', 'permission');
const probeDir = fs.mkdtempSync(path.join(fs.realpathSync(process.env.TMPDIR ?? '/tmp'), 'probe-permission-'));

beforeAll(() => {
  // The agent's one tool call: a command outside every allowed prefix, made in its worktree.
  fs.writeFileSync(path.join(probeDir, 'run'), `#!/usr/bin/env bash
echo "sandbox=\${COMMANDR_SANDBOX:-none}"
payload=$(printf '{"hook_event_name":"PreToolUse","session_id":"s-sandbox-%s","tool_use_id":"toolu_%s","tool_name":"Bash","tool_input":{"command":"touch /tmp/commandr-sandbox-ask-%s","description":"make a file"},"cwd":"%s"}' "$COMMANDR_PROBE_CALL" "$COMMANDR_PROBE_CALL" "$COMMANDR_PROBE_CALL" "$PWD")
printf 'hook=%s\\n' "$(printf '%s' "$payload" | ${JSON.stringify(HOOK)})"
`, { mode: 0o755 });
  fs.copyFileSync(path.join(FAKE_ADAPTER_DIR, 'wire'), path.join(probeDir, 'wire'));
  fs.chmodSync(path.join(probeDir, 'wire'), 0o755);
});
afterAll(() => fs.rmSync(probeDir, { recursive: true, force: true }));

const world = jobsWorld('sandbox-ask-', { 'T-1': packet('T-1') }, () => ({ adapterDir: probeDir, adapterName: 'probe' }));
afterEach(() => {
  delete process.env.COMMANDR_PROBE_CALL;
  delete process.env.COMMANDR_URL;
});

const outputOf = (job: string) => world.phone.received.filter((f) => f.type === 'job.output' && f.job === job).map((f) => f.chunk as string).join('');

/** Runs the job; the phone answers its permission request with `decision`. Returns the request the phone saw and the hook's answer. */
async function askFromJob(call: string, decision: 'allow' | 'deny') {
  process.env.COMMANDR_PROBE_CALL = call;
  // A COMMANDR_URL in the relay's own environment names some other listener: the job must get this relay's.
  process.env.COMMANDR_URL = 'http://127.0.0.1:9';
  const { job } = (await world.phone.request({ type: 'task.run', repo: world.repoId, task: 'T-1', mode: 'work' })).result as { job: string };
  const ended = world.phone.next('job.state', (f) => f.job === job && f.status !== 'running', 30_000);
  const asked = world.phone.next('permission.request', (f) => (f.request as { status?: string } | undefined)?.status === 'pending', 30_000);
  const first = await Promise.race([asked, ended]);
  if (first.type !== 'permission.request') throw new Error(`the job ended and the phone saw no permission request; the job printed:\n${outputOf(job)}`);
  const request = first.request as { id: string; summary: string; task?: string; agent?: string };
  await world.phone.request({ type: 'permission.decide', request: request.id, decision, reason: `phone says ${decision}` });
  expect(await ended).toMatchObject({ status: 'done', exitCode: 0 });
  const out = outputOf(job);
  const line = /^hook=(.*)$/m.exec(out)?.[1];
  if (!line) throw new Error(`the hook printed nothing; the job printed:\n${out}`);
  return { request, out, answer: JSON.parse(line).hookSpecificOutput as { permissionDecision: string; permissionDecisionReason: string }, job };
}

describe('a sandboxed job asks a person', () => {
  it('SANDBOX-9: a permission ask made inside the job sandbox (no relay.json there) reaches the paired phone through the job\'s COMMANDR_URL, and the phone\'s answer (allow, then deny) is what the agent reads', async () => {
    const allowed = await askFromJob('1', 'allow');
    expect(allowed.out).toContain('sandbox=bwrap');
    expect(allowed.request.summary).toContain('touch /tmp/commandr-sandbox-ask-1');
    expect(allowed.request.task).toBe('T-1');
    expect(allowed.answer.permissionDecision).toBe('allow');

    const denied = await askFromJob('2', 'deny');
    expect(denied.answer.permissionDecision).toBe('deny');
    expect(denied.answer.permissionDecisionReason).toContain('phone says deny');
  });
});
