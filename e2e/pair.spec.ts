// Pairing through the real Pair screen against the real relay.
import type { Page } from '@playwright/test';
import { test, expect, pairThroughScreen } from './fixtures';

/** Opens Pair with every script of the build held back (the form is the page's own HTML, FIRST-1); the call releases them. */
async function openPairWithScriptsHeld(page: Page, url: string): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/_next\/static\/.*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`${url}/pair`, { waitUntil: 'commit' });
  return release;
}

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
  // The command is shown as code, not between backticks.
  await expect(page.getByTestId('pair-error').locator('code')).toHaveText('commandr pair');
  await expect(page.getByTestId('pair-error')).not.toContainText('`');
  await page.goto(`${relayEnv.url}/`);
  await expect(page).toHaveURL(/\/pair$/);
});

test('APP-1: the whole pairing link pasted into the code field is cut to its code and pairs, whether pasted before or after the app has started', async ({ page, relayEnv }) => {
  // Pasted into the page's own HTML before any script runs (FIRST-1): cut once the app starts.
  const release = await openPairWithScriptsHeld(page, relayEnv.url);
  const early = relayEnv.pairingCode();
  await page.getByTestId('pair-code').fill(`  ${relayEnv.url}/pair#code=${early}\n`);
  release();
  await expect(page.getByTestId('pair-name')).toHaveAttribute('placeholder', /\S/); // the app has started
  await expect(page.getByTestId('pair-code')).toHaveValue(early);
  // Pasted while the app runs.
  const code = relayEnv.pairingCode();
  await page.getByTestId('pair-code').fill(`  ${relayEnv.url}/pair#code=${code}\n`);
  await expect(page.getByTestId('pair-code')).toHaveValue(code);
  await page.getByTestId('pair-name').fill('Pasted Link Phone');
  await page.getByTestId('pair-submit').click();
  await expect(page).toHaveURL(`${relayEnv.url}/`);
  expect(relayEnv.relay.services.devices.list().map((d: { name: string }) => d.name)).toEqual(['Pasted Link Phone']);
});

test('APP-1: what cannot be a pairing code (wrong length, stray characters) is explained on the phone, without a request', async ({ page, relayEnv }) => {
  const posts: string[] = [];
  page.on('request', (request) => { if (request.url().includes('/api/pair')) posts.push(request.url()); });
  await page.goto(`${relayEnv.url}/pair`);
  await page.getByTestId('pair-name').fill('Typo Phone');
  const code = relayEnv.pairingCode();
  for (const typed of [code.slice(0, 12), `${code}x`, `${code.slice(0, 42)}!`, `${relayEnv.url}/pair?code=${code.slice(0, 30)}`]) {
    await page.getByTestId('pair-code').fill(typed);
    await page.getByTestId('pair-submit').click();
    await expect(page.getByTestId('pair-error')).toContainText('That is not a pairing code: it is the 43 characters after code= in the link');
    await expect(page.getByTestId('pair-error').locator('code')).toHaveText('commandr pair');
    await expect(page.getByTestId('pair-error')).not.toContainText('`');
  }
  expect(posts).toEqual([]);
  // The real code still pairs afterwards: nothing was spent.
  await page.getByTestId('pair-code').fill(code);
  await page.getByTestId('pair-submit').click();
  await expect(page).toHaveURL(`${relayEnv.url}/`);
});

