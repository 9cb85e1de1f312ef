// Machines in the app (FLEETUI-n), on a real phone profile: a real home relay (the
// fixture's) and real member relays joined to it with one-time codes.
import { cpSync, existsSync } from 'node:fs';
import path from 'node:path';
import { version } from '../package.json';
import { homeName } from '../relay/fleet/device-frames';
import { listMachines } from '../relay/fleet/machines';
import { startMember, type Member } from '../scripts/fleet-member';
import { pairDevice } from '../test/helpers/device';
import { test, expect, pairThroughScreen } from './fixtures';

const members: Member[] = [];
test.afterEach(async () => {
  for (const m of members.splice(0)) await m.close();
});

async function member(...args: Parameters<typeof startMember>): Promise<Member> {
  const m = await startMember(...args);
  members.push(m);
  return m;
}

const card = (page: import('@playwright/test').Page, id: string) => page.locator(`[data-testid="task-card"][data-task="${id}"]`);

test('FLEETUI-1 FLEETUI-2: tasks are labelled with machine and repo; an offline member keeps its tasks, marked, with its actions off', async ({ paired: page, relayEnv }) => {
  relayEnv.addPacket('HOME-1', 'Fix the home page');
  await expect(card(page, 'HOME-1')).toBeVisible();
  // Alone, the home's tasks carry no machine label.
  await expect(card(page, 'HOME-1').getByTestId('machine-label')).toHaveCount(0);
  const laptop = await member(relayEnv.relay, 'laptop', 'api', [['API-1', 'Add the health endpoint']]);
  await expect(card(page, 'API-1').getByTestId('machine-label')).toHaveText('laptop · api');
  // With a member, the home's own tasks say which machine they are on too — never a hex id.
  await expect(card(page, 'HOME-1').getByTestId('machine-label')).toHaveText(`${homeName()} · repo`);
  await expect(card(page, 'API-1').getByTestId('machine-offline')).toHaveCount(0);

  await card(page, 'API-1').click();
  await expect(page.getByTestId('task-header').getByTestId('machine-label')).toHaveText('laptop · api');
  await expect(page.getByTestId('annotate')).toBeEnabled();
  await expect(page.getByTestId('run-agent')).toBeEnabled();
  await expect(page.getByTestId('machine-offline-notice')).toHaveCount(0);

  // The member stops: its task stays, marked offline with when it was last seen, and its actions are off with that reason.
  await laptop.stop();
  const notice = page.getByTestId('machine-offline-notice');
  await expect(notice).toContainText(/^laptop offline · last seen (?:[A-Z][a-z]{2} \d{1,2}, )?\d{1,2}:\d\d(?:\s[AP]M)?\. Actions on its tasks are off until it is back\.$/);
  // API-1 is in the inbox: its bar offers Run agent and Annotate (TSTATE-4), both off with the reason.
  await expect(page.getByTestId('task-actions')).toHaveAttribute('data-stage', 'inbox');
  for (const action of ['run-agent', 'annotate']) {
    await expect(page.getByTestId(action)).toBeDisabled();
    await expect(page.getByTestId(action)).toHaveAttribute('title', /^laptop offline · last seen (?:[A-Z][a-z]{2} \d{1,2}, )?\d{1,2}:\d\d(?:\s[AP]M)?$/);
  }
  for (const action of ['run-council', 'approve', 'deny']) await expect(page.getByTestId(action)).toHaveCount(0);
  await page.getByTestId('nav-inbox').click();
  await expect(card(page, 'API-1')).toBeVisible();
  await expect(card(page, 'API-1').getByTestId('machine-offline')).toHaveText(/^laptop offline · last seen (?:[A-Z][a-z]{2} \d{1,2}, )?\d{1,2}:\d\d(?:\s[AP]M)?$/);
  await expect(card(page, 'HOME-1').getByTestId('machine-offline')).toHaveCount(0);
  // After a reload (from the saved state, then the relay's replay) it is still there and still marked.
  await page.reload();
  await expect(card(page, 'API-1').getByTestId('machine-offline')).toHaveText(/^laptop offline/);
});

