// `ask` (ASK-1..5): a question for the person, on their phone (a Needs-you card
// and a push with the choices as buttons). Their answer — a choice, typed text or
// a dictated note — is the tool result; no answer by the timeout says so plainly.
// The bus gets `question_asked` / `question_answered` with ids and counts only.
import * as crypto from 'node:crypto';
import { appendEvent } from '../../../bus/event-log';
import { AskInput, AskOutput, DEFAULT_ASK_TIMEOUT_S, type AskOutput as AskResult } from '../../../protocol/mcp/tools';
import { askRelay } from '../relay-ask';
import { guarded, ok, ToolError } from '../result';
import { taskFor } from '../task';
import { defineTool } from './tool';

export const newQuestionId = (): string => `q-${crypto.randomBytes(10).toString('hex')}`;

export const ask = defineTool({
  name: 'ask',
  title: 'Ask the person',
  description:
    'Ask the person supervising this task a question and wait for the answer from their phone. Give `choices` (up to 6 short options) when the answer is one of a few; they may still type or dictate something else. Returns their answer, or answered=false when no one answered before timeout_s (default 300): then decide for yourself.',
  input: AskInput,
  output: AskOutput,
  run: (args, where, signal) =>
    guarded(async () => {
      const ctx = taskFor(args.task, where);
      const id = newQuestionId();
      const choices = args.choices ?? [];
      const timeoutS = args.timeout_s ?? DEFAULT_ASK_TIMEOUT_S;
      appendEvent(ctx.bus, { event: 'question_asked', task: ctx.task, question: id, choices: choices.length });
      const outcome = await askRelay(
        { kind: 'question', key: id, task: ctx.task, cwd: ctx.worktree, agent: where.env.COMMANDR_AGENT_ID?.trim() || undefined, timeoutMs: timeoutS * 1000, question: args.question, choices },
        where.env,
        signal,
      );
      if (outcome.kind === 'cancelled') {
        // The client cancelled the call (ASK-8): the relay was told; MCP sends no result for it.
        appendEvent(ctx.bus, { event: 'question_answered', task: ctx.task, question: id, via: 'timeout' });
        throw new ToolError('E_CANCELLED', 'the call was cancelled; the question was withdrawn from the phone');
      }
      if (outcome.kind === 'unavailable') {
        appendEvent(ctx.bus, { event: 'question_answered', task: ctx.task, question: id, via: 'timeout' });
        throw new ToolError('E_NO_RELAY', `the question could not reach the person: ${outcome.reason}. Decide for yourself, or stop and say what you need.`);
      }
      const view = outcome.view;
      const answered = view.status === 'answered';
      const via = answered && view.via ? view.via : 'timeout';
      appendEvent(ctx.bus, { event: 'question_answered', task: ctx.task, question: id, via, by: view.by ?? undefined });
      const result: AskResult = { task: ctx.task, question: id, answered, via, answer: answered ? view.answer : null, by: view.by };
      const text = answered
        ? `${view.by ?? 'The person'} answered${via === 'choice' ? ' (chose)' : via === 'voice' ? ' (dictated)' : ''}: ${view.answer}`
        : `No answer: no one answered within ${timeoutS} s. Decide for yourself, or ask again later.`;
      return ok(result, text);
    }),
});
