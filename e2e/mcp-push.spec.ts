// An agent's question reaches a phone that is not looking, as a Web Push: the real
// `commandr mcp` server (SDK client as the agent) calls `ask`, the relay pushes to the
// local push-service stand-in (which decrypts it, like a vendor's would deliver it),
// the test hands that exact payload to the app's real service worker over CDP, and a
// choice tapped on the notification is answered by the worker itself with a signed
// `question.answer` — which comes back to the agent as the tool's result.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { fullBrowser } from './browsers';
import { test, expect, controlledByWorker, type RelayFixture } from './fixtures';
import { startAgent, textOf, type Agent } from './mcp-agent';
import { deliverPush, deliverUntilShown, hideApp, showApp, usePushStandIn, shown, subscribeThroughSettings, tap } from './notifications';
import { startTask } from './task-setup';
// The service worker is what this spec tests (or needs: push, offline, updates); the others run without it (SUITE-5).
test.use({ serviceWorkers: 'allow', ...fullBrowser }); // push notifications: the full browser (SUITE-6)

const pushService = usePushStandIn('e2e-mcp-push-ca-');
let agent: Agent | undefined;

test.afterEach(async () => { await agent?.close(); agent = undefined; });

/** A hook's question over `POST /api/questions` (as the permission hook asks); `answered` is its long-poll's answer. */
function askOverHook(relayEnv: RelayFixture, task: string, question: string, choices: string[]) {
  const token = readFileSync(path.join(relayEnv.relay.dataDir, 'hook-token'), 'utf8').trim();
  const key = `q-${randomBytes(10).toString('hex')}`;
  const body = { kind: 'question', key, task, cwd: relayEnv.repo, timeoutMs: 120_000, question, choices };
  const answered = fetch(`${relayEnv.url}/api/questions`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { key, answered };
}

/**
 * A hook's question on this phone's notification shade: the app subscribed to pushes and on
 * the Inbox, in the background, when the question is asked; the relay's push shown by the worker.
 */
async function questionPushed(page: Page, relayEnv: RelayFixture, task: [id: string, title: string], question: string, choices: string[]) {
  startTask(relayEnv, ...task);
  await controlledByWorker(page);
  const sub = pushService.endpoint.subscribe();
  await subscribeThroughSettings(page, relayEnv, sub.json);
  await page.getByTestId('nav-inbox').click();
  await hideApp(page, relayEnv);
  const { key, answered } = askOverHook(relayEnv, task[0], question, choices);
  const tag = `question:${key}`;
  const received = await pushService.endpoint.waitFor((p) => p.subscription === sub.id, 30_000);
  const sw = await deliverUntilShown(page, relayEnv.url, received.text, tag);
  /** The answer the hook's long poll got. */
  const answer = async () => ((await (await answered).json()) as { request: { answer: string } }).request.answer;
  return { sub, tag, sw, answer };
}

test('ASK-4: an agent\'s ask is pushed with its choices as actions; a choice tapped in the service worker is the agent\'s tool result', async ({ paired: page, relayEnv }) => {
  const task = startTask(relayEnv, 'T-43', 'Deploy the preview');
  await controlledByWorker(page);
  const sub = pushService.endpoint.subscribe();
  await subscribeThroughSettings(page, relayEnv, sub.json);
  await hideApp(page, relayEnv);

  agent = await startAgent(relayEnv, task.worktree);
  const asked = agent.call('ask', { question: 'Where should the preview go?', choices: ['staging', 'production', 'nowhere yet', 'a fourth'], timeout_s: 120 });
  const received = await pushService.endpoint.waitFor((p) => p.subscription === sub.id, 30_000);
  const payload = received.payload as { tag: string; data: { request: string } };
  const question = relayEnv.events().find((e) => e.event === 'question_asked' && e.task === 'T-43');
  expect(question).toBeDefined();
  expect(payload.tag).toBe(`question:${question!.question as string}`);

  const sw = await deliverUntilShown(page, relayEnv.url, received.text, payload.tag);
  // The relay sends three choices as actions (the fourth stays in the app); Chromium shows
  // two buttons (Notification.maxActions), so the choice without a button is named in the body.
  expect(await sw.evaluate(() => (Notification as unknown as { maxActions: number }).maxActions)).toBe(2);
  expect(await shown(sw, payload.tag)).toEqual([expect.objectContaining({
    title: 'T-43 asks you', body: 'Where should the preview go?\nMore choices in the app: nowhere yet',
    actions: [{ action: 'choice-0', title: 'staging' }, { action: 'choice-1', title: 'production' }],
  })]);

  await tap(sw, payload.tag, 'choice-1');
  const result = await asked;
  expect(result.isError, textOf(result)).toBeFalsy();
  expect(result.structuredContent).toMatchObject({ task: 'T-43', answered: true, via: 'choice', answer: 'production', by: 'E2E Phone' });
  expect(textOf(result)).toContain('production');
  await expect.poll(async () => (await shown(sw, payload.tag)).map((n) => n.title)).toEqual(['Answered T-43']);
  expect(relayEnv.events().filter((e) => e.event === 'question_answered' && e.task === 'T-43')).toEqual([
    expect.objectContaining({ question: question!.question, via: 'choice', by: 'E2E Phone' }),
  ]);
  // ASK-9: the relay then replaces the notification, quietly, with what happened and no buttons.
  const quiet = await pushService.endpoint.waitFor((p) => p.subscription === sub.id && (p.payload as { quiet?: boolean }).quiet === true, 30_000);
  const titled = 'Answered by E2E Phone · T-43';
  await expect.poll(async () => {
    if ((await shown(sw, payload.tag))[0]?.title !== titled) await deliverPush(page, relayEnv.url, quiet.text);
    return (await shown(sw, payload.tag)).map((n) => [n.title, n.actions.length]);
  }, { timeout: 20_000, intervals: [500, 1000, 2000] }).toEqual([[titled, 0]]);
});

test('ACTAPPROVE-2 ASK-4: an agent\'s request_approval is pushed with Approve / Deny; Deny in the service worker comes back to the agent as denied', async ({ paired: page, relayEnv }) => {
  const task = startTask(relayEnv, 'T-44', 'Drop the old table');
  await controlledByWorker(page);
  const sub = pushService.endpoint.subscribe();
  await subscribeThroughSettings(page, relayEnv, sub.json);
  await hideApp(page, relayEnv);

  agent = await startAgent(relayEnv, task.worktree);
  const requested = agent.call('request_approval', { action: 'drop table users_old', reason: 'replaced by users in migration 12', timeout_s: 120 });
  const received = await pushService.endpoint.waitFor((p) => p.subscription === sub.id, 30_000);
  const payload = received.payload as { tag: string };
  const sw = await deliverUntilShown(page, relayEnv.url, received.text, payload.tag);
  expect((await shown(sw, payload.tag)).map((n) => ({ title: n.title, body: n.body, actions: n.actions.map((a) => a.action) })))
    .toEqual([{ title: 'Approve "drop table users_old"? · T-44', body: 'replaced by users in migration 12', actions: ['approve', 'deny'] }]);

  await tap(sw, payload.tag, 'deny');
  const result = await requested;
  expect(result.structuredContent).toMatchObject({ approved: false, decision: 'denied', by: 'E2E Phone' });
  expect(relayEnv.events().some((e) => e.event === 'action_approval_decided' && e.task === 'T-44' && e.decision === 'denied')).toBe(true);
});

test('ASK-9: a question answered in the app closes its notification, which no push replaces while the app is on screen', async ({ paired: page, relayEnv }) => {
  const { tag, sw, answer } = await questionPushed(page, relayEnv, ['T-45', 'Pick a port'], 'Which port?', ['8080', '9090']);
  expect((await shown(sw, tag))[0]!.actions.map((a) => a.action)).toEqual(['choice-0', 'choice-1']);
  // The person opens the app instead and answers there.
  await showApp(page, relayEnv);
  await page.getByTestId('nav-inbox').click();
  const card = page.getByTestId('question-card').filter({ hasText: 'Which port?' });
  await card.getByTestId('question-choice').filter({ hasText: '9090' }).click();
  expect(await answer()).toBe('9090');
  await expect.poll(async () => (await shown(sw, tag)).length).toBe(0);
});

test('ASK-9: a button tapped on the notification while the app is on screen leaves the worker\'s confirmation, which the page\'s close of the settled request does not take', async ({ paired: page, relayEnv }) => {
  const { tag, sw, answer } = await questionPushed(page, relayEnv, ['T-47', 'Pick a region'], 'Which region?', ['eu', 'us']);
  // The app is on screen and the person answers from the notification shade pulled over it.
  await showApp(page, relayEnv);
  const card = page.getByTestId('question-card').filter({ hasText: 'Which region?' });
  await expect(card).toHaveAttribute('data-status', 'pending');
  await tap(sw, tag, 'choice-1');
  expect(await answer()).toBe('us');
  // The page gets the settled frame and asks the worker to close the notification; the
  // worker's confirmation of the tap, shown under the same tag, is what stays.
  await expect(card).toHaveAttribute('data-status', 'answered');
  await expect.poll(async () => (await shown(sw, tag)).map((n) => [n.title, n.actions.length])).toEqual([['Answered T-47', 0]]);
});

test('ASK-9: a request settled while the app is in the background keeps its notification for the relay\'s quiet push; the page closes nothing it could race the worker for', async ({ paired: page, relayEnv }) => {
  const { sub, tag, sw, answer } = await questionPushed(page, relayEnv, ['T-46', 'Pick a host'], 'Which host?', ['alpha', 'beta']);
  // The settled frame reaches the page while it is in the background. (The answer is sent from
  // this page with its visibility faked hidden: the one way to have the frame arrive exactly then.)
  const card = page.getByTestId('question-card').filter({ hasText: 'Which host?' });
  await card.getByTestId('question-choice').filter({ hasText: 'beta' }).click();
  expect(await answer()).toBe('beta');
  await expect(card).toHaveAttribute('data-status', 'answered'); // the page has the settled frame
  // Two reads in turn from the page, after the frame: the page asked the worker to close nothing.
  const fromPage = () => page.evaluate(async (t) => (await (await navigator.serviceWorker.getRegistration())!.getNotifications({ tag: t })).length, tag);
  await fromPage();
  expect(await fromPage()).toBe(1);
  expect((await shown(sw, tag))[0]!.actions.map((a) => a.action)).toEqual(['choice-0', 'choice-1']);
  // The relay's quiet push is what replaces it, as on a phone whose app is closed.
  const quiet = await pushService.endpoint.waitFor((p) => p.subscription === sub.id && (p.payload as { quiet?: boolean }).quiet === true, 30_000);
  await deliverPush(page, relayEnv.url, quiet.text);
  await expect.poll(async () => (await shown(sw, tag)).map((n) => [n.title, n.actions.length])).toEqual([['Answered by E2E Phone · T-46', 0]]);
});
