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
