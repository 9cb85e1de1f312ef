// `question.answer` / `question.decide` (ASK-3, ACTAPPROVE-2): a signed device
// action settles a pending question or approval; the first wins, later ones get
// E_CONFLICT. `question.list` follows `subscribe` so a fresh client sees what waits.
import { CommandrError } from '../../protocol/wire/errors';
import type { ActionFrame } from '../../protocol/wire/frames';
import type { QuestionView } from '../../protocol/wire/questions';
import type { ActionContext } from '../actions/index';
import { QuestionService } from './service';
import { questionsOf } from './route';

type Of<K> = Extract<ActionFrame, { type: K }>;

export async function questionAnswer(ctx: ActionContext, frame: Of<'question.answer'>): Promise<{ request: QuestionView }> {
  const questions = questionsOf(ctx.services);
  if (frame.via === 'choice') {
    if (frame.choice === undefined) throw new CommandrError('E_BAD_FRAME', 'an answer by choice needs `choice` (the index of the chosen choice)');
    return { request: questions.answer(ctx.device, frame.request, { via: 'choice', choice: frame.choice }) };
  }
  if (frame.text === undefined) throw new CommandrError('E_BAD_FRAME', `an answer by ${frame.via} needs \`text\``);
  return { request: questions.answer(ctx.device, frame.request, { via: frame.via, text: frame.text }) };
}

export async function questionDecide(ctx: ActionContext, frame: Of<'question.decide'>): Promise<{ request: QuestionView }> {
  return { request: questionsOf(ctx.services).decide(ctx.device, frame.request, frame.decision, frame.reason) };
}

/** Wraps the `subscribe` read so the client also gets the open and recent questions. */
export function withQuestionList<F>(read: (ctx: ActionContext, frame: F) => Promise<unknown>): (ctx: ActionContext, frame: F) => Promise<unknown> {
  return async (ctx, frame) => {
    const result = await read(ctx, frame);
    const questions = ctx.services.questions;
    if (questions instanceof QuestionService) ctx.send({ type: 'question.list', requests: questions.list() });
    return result;
  };
}
