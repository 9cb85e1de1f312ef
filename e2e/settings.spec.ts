// Settings shows this device and renames it on the relay.
import { pairDevice } from '../test/helpers/device';
import { fullBrowser } from './browsers';
import { pairThroughScreen, test, expect } from './fixtures';
// The service worker is what this spec tests (or needs: push, offline, updates); the others run without it (SUITE-5).
test.use({ serviceWorkers: 'allow', ...fullBrowser }); // push notifications: the full browser (SUITE-6)

test('APP-11: settings shows this device and can rename it; the relay keeps the new name', async ({ paired: page, relayEnv }) => {
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('this-device-name')).toHaveText('E2E Phone');
  await expect(page.getByTestId('relay-address')).toHaveText(relayEnv.url);
  await page.getByTestId('rename-input').fill('Renamed Phone');
  await page.getByTestId('rename-submit').click();
  await expect(page.getByTestId('this-device-name')).toHaveText('Renamed Phone');
  await expect(page.getByTestId('settings-message')).toHaveText('Renamed.');
  const onRelay = relayEnv.relay.services.devices.list().map((d: { name: string }) => d.name);
  expect(onRelay).toEqual(['Renamed Phone']);
  await page.reload();
  await expect(page.getByTestId('this-device-name')).toHaveText('Renamed Phone');
});

test('APP-11: unpairing this device from Settings revokes it on the relay and shows Pair', async ({ paired: page, relayEnv }) => {
  await page.getByTestId('nav-settings').click();
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByTestId('revoke-self').click();
  await expect(page).toHaveURL(/\/pair$/);
  await expect(page.getByTestId('pair-form')).toBeVisible();
  expect(relayEnv.relay.services.devices.list()).toEqual([]);
});

test('APP-11: other paired devices are listed and can be revoked from Settings', async ({ paired: page, relayEnv }) => {
  const tablet = await pairDevice(relayEnv.relay, 'Kitchen Tablet');
  await page.getByTestId('nav-settings').click();
  const row = page.getByTestId('device-row').filter({ hasText: 'Kitchen Tablet' });
  await expect(row).toBeVisible();
  page.once('dialog', (dialog) => void dialog.accept());
  await row.getByRole('button', { name: 'Revoke Kitchen Tablet' }).click();
  await expect(row).toHaveCount(0);
  expect(relayEnv.relay.services.devices.list().map((d) => d.id)).not.toContain(tablet.id);
  await expect(page.getByTestId('this-device-name')).toHaveText('E2E Phone');
});

test('OWNER-1: after the owner is revoked no phone becomes the owner, and Settings says how to name one at the machine', async ({ page, relayEnv }) => {
  const owner = await pairDevice(relayEnv.relay, 'Owner Phone');
  await pairThroughScreen(page, relayEnv, 'Second Phone');
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('device-row').filter({ hasText: 'Owner Phone' })).toBeVisible();
  await expect(page.getByTestId('no-owner')).toHaveCount(0);
  relayEnv.relay.services.devices.revoke(owner.id); // as `commandr devices revoke` does (OWNER-3)
  await page.reload();
  await expect(page.getByTestId('device-row')).toHaveCount(0);
  await expect(page.getByTestId('no-owner')).toHaveText(/No device is the owner.*commandr devices owner <id>.*relay's machine/);
  const me = relayEnv.relay.services.devices.list()[0]!;
  expect(relayEnv.relay.services.devices.isOwner(me.id)).toBe(false);
  relayEnv.relay.services.devices.markOwner(me.id); // `commandr devices owner <id>` (OWNER-2)
  await page.reload();
  await expect(page.getByTestId('this-device-name')).toHaveText('Second Phone');
  await expect(page.getByTestId('no-owner')).toHaveCount(0);
});

test('PUSH-6: while Notify this device is off, what to notify about and quiet hours are dimmed and locked, with a line saying when they apply', async ({ paired: page }) => {
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('notifications-toggle')).not.toBeChecked();
  await expect(page.getByTestId('notification-prefs-off')).toHaveText('These apply once notifications are on for this device.');
  for (const kind of ['approval_requested', 'council_verdict', 'task_done', 'commander_waiting', 'permission_request']) {
    await expect(page.getByTestId(`notify-${kind}`)).toBeChecked(); // the preference is kept…
    await expect(page.getByTestId(`notify-${kind}`)).toBeDisabled(); // …but cannot be changed, and does not look on
  }
  await expect(page.getByTestId('quiet-toggle')).toBeDisabled();
  const look = await page.getByTestId('notify-approval_requested').evaluate((el) => {
    const probe = document.createElement('span');
    probe.style.color = 'var(--accent)';
    document.body.append(probe);
    const accent = getComputedStyle(probe).color;
    probe.remove();
    return { track: getComputedStyle(el).backgroundColor, opacity: Number(getComputedStyle(el).opacity), accent };
  });
  expect(look.track).not.toBe(look.accent);
  expect(look.opacity).toBeLessThan(1);
});

test.describe('with no service worker', () => {
  test.use({ serviceWorkers: 'block' });
  test('PUSH-6: when the app\'s worker never starts, Notifications says so and how to retry, instead of "Checking…" for ever', async ({ paired: page }) => {
    await page.getByTestId('nav-settings').click();
    await expect(page.getByTestId('notifications-unavailable')).toHaveText(/background worker is not running here.*Reload the page to try again\./);
    await expect(page.getByTestId('notifications-checking')).toHaveCount(0);
  });
});

test('ROOM-9: in a browser with no push service, turning notifications on ends with the switch off and locked and one sentence saying why', async ({ paired: page, context, relayEnv }) => {
  // Chromium here has no push service: subscribing fails as it does on a de-Googled browser.
  await context.grantPermissions(['notifications'], { origin: relayEnv.url });
  await page.getByTestId('nav-settings').click();
  const toggle = page.getByTestId('notifications-toggle');
  await expect(toggle).toBeEnabled({ timeout: 20_000 });
  await toggle.click();
  await expect(page.getByTestId('notifications-no-service')).toHaveText('This browser has no push service to deliver notifications, so this device cannot get them here.', { timeout: 30_000 });
  await expect(toggle).not.toBeChecked();
  await expect(toggle).toBeDisabled();
  await expect(toggle).toHaveAccessibleDescription(/no push service/);
  await expect(page.getByTestId('notifications-message')).toHaveCount(0);
  // Settings again, same page: it says so at once.
  await page.getByTestId('nav-inbox').click();
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('notifications-no-service')).toBeVisible();
});
