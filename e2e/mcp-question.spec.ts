// An agent's question in the real app on a phone profile: the `commandr mcp`
// server's ask (the real `POST /api/questions`) shows a card live under "Needs
// you" with its choices; a typed answer goes back as a signed `question.answer`.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as crypto from 'node:crypto';
import type { QuestionAsk, QuestionView } from '../protocol/wire/questions';
import { test, expect, expectComposerAtRest, type RelayFixture } from './fixtures';

/** What the MCP server does: long-poll the relay with the hook credential; resolves with the settled view. */
function serverAsk(env: RelayFixture, extra: Partial<QuestionAsk> = {}): Promise<QuestionView> {
  const token = readFileSync(path.join(env.relay.dataDir, 'hook-token'), 'utf8').trim();
  const body = {
    kind: 'question', key: `q-${crypto.randomBytes(10).toString('hex')}`, task: 'T-7', cwd: env.repo, timeoutMs: 60_000,
    ...(extra.kind === 'approval' ? {} : { question: 'Which port should the dev server use?', choices: ['8080', '9090'] }), ...extra,
  };
  return fetch(`${env.url}/api/questions`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })
    .then((r) => r.json() as Promise<{ request: QuestionView }>)
    .then((r) => r.request);
}

test('ASK-6 ASK-2 ASK-3: a question appears live with its choices; a typed answer is what the agent gets', async ({ paired: page, relayEnv }) => {
  const answer = serverAsk(relayEnv);
  const card = page.getByTestId('question-card');
  await expect(card).toHaveAttribute('data-status', 'pending');
  await expect(card.getByTestId('question-text')).toHaveText('Which port should the dev server use?');
  await expect(card.getByTestId('question-choice')).toHaveText(['8080', '9090']);
  // The time left before the question settles by itself (timeoutMs 60 s).
  await expect(card.getByTestId('question-status')).toHaveText(/^Answer within 0:[0-5]\d|^Answer within 1:00/);
  await card.getByTestId('question-input').fill('7077, the others are taken');
  await card.getByTestId('question-send').click();
  expect(await answer).toMatchObject({ status: 'answered', via: 'text', answer: '7077, the others are taken', by: 'E2E Phone' });
  await expect(card).toHaveAttribute('data-status', 'answered');
});

test('UX-10: an answer in the person\'s own words is a chat\'s composer: a one-line box that grows, then hold-to-talk and Send on one line', async ({ paired: page, relayEnv }) => {
  await page.setViewportSize({ width: 412, height: 915 });
  const answer = serverAsk(relayEnv);
  const card = page.getByTestId('question-card');
  const box = card.getByTestId('question-input');
  const talk = card.getByTestId('voice-talk');
  const send = card.getByTestId('question-send');
  await expect(talk).toBeVisible();
  const empty = await expectComposerAtRest(box, talk, send);
  // It grows with each line typed.
  const heightWith = async (text: string) => { await box.fill(text); return (await box.boundingBox())!.height; };
  const two = await heightWith('one\ntwo');
  expect(two).toBeGreaterThan(empty);
  expect(await heightWith('one\ntwo\nthree')).toBeGreaterThan(two);
  await send.click();
  expect(await answer).toMatchObject({ status: 'answered', via: 'text', answer: 'one\ntwo\nthree' });
});

test('ASK-3: tapping a choice answers with it', async ({ paired: page, relayEnv }) => {
  const answer = serverAsk(relayEnv, { question: 'Tabs or spaces?', choices: ['tabs', 'spaces'] });
  const card = page.getByTestId('question-card').filter({ hasText: 'Tabs or spaces?' });
  await card.getByTestId('question-choice').filter({ hasText: 'spaces' }).click();
  expect(await answer).toMatchObject({ status: 'answered', via: 'choice', answer: 'spaces' });
});

test('ASK-6 ACTAPPROVE-2: an action approval shows the action, the reason and the time before its automatic denial; Deny with a reason reaches the agent', async ({ paired: page, relayEnv }) => {
  const decided = serverAsk(relayEnv, { kind: 'approval', action: 'drop table users_old', reason: 'replaced by users in migration 12' } as Partial<QuestionAsk>);
  const card = page.getByTestId('question-card').filter({ hasText: 'drop table users_old' });
  await expect(card).toHaveAttribute('data-kind', 'approval');
  await expect(card.getByTestId('question-text')).toHaveText('replaced by users in migration 12');
  await expect(card.getByTestId('question-status')).toHaveText(/^Denied automatically in (0:[0-5]\d|1:00)$/);
  await card.getByTestId('question-input').fill('not before the backup');
  await card.getByTestId('question-deny').click();
  expect(await decided).toMatchObject({ status: 'denied', answer: expect.stringContaining('not before the backup'), by: 'E2E Phone' });
  await expect(card).toHaveAttribute('data-status', 'denied');
  await expect(card.getByTestId('question-status')).toHaveText('Denied · E2E Phone');
});

test('ASK-8: a question the agent stopped waiting for says it was withdrawn and takes no answer', async ({ paired: page, relayEnv }) => {
  const key = `q-${crypto.randomBytes(10).toString('hex')}`;
  const settled = serverAsk(relayEnv, { key, question: 'Deploy now?', choices: ['yes', 'no'] });
  const card = page.getByTestId('question-card').filter({ hasText: 'Deploy now?' });
  await expect(card).toHaveAttribute('data-status', 'pending');
  // What `commandr mcp` sends when its tool call is cancelled.
  const token = readFileSync(path.join(relayEnv.relay.dataDir, 'hook-token'), 'utf8').trim();
  const res = await fetch(`${relayEnv.url}/api/questions/cancel`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ key }) });
  expect(res.status).toBeLessThan(300);
  expect(await settled).toMatchObject({ status: 'expired', withdrawn: 'cancelled' });
  await expect(card.getByTestId('question-status')).toHaveText('Withdrawn: the agent stopped waiting');
  await expect(card.getByTestId('question-choice')).toHaveCount(0);
});
