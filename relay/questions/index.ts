// The question service as server.ts builds it (one line there): requests in the
// data dir, frames to every device, a push per request with the choices as actions,
// and a quiet one replacing it when the request is settled (ASK-9).
import * as fs from 'node:fs';
import { locateGit } from '../../bus/locate';
import type { PushPayload } from '../../protocol/wire/push';
import type { QuestionView } from '../../protocol/wire/questions';
import type { RelayServices } from '../context';
import { RepoHub } from '../watch/hub';
import { QuestionService } from './service';

export { QuestionService } from './service';

/** Platforms show two or three buttons: up to three choices (or approve/deny) become actions (ASK-4). */
export const PUSH_CHOICES = 3;

/** The push for a new question or approval request. Uses the `permission_request` kind (the "needs your OK" preference). */
export function questionMessage(q: QuestionView): PushPayload {
  const url = `/?question=${encodeURIComponent(q.id)}`;
  const data = { request: q.id, task: q.task, ...(q.repo ? { repo: q.repo } : {}) };
  if (q.kind === 'approval') {
    return {
      v: 1, kind: 'permission_request', tag: `question:${q.id}`, url, data,
      title: `Approve "${q.title}"? · ${q.task}`.slice(0, 200), body: (q.reason ?? '').slice(0, 500),
      actions: [{ action: 'approve', title: 'Approve' }, { action: 'deny', title: 'Deny' }],
    };
  }
  return {
    v: 1, kind: 'permission_request', tag: `question:${q.id}`, url, data,
    title: `${q.task} asks you`.slice(0, 200), body: q.title.slice(0, 500),
    actions: q.choices.slice(0, PUSH_CHOICES).map((title, i) => ({ action: `choice-${i}` as 'choice-0' | 'choice-1' | 'choice-2', title })),
  };
}

/**
 * The push that replaces a request's notification once it is settled (ASK-9): the same tag, no
 * buttons, quiet, saying what happened, so no lock screen keeps offering an answer nobody takes.
 */
export function settledQuestionMessage(q: QuestionView): PushPayload {
  const what = q.withdrawn ? 'Withdrawn: the agent stopped waiting'
    : q.status === 'expired' ? (q.kind === 'approval' ? 'Denied: no answer in time' : 'No answer in time')
      : `${q.status === 'answered' ? 'Answered' : q.status === 'approved' ? 'Approved' : 'Denied'}${q.by ? ` by ${q.by}` : ''}`;
  return { ...questionMessage(q), title: `${what} · ${q.task}`.slice(0, 200), body: q.title.slice(0, 500), actions: [], quiet: true };
}

/** The watched repo whose bus a worktree (main checkout or linked) belongs to. */
function repoOfWorktree(services: RelayServices, cwd: string): string | null {
  const hub = services.hub;
  if (!(hub instanceof RepoHub)) return null;
  let bus: string;
  try {
    bus = fs.realpathSync(locateGit(cwd, {}, false).bus);
  } catch {
    return null;
  }
  const repo = hub.repos().find((r) => {
    const model = hub.model(r.id);
    try {
      return model !== undefined && fs.realpathSync(model.bus) === bus;
    } catch {
      return false;
    }
  });
  return repo ? repo.id : null;
}

export function startQuestions(services: RelayServices): QuestionService {
  return new QuestionService({
    dataDir: services.dataDir,
    broadcast: (frame) => services.broadcast(frame),
    notify: (view) => {
      try {
        services.push?.notify?.(view.status === 'pending' ? questionMessage(view) : settledQuestionMessage(view));
      } catch (error) {
        services.log.error(error, 'push for an agent question');
      }
    },
    repoOf: (cwd) => repoOfWorktree(services, cwd),
  });
}
