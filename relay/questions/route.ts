// `POST /api/questions` (ASK-1, ACTAPPROVE-1): the `commandr mcp` server (hook
// credential) asks a question or an action approval and long-polls until it is
// settled. The same `key` finds the same request again after a dropped connection.
// `POST /api/questions/cancel` (ASK-7): the asker stopped waiting, the request is withdrawn.
import type * as http from 'node:http';
import { CommandrError } from '../../protocol/wire/errors';
import { QuestionAsk, QuestionCancel } from '../../protocol/wire/questions';
import type { RelayServices } from '../context';
import { readJsonAs, sendJson } from '../http/respond';
import { asItself, checkScope, checkWaiting, hookCaller } from '../live/scoped-tokens';
import { QuestionService } from './service';

export const QUESTION_BODY_LIMIT = 64 * 1024;

export function questionsOf(services: RelayServices): QuestionService {
  const questions = services.questions;
  if (!(questions instanceof QuestionService)) throw new CommandrError('E_UNAVAILABLE', 'agent questions are not available on this relay');
  return questions;
}


export async function postQuestion(services: RelayServices, hookToken: string, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const caller = hookCaller(services, hookToken, req, 'questions');
  const questions = questionsOf(services);
  const asked = await readJsonAs(req, QuestionAsk, 'question', QUESTION_BODY_LIMIT);
  // JOBTOKEN-2: a job asks for its own task; a commander (no task) for any it is working on.
  checkScope(caller, { task: caller.scope?.task === undefined ? undefined : asked.task, agent: asked.agent, paths: [asked.cwd] }, 'question');
  // A run asks as itself, and a key another asker holds is not its to join (JOBTOKEN-3): it would
  // read that question's answer, and could withdraw it.
  const body = asItself(caller, asked);
  if (caller.scope !== null) {
    const existing = questions.get(body.key);
    if (existing && !caller.asked.has(body.key) && existing.agent !== caller.scope.agent) {
      throw new CommandrError('E_FORBIDDEN', `question: the credential of ${caller.scope.owner} may not join ${body.key}: another asker's`);
    }
    checkWaiting(caller, `question:${body.key}`, () => questions.get(body.key)?.status === 'pending', 'question'); // JOBTOKEN-4
    caller.asked.add(body.key);
  }
  // No paired device: no one can answer, say so at once (ASK-5).
  if (services.devices.list().length === 0) throw new CommandrError('E_UNAVAILABLE', 'no paired device can answer: pair a phone with `commandr pair`');
  // The headers are the acknowledgement: the asking client knows the relay took the question (FAST-5, as GUARD-9).
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.flushHeaders();
  await new Promise<void>((resolve) => {
    let cancel = () => {};
    const gone = () => {
      // The asker went away: stop waiting. An ask with the same key within the grace period
      // keeps the request; none and it is withdrawn (ASK-7).
      cancel();
      questions.askerGone(body.key);
      resolve();
    };
    res.once('close', gone);
    cancel = questions.ask(body, (view) => {
      res.off('close', gone);
      if (!res.writableEnded && !res.destroyed) res.end(JSON.stringify({ request: view }));
      resolve();
    }).cancel;
    // The asker left while its question was being read: 'close' has already been and gone.
    if (res.destroyed || req.socket.destroyed) gone();
  });
}

export async function postQuestionCancel(services: RelayServices, hookToken: string, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const caller = hookCaller(services, hookToken, req, 'questions');
  const questions = questionsOf(services);
  const body = await readJsonAs(req, QuestionCancel, 'question cancel', QUESTION_BODY_LIMIT);
  if (caller.scope !== null && !caller.asked.has(body.key)) throw new CommandrError('E_FORBIDDEN', `question cancel: the credential of ${caller.scope.owner} did not ask ${body.key}`);
  sendJson(res, 200, { request: questions.withdraw(body.key, 'cancelled') });
}
