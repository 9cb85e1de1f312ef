// The node side of the OpenCode plugin's permission step (PERM-HOOK-n):
// `permission <json {session,cwd,tool,args,call}>`. Prints `{"decision","reason"}`
// when the policy denies or a person answers; prints nothing for "no decision"
// (policy allow, relay unreachable, bad policy), so OpenCode's own rules apply.
import { askRelay } from '../../lib/permission-ask';
import { checkPermission } from '../../lib/permission-check';

type Data = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);
const obj = (v: unknown): Data => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Data) : {});

async function decide(data: Data): Promise<{ decision: 'allow' | 'deny'; reason: string } | undefined> {
  const session = str(data.session);
  const cwd = str(data.cwd);
  const tool = str(data.tool);
  if (!session || !cwd || !tool) return undefined;
  const checked = checkPermission({ session, cwd, tool, input: obj(data.args), callId: str(data.call) });
  const { verdict } = checked;
  if (verdict.decision === 'deny') return { decision: 'deny', reason: `Commandr policy (${verdict.rule}): ${verdict.why}` };
  if (verdict.decision === 'allow') return undefined;
  return askRelay(checked.ask);
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
