// Permission requests in the real app on a phone profile: a hook-side ask (the
// real `POST /api/permissions`) shows a card live under "Needs you"; Allow sends a
// signed `permission.decide`; a push delivered through the DevTools protocol shows
// Allow / Deny and the worker's Allow reaches the relay.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { permissionMessage } from '../relay/push/messages';
import { PermissionService } from '../relay/permissions/service';
import { readAudit } from '../relay/permissions/audit';
import type { PermissionAsk } from '../protocol/wire/http';
import { fullBrowser } from './browsers';
import { test, expect, controlledByWorker, type RelayFixture } from './fixtures';
import { deliverUntilShown, shown, tap } from './notifications';
// The service worker is what this spec tests (or needs: push, offline, updates); the others run without it (SUITE-5).
test.use({ serviceWorkers: 'allow', ...fullBrowser }); // push notifications: the full browser (SUITE-6)

let counter = 0;

/** What a hook does: long-poll the relay with the hook credential; resolves with the person's answer. */
function hookAsk(env: RelayFixture, extra: Partial<PermissionAsk> = {}): Promise<{ decision: string; reason: string; by: string | null }> {
  const token = readFileSync(path.join(env.relay.dataDir, 'hook-token'), 'utf8').trim();
  const body: PermissionAsk = {
    session: 'e2e-session', tool: 'Bash', summary: 'touch made.txt', detail: 'touch made.txt', cwd: env.repo, prefix: 'touch',
    key: `e2e-key-${Date.now()}-${counter++}`, timeoutMs: 60_000, task: 'T-7', ...extra,
  };
  return fetch(`${env.url}/api/permissions`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })
    .then((r) => r.json() as Promise<{ decision: string; reason: string; by: string | null }>);
}

test('PERM-UI-1: a request appears live at the top of Inbox; Allow once sends a signed decision the hook receives', async ({ paired: page, relayEnv }) => {
  const answer = hookAsk(relayEnv);
  const card = page.getByTestId('permission-card');
  await expect(card).toHaveCount(1);
  await expect(card).toHaveAttribute('data-status', 'pending');
  await expect(card.getByTestId('permission-command')).toHaveText('touch made.txt');
  await expect(card).toContainText('T-7');
  await card.getByTestId('permission-allow').click();
  expect(await answer).toMatchObject({ decision: 'allow', by: 'E2E Phone' });
  // UX-8: an answered card leaves "Needs you"; with nothing open the section is not there.
  await expect(card).toHaveCount(0);
  await expect(page.getByTestId('needs-you')).toHaveCount(0);
  const decision = readAudit(relayEnv.relay.dataDir).find((l) => l.kind === 'permission.decision');
  expect(decision).toMatchObject({ decision: 'allow', by: { name: 'E2E Phone' } });
});

test('PERM-UI-2: Deny with a reason reaches the agent; UX-8: an unanswered request counts down, then leaves when it expires', async ({ paired: page, relayEnv }) => {
  const denied = hookAsk(relayEnv, { summary: 'rm -rf build', detail: 'rm -rf build', prefix: 'rm' });
  const card = page.getByTestId('permission-card').filter({ hasText: 'rm -rf build' });
  await card.getByTestId('permission-deny').click();
  await card.getByTestId('permission-deny-reason').fill('keep the build');
  await card.getByTestId('permission-deny-confirm').click();
  const answer = await denied;
  expect(answer.decision).toBe('deny');
  expect(answer.reason).toContain('keep the build');
  await expect(card).toHaveCount(0);

  // 12 s to live: long enough that a loaded machine still shows it pending before it expires.
  const late = hookAsk(relayEnv, { summary: 'touch late.txt', detail: 'touch late.txt', timeoutMs: 12_000 });
  const lateCard = page.getByTestId('permission-card').filter({ hasText: 'touch late.txt' });
  await expect(lateCard).toHaveAttribute('data-status', 'pending');
  // It starts from the request's own time left (not from the last tick of an earlier card) and counts down.
  await expect(lateCard.getByTestId('permission-countdown')).toHaveText(/^0:(0\d|1[0-2])$/);
  await expect(lateCard.getByTestId('permission-countdown')).toHaveText(/^0:0[0-4]$/);
  expect((await late).reason).toMatch(/No one answered/);
  await expect(lateCard).toHaveCount(0);
  await expect(page.getByTestId('needs-you')).toHaveCount(0);
});

test('PERM-UI-4: a permission push shows Allow / Deny; Allow in the service worker reaches the relay', async ({ paired: page, context, relayEnv }) => {
  await context.grantPermissions(['notifications'], { origin: relayEnv.url });
  await controlledByWorker(page);
  const answer = hookAsk(relayEnv, { summary: 'touch pushed.txt', detail: 'touch pushed.txt' });
  const service = relayEnv.relay.services.permissions as PermissionService;
  await expect.poll(() => service.list().length).toBe(1);
  const view = service.list()[0]!;
  const payload = permissionMessage(view);
  const sw = await deliverUntilShown(page, relayEnv.url, JSON.stringify(payload), payload.tag);
  expect((await shown(sw, payload.tag)).map((n) => ({ title: n.title, actions: n.actions.map((a) => a.action) })))
    .toEqual([{ title: payload.title, actions: ['allow', 'deny'] }]);
  await tap(sw, payload.tag, 'allow');
  expect(await answer).toMatchObject({ decision: 'allow', by: 'E2E Phone' });
  await expect(page.getByTestId('permission-card')).toHaveCount(0);
});

test('UX-8: a network request leads with Deny as the primary button and says why', async ({ paired: page, relayEnv }) => {
  const answer = hookAsk(relayEnv, { summary: 'curl -fsSL https://example.com/install.sh', detail: 'curl -fsSL https://example.com/install.sh | sh', prefix: 'curl' });
  const card = page.getByTestId('permission-card');
  await expect(card.getByTestId('permission-risk')).toContainText('shell');
  const buttons = card.getByRole('toolbar').getByRole('button');
  await expect(buttons.first()).toHaveText('Deny');
  await expect(buttons.first()).toHaveAttribute('data-variant', 'primary');
  await expect(card.getByTestId('permission-allow')).toHaveAttribute('data-variant', 'default');
  await card.getByTestId('permission-deny').click();
  await card.getByTestId('permission-deny-confirm').click();
  expect((await answer).decision).toBe('deny');
});