test('APP-1: a code and name typed before the app has started are kept; with no name typed the device takes the guessed one', async ({ page, relayEnv }) => {
  // Every script of the build held back: the form is the page's own HTML (FIRST-1).
  const release = await openPairWithScriptsHeld(page, relayEnv.url);
  await page.getByTestId('pair-code').fill(relayEnv.pairingCode());
  await page.getByTestId('pair-name').fill('Typed Early');
  await expect(page.getByTestId('pair-submit')).toBeDisabled(); // nothing runs yet
  release();
  await expect(page.getByTestId('pair-name')).toHaveAttribute('placeholder', /\S/); // the app has started
  await expect(page.getByTestId('pair-name')).toHaveValue('Typed Early');
  await page.getByTestId('pair-submit').click();
  await expect(page).toHaveURL(`${relayEnv.url}/`);
  expect(relayEnv.relay.services.devices.list().map((d: { name: string }) => d.name)).toEqual(['Typed Early']);

  // A second browser, no name typed: the placeholder's guess is the name it pairs with.
  const other = await page.context().browser()!.newPage({ userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8 Pro) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36' });
  try {
    await other.goto(`${relayEnv.url}/pair#code=${relayEnv.pairingCode()}`);
    await expect(other.getByTestId('pair-name')).toHaveAttribute('placeholder', 'Pixel 8 Pro');
    await expect(other.getByTestId('pair-name')).toHaveValue('');
    await other.getByTestId('pair-submit').click();
    await expect(other).toHaveURL(`${relayEnv.url}/`);
  } finally {
    await other.close();
  }
  expect(relayEnv.relay.services.devices.list().map((d: { name: string }) => d.name).sort()).toEqual(['Pixel 8 Pro', 'Typed Early']);
});

test('APP-1: a paired device that opens a pairing link is told it is paired, as which device, and pairs nothing again; the way on is a button in view even at 200 % text', async ({ paired: page, relayEnv }) => {
  await page.setViewportSize({ width: 412, height: 915 });
  const code = relayEnv.pairingCode();
  await page.goto(`${relayEnv.url}/pair#code=${code}`);
  await expect(page.getByTestId('pair-already')).toContainText('This device is already paired as');
  await expect(page.getByTestId('pair-form')).toBeHidden();
  // How to pair is not said to a device that is paired: it would contradict the notice.
  await expect(page.getByTestId('pair-how')).toBeHidden();
  expect(relayEnv.relay.services.devices.list()).toHaveLength(1);
  const open = page.getByTestId('pair-already').getByRole('link', { name: 'Open the Inbox' });
  await page.evaluate(() => { document.documentElement.style.fontSize = '200%'; });
  await expect(open).toBeInViewport({ ratio: 1 });
  expect((await open.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await page.evaluate(() => { document.documentElement.style.fontSize = ''; });
  await open.click();
  await expect(page).toHaveURL(`${relayEnv.url}/`);
  await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'live');
  // Once the relay has revoked it, the same screen pairs it again.
  const [device] = relayEnv.relay.services.devices.list();
  relayEnv.relay.services.devices.revoke(device!.id);
  await expect(page).toHaveURL(/\/pair$/);
  await expect(page.getByTestId('pair-already')).toHaveCount(0);
  await expect(page.getByTestId('pair-form')).toBeVisible();
  await expect(page.getByTestId('pair-how')).toBeVisible();
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

test('QUEUE-1: pairing while the relay is down says the relay could not be reached and nothing was paired, never that it was queued or that the relay failed', async ({ page, relayEnv }) => {
  const unreachable = 'Could not reach the relay, so this device is not paired. Check that the relay is running and that this phone can reach it, then press Pair again.';
  // Page A has loaded the code that pairs (a wrong code tried first); page B has not (it loads when Pair is pressed).
  await page.goto(`${relayEnv.url}/pair#code=${'A'.repeat(43)}`);
  await page.getByTestId('pair-name').fill('Down Phone');
  await page.getByTestId('pair-submit').click();
  await expect(page.getByTestId('pair-error')).toContainText('unknown, expired or already used');
  const other = await page.context().newPage();
  await other.goto(`${relayEnv.url}/pair#code=${relayEnv.pairingCode()}`);
  await other.getByTestId('pair-name').fill('Down Phone 2');
  await page.getByTestId('pair-code').fill(relayEnv.pairingCode());
  await relayEnv.relay.close();
  for (const p of [page, other]) {
    await p.getByTestId('pair-submit').click();
    await expect(p.getByTestId('pair-error')).toHaveText(unreachable);
    await expect(p.getByTestId('pair-submit')).toBeEnabled();
  }
  await page.screenshot({ path: test.info().outputPath('pair-relay-down.png') });
});
