// Pairing through the real Pair screen against the real relay.
import { test, expect, pairThroughScreen } from './fixtures';

test('APP-1: an unpaired visitor sees only Pair; pairing with the link code lands on a live Inbox', async ({ page, relayEnv }) => {
  await page.goto(`${relayEnv.url}/`);
  await expect(page).toHaveURL(/\/pair$/);
  await expect(page.getByTestId('pair-form')).toBeVisible();
  await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'unpaired');
  await expect(page.getByTestId('nav-inbox')).toHaveCount(0);

  await pairThroughScreen(page, relayEnv, 'Test Phone');
  await expect(page.getByTestId('nav-inbox')).toBeVisible();
  // The private key is in IndexedDB and cannot be exported.
  const extractable = await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open('commandr');
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    const rec = await new Promise<{ privateKey: CryptoKey; deviceId: string }>((resolve) => {
      const r = db.transaction('keys').objectStore('keys').get('device');
      r.onsuccess = () => resolve(r.result);
    });
    return rec.privateKey.extractable;
  });
  expect(extractable).toBe(false);
});

test('APP-1: a spent or wrong pairing code is explained as a sentence and nothing is stored', async ({ page, relayEnv }) => {
  await page.goto(`${relayEnv.url}/pair#code=${'x'.repeat(43)}`);
  await page.getByTestId('pair-name').fill('Stranger');
  await page.getByTestId('pair-submit').click();
  await expect(page.getByTestId('pair-error')).toContainText('pairing code is unknown, expired or already used');
  await page.goto(`${relayEnv.url}/`);
  await expect(page).toHaveURL(/\/pair$/);
});

test('APP-2: a device revoked on the relay drops to the Pair screen and stops reconnecting', async ({ paired: page, relayEnv }) => {
  const [device] = relayEnv.relay.services.devices.list();
  relayEnv.relay.services.devices.revoke(device!.id);
  await expect(page).toHaveURL(/\/pair$/);
  await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'unpaired');
  await expect(page.getByTestId('pair-form')).toBeVisible();
  await expect(page.getByTestId('pair-dropped')).toContainText('not paired with the relay (or was revoked)');
  // The stored key is gone: a reload stays on Pair.
  await page.goto(`${relayEnv.url}/`);
  await expect(page).toHaveURL(/\/pair$/);
});
