// The node side of the OpenCode plugin's permission step (PERM-HOOK-n): `permission` with
// the JSON {session,cwd,tool,args,call} on stdin (a plugin wired before that passes it as
// the one argument; past 128 KiB an argument cannot be passed at all, PERM-HOOK-7). Prints `{"decision","reason"}`
// when the policy denies or a person answers; prints nothing when the policy allows,
// so OpenCode's own rules apply. OpenCode's own default is allow, so a call that
// needs a person with no phone to ask (relay down, no device) or an unreadable
// policy is denied (GUARD-7): fail closed.
import { PolicyError } from '../../../policy/load';
import { askRelay, unreachableReason } from '../../lib/permission-ask';
import { jobEdit } from '../../lib/permission-roots';
import { checkPermission } from '../../lib/permission-check';
import { MAX_PAYLOAD_BYTES, readPayloadChecked, TOO_LARGE } from '../../lib/hook-io';

type Data = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);
const obj = (v: unknown): Data => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Data) : {});

async function decide(data: Data): Promise<{ decision: 'allow' | 'deny'; reason: string } | undefined> {
  const session = str(data.session);
  const cwd = str(data.cwd);
  const tool = str(data.tool);
  if (!session || !cwd || !tool) return undefined;
  let checked;
  try {
    checked = checkPermission({ session, cwd, tool, input: obj(data.args), callId: str(data.call) });
  } catch (error) {
    if (error instanceof PolicyError) return { decision: 'deny', reason: unreachableReason(`the policy cannot be read: ${error.message}`) };
    throw error;
  }
  const { verdict } = checked;
  if (verdict.decision === 'deny') return { decision: 'deny', reason: `Commandr policy (${verdict.rule}): ${verdict.why}` };
  const job = jobEdit(tool, obj(data.args), cwd, checked.policy.editTools, verdict.rule);
  if (job?.kind === 'deny') return { decision: 'deny', reason: job.reason };
  if (verdict.decision === 'allow' || job?.kind === 'intent') return undefined;
  return (await askRelay(checked.ask)) ?? { decision: 'deny', reason: unreachableReason(`${verdict.why}; the relay could not be reached or no phone is paired`) };
}

async function main(): Promise<void> {
  try {
    const data = process.argv[2] !== undefined ? obj(JSON.parse(process.argv[2])) : readPayloadChecked();
    // Unread, the call is unjudged, and OpenCode's own default is allow: refuse it (GUARD-7).
    const answer = data === TOO_LARGE
      ? { decision: 'deny' as const, reason: `This tool call is over ${MAX_PAYLOAD_BYTES / 1024 / 1024} MiB, too large for Commandr's policy to check; split it into smaller calls.` }
      : await decide(data ?? {});
    if (answer) process.stdout.write(`${JSON.stringify({ decision: answer.decision, reason: answer.reason })}\n`);
  } catch (error) {
    if (process.env.COMMANDR_HOOK_DEBUG) process.stderr.write(`commandr permission: ${String(error)}\n`);
  }
  process.exitCode = 0;
}

void main();
