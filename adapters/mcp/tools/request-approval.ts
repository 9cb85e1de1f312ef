// `request_approval` (ACTAPPROVE-1..4): the person approves or denies a named
// action that is not a commit ("deploy to staging"), with a signed device action;
// the result says which and why. No decision by the timeout is a denial.
import { appendEvent } from '../../../bus/event-log';
import { DEFAULT_ASK_TIMEOUT_S, RequestApprovalInput, RequestApprovalOutput, type RequestApprovalOutput as Result } from '../../../protocol/mcp/tools';
import { askRelay } from '../relay-ask';
import { guarded, ok, ToolError } from '../result';
import { taskFor } from '../task';
import { newQuestionId } from './ask';
import { defineTool } from './tool';

export const requestApproval = defineTool({
  name: 'request_approval',
  title: 'Request approval for an action',
  description:
    'Ask the person to approve a named action before you take it (e.g. "deploy to staging", "delete the old table"); not for commits, which have their own gate. Waits for their decision on the phone. approved=false means do not do it: read `reason`. No decision by timeout_s (default 300) is a denial.',
  input: RequestApprovalInput,
  output: RequestApprovalOutput,
  run: (args, where, signal) =>
    guarded(async () => {
      const ctx = taskFor(args.task, where);
      const id = newQuestionId();
      const timeoutS = args.timeout_s ?? DEFAULT_ASK_TIMEOUT_S;
      appendEvent(ctx.bus, { event: 'action_approval_requested', task: ctx.task, request: id, action: args.action });
      const outcome = await askRelay(
        { kind: 'approval', key: id, task: ctx.task, cwd: ctx.worktree, agent: where.env.COMMANDR_AGENT_ID?.trim() || undefined, timeoutMs: timeoutS * 1000, action: args.action, reason: args.reason },
        where.env,
        signal,
      );
      if (outcome.kind === 'cancelled') {
        // The client cancelled the call (ASK-8): the relay was told; MCP sends no result for it.
        appendEvent(ctx.bus, { event: 'action_approval_decided', task: ctx.task, request: id, decision: 'expired' });
        throw new ToolError('E_CANCELLED', 'the call was cancelled; the request was withdrawn from the phone');
      }
      if (outcome.kind === 'unavailable') {
        appendEvent(ctx.bus, { event: 'action_approval_decided', task: ctx.task, request: id, decision: 'expired' });
        throw new ToolError('E_NO_RELAY', `not approved: the request could not reach the person (${outcome.reason}). Do not take the action.`);
      }
      const view = outcome.view;
      const decision = view.status === 'approved' ? 'approved' : view.status === 'denied' ? 'denied' : 'expired';
      appendEvent(ctx.bus, { event: 'action_approval_decided', task: ctx.task, request: id, decision, by: view.by ?? undefined });
      const reason =
        decision === 'approved' ? `Approved by ${view.by} on the phone${view.answer ? `: ${view.answer}` : ''}`
        : decision === 'denied' ? `Denied by ${view.by} on the phone${view.answer ? `: ${view.answer}` : '. Do not take this action; choose another approach or ask the person.'}`
        : `No decision within ${timeoutS} s, so it is denied. Do not take this action.`;
      const result: Result = { task: ctx.task, request: id, approved: decision === 'approved', decision, by: view.by, reason };
      return ok(result, reason);
    }),
});
