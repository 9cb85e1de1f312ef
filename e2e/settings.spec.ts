// Settings shows this device and renames it on the relay.
import { test, expect } from './fixtures';

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