test('FLEETUI-3 FLEETUI-5: Settings → Machines shows each machine with state, last seen and version; an owner removes one', async ({ paired: page, relayEnv }) => {
  await member(relayEnv.relay, 'laptop', 'api', [['API-1', 'Add the health endpoint']]);
  const buildbox = await member(relayEnv.relay, 'buildbox', 'web', [['WEB-1', 'Cache the landing page']]);
  await expect(card(page, 'WEB-1')).toBeVisible();
  await expect(card(page, 'API-1')).toBeVisible();
  await buildbox.stop();
  await expect(card(page, 'WEB-1').getByTestId('machine-offline')).toBeVisible();

  await page.getByTestId('nav-settings').click();
  const home = page.getByTestId('machine-home');
  await expect(home).toContainText(homeName());
  await expect(home).toContainText(`This relay (home)`);
  await expect(home).toContainText(`Commandr ${version}`);
  const row = (name: string) => page.getByTestId('machine-row').filter({ hasText: name });
  await expect(row('laptop').getByTestId('machine-state')).toHaveText('Online');
  await expect(row('laptop').getByTestId('machine-detail')).toHaveText(new RegExp(`^linked since (?:[A-Z][a-z]{2} \\d{1,2}, )?\\d{1,2}:\\d\\d(?:\\s[AP]M)? · Commandr ${version.replace(/\./g, '\\.')} · 1 repository$`));
  await expect(row('buildbox').getByTestId('machine-state')).toHaveText('Offline');
  await expect(row('buildbox').getByTestId('machine-detail')).toHaveText(/^last seen (?:[A-Z][a-z]{2} \d{1,2}, )?\d{1,2}:\d\d(?:\s[AP]M)? · Commandr .+ · 1 repository$/);

  // Remove asks first, then the relay forgets the machine and every screen drops it.
  await row('buildbox').getByRole('button', { name: 'Remove buildbox' }).click();
  await page.getByTestId('machine-remove-confirm').click();
  await expect(page.getByTestId('machines-message')).toHaveText('Removed buildbox. It needs a new join code to come back.');
  await expect(row('buildbox')).toHaveCount(0);
  await expect(row('laptop')).toHaveCount(1);
  expect(listMachines(relayEnv.relay.dataDir).map((m) => m.name)).toEqual(['laptop']);
  await page.getByTestId('nav-inbox').click();
  await expect(card(page, 'API-1')).toBeVisible();
  await expect(card(page, 'WEB-1')).toHaveCount(0);
});

test('FLEETUI-3 FLEETUI-5: a device that is not an owner sees the machines but cannot remove one', async ({ page, relayEnv }) => {
  await pairDevice(relayEnv.relay, 'the owner’s phone'); // paired first: the owner (OWNER-1)
  await pairThroughScreen(page, relayEnv, 'Second Phone');
  await member(relayEnv.relay, 'laptop', 'api', [['API-1', 'Add the health endpoint']]);
  await expect(card(page, 'API-1')).toBeVisible();
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('machine-row').filter({ hasText: 'laptop' }).getByTestId('machine-state')).toHaveText('Online');
  await expect(page.getByRole('button', { name: 'Remove laptop' })).toBeDisabled();
  await expect(page.getByTestId('machines-not-owner')).toContainText('Only an owner device can remove a machine');
  expect(listMachines(relayEnv.relay.dataDir).map((m) => m.name)).toEqual(['laptop']);
});

