// Attaching a photo to a note from the phone (PHOTO-1, PHOTO-6): a real image file with EXIF
// is picked in the note sheet, the browser re-encodes it, the relay keeps it beside the note,
// and the task screen shows the note with its photo (never the relay's path) and the timeline entry.
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import sharp from 'sharp';
import { test, expect } from './fixtures';

const SECRET = 'GPS-SECRET-51.5007N';

async function photoFile(name: string, width: number, height: number): Promise<string> {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'photo-e2e-')), name);
  writeFileSync(file, await sharp({ create: { width, height, channels: 3, background: { r: 250, g: 160, b: 20 } } })
    .jpeg().withExif({ IFD0: { Copyright: SECRET }, IFD3: { GPSLatitudeRef: 'N' } }).toBuffer());
  return file;
}

test('PHOTO-1 PHOTO-6: a photo picked in the note sheet (camera or gallery) is sent re-encoded, kept beside the note on the bus and shown on the task screen', async ({ paired: page, relayEnv }) => {
  const file = await photoFile('holiday.jpg', 3000, 1500);

  relayEnv.addPacket('T-photo', 'Photo task');
  await expect(page.getByTestId('task-card')).toHaveCount(1);
  const menu = page.getByTestId('task-menu').first();
  if (await menu.count()) await menu.click(); // the note may sit in the card's menu
  await page.getByTestId('task-note').first().click();

  const input = page.getByTestId('note-photo-input');
  await expect(input).toHaveAttribute('accept', 'image/*');
  expect(await input.getAttribute('capture')).toBeNull(); // no capture: the phone offers camera and gallery
  await expect(page.getByTestId('note-photo-add')).toHaveText('Add photo');
  await input.setInputFiles(file);
  await expect(page.getByTestId('note-photo-preview')).toBeVisible();
  await page.getByTestId('note-body').fill('The button on this screen is cut off');
  await page.getByTestId('note-send').click();
  await expect(page.getByTestId('note-sheet')).toHaveCount(0);

  // On the bus: the note and, beside it, the photo under the relay's own name.
  await expect.poll(() => relayEnv.annotationFiles('T-photo').length).toBe(2);
  const names = relayEnv.annotationFiles('T-photo').sort();
  const photo = names.find((n) => /^[0-9a-f]{64}\.jpg$/.test(n));
  expect(photo, names.join(', ')).toBeDefined();
  const kept = readFileSync(path.join(relayEnv.bus, 'annotations', 'T-photo', photo!));
  expect(kept.toString('latin1')).not.toContain(SECRET);
  const meta = await sharp(kept).metadata();
  expect([meta.format, Math.max(meta.width!, meta.height!), meta.exif]).toEqual(['jpeg', 2048, undefined]); // scaled to 2048 px, no EXIF
  const note = JSON.parse(readFileSync(path.join(relayEnv.bus, 'annotations', 'T-photo', names.find((n) => n.endsWith('.json'))!), 'utf8'));
  expect(note.body).toBe(`The button on this screen is cut off\n\nPhoto attached: ${path.join(relayEnv.bus, 'annotations', 'T-photo', photo!)}`);
  expect(relayEnv.events().some((e) => e.event === 'task_annotation' && e.task === 'T-photo')).toBe(true);

  // On the task screen: the note with "Photo attached" (no machine path) and its timeline entry.
  await page.getByTestId('task-card').first().click();
  const shown = page.getByTestId('annotation');
  await expect(shown).toContainText('The button on this screen is cut off');
  await expect(shown.getByTestId('note-photo-attached')).toHaveText(/Photo attached/);
  await expect(shown).not.toContainText('/annotations/');
  await expect(page.getByTestId('timeline-item').filter({ hasText: 'Note from' })).toHaveCount(1);
});

test('PHOTO-1: a file that is not a picture is refused in the sheet with a sentence, and nothing is sent', async ({ paired: page, relayEnv }) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'photo-e2e-'));
  const file = path.join(dir, 'invoice.jpg');
  writeFileSync(file, '%PDF-1.7\n1 0 obj <<>> endobj\n');
  relayEnv.addPacket('T-nopic', 'Not a picture');
  await expect(page.getByTestId('task-card')).toHaveCount(1);
  const menu = page.getByTestId('task-menu').first();
  if (await menu.count()) await menu.click();
  await page.getByTestId('task-note').first().click();
  await page.getByTestId('note-photo-input').setInputFiles(file);
  await expect(page.getByTestId('note-photo-error')).toHaveText('That file is not a picture this browser can open. Choose a photo.');
  await expect(page.getByTestId('note-photo-preview')).toHaveCount(0);
  await expect(page.getByTestId('note-send')).toBeDisabled();
  expect(relayEnv.annotationFiles('T-nopic')).toEqual([]);
});

test.describe('a commander message', () => {
  const saved = process.env.COMMANDR_AGENT_ADAPTER;
  test.beforeEach(({ relayEnv }) => {
    cpSync(path.resolve(__dirname, '..', 'test', 'stand-ins', 'fake-adapter'), path.join(relayEnv.relay.dataDir, 'adapters', 'fake'), { recursive: true });
    process.env.COMMANDR_AGENT_ADAPTER = 'fake';
    process.env.FAKE_ADAPTER_HOME = relayEnv.fakeAdapterHome;
  });
  test.afterEach(() => {
    if (saved === undefined) delete process.env.COMMANDR_AGENT_ADAPTER;
    else process.env.COMMANDR_AGENT_ADAPTER = saved;
    delete process.env.FAKE_ADAPTER_HOME;
  });

  test('PHOTO-1 PHOTO-7: a photo added in the commander composer is kept in the commander\'s photos/ and its turn prompt names it', async ({ paired: page, relayEnv }) => {
    const file = await photoFile('shelf.jpg', 800, 600);
    await page.getByTestId('nav-commanders').click();
    await page.getByTestId('cmdr-new').click();
    await page.getByTestId('cmdr-name').fill('Photo keeper');
    await page.getByTestId('cmdr-start').click();
    await expect(page).toHaveURL(/\/commander\?id=c-/);
    const id = new URL(page.url()).searchParams.get('id')!;
    await expect(page.getByTestId('cmdr-status')).toHaveText(/idle|waiting for you/);
    await page.getByTestId('cmdr-photo-input').setInputFiles(file);
    await expect(page.getByTestId('cmdr-photo-preview')).toBeVisible();
    await page.getByTestId('cmdr-message').fill('What is on this shelf?');
    await page.getByTestId('cmdr-send').click();
    await expect(page.getByTestId('cmdr-photo-preview')).toHaveCount(0); // sent: the composer is empty again

    const dir = path.join(relayEnv.relay.dataDir, 'commanders', id, 'photos');
    await expect.poll(() => { try { return readdirSync(dir); } catch { return []; } }).toHaveLength(1);
    const name = readdirSync(dir)[0]!;
    expect(name).toMatch(/^[0-9a-f]{64}\.jpg$/);
    expect(readFileSync(path.join(dir, name)).toString('latin1')).not.toContain(SECRET);
    // The stand-in agent echoes its prompt: the turn carried the photo's absolute path.
    await expect(page.getByTestId('commander')).toContainText(`echo: Photo attached: ${path.join(dir, name)}`);
    // The person's own bubble says so without the relay's path (PHOTO-6).
    const mine = page.getByTestId('chat-person').filter({ hasText: 'What is on this shelf?' });
    await expect(mine.getByTestId('chat-photo-attached')).toHaveAttribute('data-photo', name);
    await expect(mine).not.toContainText(dir);
  });
});
