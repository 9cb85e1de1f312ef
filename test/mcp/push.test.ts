// A question's push carries its choices as actions, and the service worker turns a
// tapped choice (or Approve / Deny) into the signed action that answers it.
import { describe, expect, it } from 'vitest';
import { PushPayload } from '../../protocol/wire/push';
import type { QuestionView } from '../../protocol/wire/questions';
import { questionMessage } from '../../relay/questions/index';
import { actionFrameFor } from '../../app/sw/push';

const question: QuestionView = {
  id: 'q-0123456789abcdef0123', kind: 'question', task: 'T-1', repo: 'r-1', agent: null, title: 'Which database?',
  reason: null, choices: ['sqlite', 'redis', 'postgres', 'none'], createdAt: '2026-01-01T00:00:00Z', expiresAt: '2026-01-01T00:05:00Z',
  status: 'pending', via: null, answer: null, by: null,
};

describe('question pushes', () => {
  it('ASK-4: a question push shows the question and its first three choices as actions; a tapped choice answers it by index', () => {
    const payload = questionMessage(question);
    expect(PushPayload.safeParse(payload).success).toBe(true);
    expect(payload).toMatchObject({ kind: 'permission_request', tag: 'question:q-0123456789abcdef0123', body: 'Which database?', data: { request: question.id, task: 'T-1' } });
    expect(payload.actions).toEqual([{ action: 'choice-0', title: 'sqlite' }, { action: 'choice-1', title: 'redis' }, { action: 'choice-2', title: 'postgres' }]);
    expect(actionFrameFor(payload, 'choice-1')).toMatchObject({ type: 'question.answer', request: question.id, via: 'choice', choice: 1 });
    expect(actionFrameFor(payload, 'allow')).toBeNull();
    expect(actionFrameFor(payload, '')).toBeNull();
  });

  it('ACTAPPROVE-2: an approval push offers Approve / Deny, which become question.decide', () => {
    const payload = questionMessage({ ...question, kind: 'approval', title: 'deploy to staging', reason: 'tests pass', choices: [] });
    expect(payload.actions.map((a) => a.action)).toEqual(['approve', 'deny']);
    expect(payload.body).toBe('tests pass');
    expect(actionFrameFor(payload, 'deny')).toMatchObject({ type: 'question.decide', request: question.id, decision: 'deny' });
    expect(actionFrameFor(payload, 'approve')).toMatchObject({ type: 'question.decide', decision: 'approve' });
  });
});