test('FLEETUI-6: the Start sheet chooses the machine; a commander started on a member with a first message runs there, labelled with it', async ({ paired: page, relayEnv }) => {
  // The member relay runs in this process: it uses the stand-in agent adapter from its own data dir.
  const saved = { adapter: process.env.COMMANDR_AGENT_ADAPTER, home: process.env.FAKE_ADAPTER_HOME };
  process.env.COMMANDR_AGENT_ADAPTER = 'fake';
  process.env.FAKE_ADAPTER_HOME = relayEnv.fakeAdapterHome; // outside the data dir, which a sandboxed run sees empty
  try {
    // Alone, the sheet has no machine choice.
    await page.getByTestId('nav-commanders').click();
    await page.getByTestId('cmdr-new').click();
    await expect(page.getByTestId('ref-root')).toHaveValue(relayEnv.repo);
    await expect(page.getByTestId('cmdr-machine')).toHaveCount(0);
    await page.getByRole('button', { name: 'Cancel' }).click();

    const laptop = await member(relayEnv.relay, 'laptop', 'api', [['API-1', 'Add the health endpoint']]);
    cpSync(path.resolve(__dirname, '..', 'test', 'stand-ins', 'fake-adapter'), path.join(laptop.relay.dataDir, 'adapters', 'fake'), { recursive: true });
    const laptopRepo = path.join(path.dirname(laptop.relay.dataDir), 'api');
    const buildbox = await member(relayEnv.relay, 'buildbox', 'web', [['WEB-1', 'Cache the landing page']]);
    await buildbox.stop();

    await page.getByTestId('cmdr-new').click();
    const choice = page.getByTestId('cmdr-machine');
    // The home by its name, first and chosen; each member by name; an offline one shown but off.
    await expect(choice).toHaveValue('');
    await expect(choice.locator('option')).toHaveText([homeName(), 'buildbox · offline', 'laptop']);
    await expect(choice.locator('option', { hasText: 'buildbox' })).toBeDisabled();
    await expect(choice.locator('option', { hasText: 'laptop' })).toBeEnabled();
    await expect(page.getByTestId('ref-root')).toHaveValue(relayEnv.repo);

    // On the member, the home's folders are not offered: the person types a path on that machine.
    await choice.selectOption({ label: 'laptop' });
    await expect(page.getByTestId('ref-root')).toHaveCount(0);
    await expect(page.getByTestId('cmdr-path-hint')).toContainText('Type a full path on laptop');
    await page.getByTestId('cmdr-name').fill('API keeper');
    await expect(page.getByTestId('cmdr-start')).toBeDisabled();
    await page.getByTestId('cmdr-path').fill(laptopRepo);
    await page.getByTestId('cmdr-first-message').fill('Summarise the health endpoint work.');
    await page.screenshot({ path: test.info().outputPath('start-sheet-machine.png') });
    await page.getByTestId('cmdr-start').click();

    // The commander's id carries the member's prefix: it was created on the member, and its state and output come from there.
    const prefix = laptop.machine.slice(2, 10);
    await expect(page).toHaveURL(new RegExp(`/commander\\?id=${prefix}\\.c-[a-z0-9]{12}$`));
    const id = new URL(page.url()).searchParams.get('id')!;
    // The folder by its name, the path on that machine in its tooltip (CHAT-5).
    await expect(page.getByTestId('cmdr-references').locator('li')).toHaveAttribute('title', laptopRepo);
    await expect(page.getByTestId('cmdr-references')).toHaveText(path.basename(laptopRepo));
    await expect(page.getByTestId('cmdr-status')).toHaveText(/idle|waiting for you/);
    await expect(page.getByTestId('cmdr-output')).toContainText('Summarise the health endpoint work.');
    const own = id.slice(prefix.length + 1);
    expect(existsSync(path.join(laptop.relay.dataDir, 'commanders', own, 'commander.json'))).toBe(true);
    expect(existsSync(path.join(relayEnv.relay.dataDir, 'commanders', own))).toBe(false);

    await page.getByTestId('nav-commanders').click();
    const listed = page.locator(`[data-testid="cmdr-card"][data-id="${id}"]`);
    await expect(listed.getByTestId('machine-label')).toHaveText('laptop');

    // A chosen member that goes offline while the sheet is open turns Start off with the reason, never falls back to the home.
    await page.getByTestId('cmdr-new').click();
    await page.getByTestId('cmdr-machine').selectOption({ label: 'laptop' });
    await page.getByTestId('cmdr-name').fill('Too late');
    await page.getByTestId('cmdr-path').fill(laptopRepo);
    await expect(page.getByTestId('cmdr-start')).toBeEnabled();
    await laptop.stop();
    await expect(page.getByTestId('cmdr-machine-problem')).toHaveText('laptop is offline. Choose another machine or wait until it is back.');
    await expect(page.getByTestId('cmdr-start')).toBeDisabled();
    await expect(page.getByTestId('cmdr-path')).toHaveValue(laptopRepo);
  } finally {
    if (saved.adapter === undefined) delete process.env.COMMANDR_AGENT_ADAPTER;
    else process.env.COMMANDR_AGENT_ADAPTER = saved.adapter;
    if (saved.home === undefined) delete process.env.FAKE_ADAPTER_HOME;
    else process.env.FAKE_ADAPTER_HOME = saved.home;
  }
});
