// The node side of the OpenCode plugin's permission step (PERM-HOOK-n):
// `permission <json {session,cwd,tool,args,call}>`. Prints `{"decision","reason"}`
// when the policy denies or a person answers; prints nothing when the policy allows,
// so OpenCode's own rules apply. OpenCode's own default is allow, so a call that
// needs a person with no phone to ask (relay down, no device) or an unreadable
// policy is denied (GUARD-7): fail closed.
import { PolicyError } from '../../../policy/load';
import { askRelay, unreachableReason } from '../../lib/permission-ask';
import { jobEdit } from '../../lib/permission-roots';
import { checkPermission } from '../../lib/permission-check';

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
    const answer = await decide(obj(JSON.parse(process.argv[2] ?? '')));
    if (answer) process.stdout.write(`${JSON.stringify({ decision: answer.decision, reason: answer.reason })}\n`);
  } catch (error) {
    if (process.env.COMMANDR_HOOK_DEBUG) process.stderr.write(`commandr permission: ${String(error)}\n`);
  }
  process.exitCode = 0;
}

void main();
