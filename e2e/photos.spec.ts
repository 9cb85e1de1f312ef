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
  const thumb = shown.getByTestId('note-thumb');
  await expect(thumb).toHaveAttribute('data-photo', photo!);
  await expect(thumb).toHaveAttribute('data-state', 'shown');
  await expect(thumb.getByRole('img')).toHaveAttribute('alt', 'Photo attached');
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

/** Opens the note sheet of the first card (the note may sit in the card's menu). */
async function openNoteSheet(page: import('@playwright/test').Page): Promise<void> {
  const menu = page.getByTestId('task-menu').first();
  if (await menu.count()) await menu.click();
  await page.getByTestId('task-note').first().click();
}

/** Every thumbnail shown, in a fixed 72 px box (nothing moves when the picture arrives), with its alt text. */
async function expectThumbs(list: import('@playwright/test').Locator, names: string[]): Promise<void> {
  await expect(list).toHaveCount(names.length);
  for (const [i, name] of names.entries()) {
    const thumb = list.nth(i);
    await expect(thumb).toHaveAttribute('data-photo', name);
    await expect(thumb).toHaveAttribute('data-state', 'shown');
    await expect(thumb.getByRole('img')).toHaveAttribute('alt', `Photo ${i + 1} of ${names.length} attached`);
    const box = await thumb.boundingBox();
    expect([Math.round(box!.width), Math.round(box!.height)]).toEqual([72, 72]);
    // The picture really decoded (an object URL of the bytes the relay served back).
    expect(await thumb.getByRole('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  }
}

test('PHOTO-8 PHOTO-10: two photos attached to a note are kept, and the task screen shows both as thumbnails after a reload; a tap opens one larger', async ({ paired: page, relayEnv }, info) => {
  const first = await photoFile('before.jpg', 1200, 900);
  const second = await photoFile('after.jpg', 640, 960);
  relayEnv.addPacket('T-two', 'Two photos');
  await expect(page.getByTestId('task-card')).toHaveCount(1);
  await openNoteSheet(page);
  await page.getByTestId('note-photo-input').setInputFiles([first, second]);
  await expect(page.getByTestId('note-photo-preview')).toHaveCount(2);
  await expect(page.getByTestId('note-photo-add')).toHaveText('Add another photo');
  await page.getByTestId('note-body').fill('Before and after');
  await page.getByTestId('note-send').click();
  await expect(page.getByTestId('note-sheet')).toHaveCount(0);

  await expect.poll(() => relayEnv.annotationFiles('T-two').length).toBe(3);
  const note = JSON.parse(readFileSync(path.join(relayEnv.bus, 'annotations', 'T-two', relayEnv.annotationFiles('T-two').find((n) => n.endsWith('.json'))!), 'utf8')) as { body: string };
  const names = note.body.split('\n').slice(2).map((l) => path.basename(l));
  expect(names).toHaveLength(2);
  expect(note.body.split('\n').slice(2)).toEqual(names.map((n) => `Photo attached: ${path.join(relayEnv.bus, 'annotations', 'T-two', n)}`));

  await page.getByTestId('task-card').first().click();
  await expect(page).toHaveURL(/\/task\?.*id=T-two/); // on the task screen before reloading it
  await page.reload();
  const shown = page.getByTestId('annotation');
  await expect(shown).toContainText('Before and after');
  await expectThumbs(shown.getByTestId('note-thumb'), names);
  await expect(shown).not.toContainText('Photo attached:');
  await shown.scrollIntoViewIfNeeded();
  if (info.project.name === 'phone') await page.screenshot({ path: info.outputPath('note-thumbnails-phone.png') });

  await shown.getByTestId('note-thumb').nth(1).click();
  const viewer = page.getByTestId('note-thumb-viewer');
  await expect(viewer).toBeVisible();
  await expect(viewer).toHaveAttribute('aria-label', 'Photo 2 of 2, full size');
  const big = viewer.getByTestId('note-thumb-viewer-image');
  await expect(big).toHaveAttribute('alt', 'Photo 2 of 2, full size');
  // Larger than the 72 px thumbnail, once the picture has decoded (until then the image has no height).
  await expect.poll(async () => (await big.boundingBox())?.height ?? 0).toBeGreaterThan(200);
  if (info.project.name === 'phone') await page.screenshot({ path: info.outputPath('photo-viewer-phone.png') });
  await page.keyboard.press('Escape');
  await expect(viewer).toHaveCount(0);
});

test('PHOTO-8: a fifth photo is not taken; the sheet says at most four', async ({ paired: page, relayEnv }) => {
  const files = await Promise.all([1, 2, 3, 4, 5].map((i) => photoFile(`p${i}.jpg`, 200 + i, 150)));
  relayEnv.addPacket('T-five', 'Five photos');
  await expect(page.getByTestId('task-card')).toHaveCount(1);
  await openNoteSheet(page);
  await page.getByTestId('note-photo-input').setInputFiles(files);
  await expect(page.getByTestId('note-photo-preview')).toHaveCount(4);
  await expect(page.getByTestId('note-photo-error')).toHaveText('At most 4 photos. Remove one to add another.');
  await expect(page.getByTestId('note-photo-add')).toHaveCount(0);
  await page.getByTestId('note-photo-remove').first().click();
  await expect(page.getByTestId('note-photo-preview')).toHaveCount(3);
  await expect(page.getByTestId('note-photo-add')).toBeVisible();
  await expect(page.getByTestId('note-photo-error')).toHaveCount(0); // one was removed: "at most four" no longer holds (PHOTO-11)
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
    await expect(mine.getByTestId('chat-thumb')).toHaveAttribute('data-photo', name);
    await expect(mine).not.toContainText(dir);
  });

  test('PHOTO-11: after five photos were picked and the message went with four, the composer no longer says "At most 4 photos"', async ({ paired: page }) => {
    const files = await Promise.all([1, 2, 3, 4, 5].map((i) => photoFile(`c${i}.jpg`, 200 + i, 150)));
    await page.getByTestId('nav-commanders').click();
    await page.getByTestId('cmdr-new').click();
    await page.getByTestId('cmdr-name').fill('Five photos');
    await page.getByTestId('cmdr-start').click();
    await expect(page).toHaveURL(/\/commander\?id=c-/);
    await expect(page.getByTestId('cmdr-status')).toHaveText(/idle|waiting for you/);
    await page.getByTestId('cmdr-photo-input').setInputFiles(files);
    await expect(page.getByTestId('cmdr-photo-preview')).toHaveCount(4);
    await expect(page.getByTestId('cmdr-photo-error')).toHaveText('At most 4 photos. Remove one to add another.');
    await page.getByTestId('cmdr-message').fill('Four of them');
    await page.getByTestId('cmdr-send').click();
    await expect(page.getByTestId('cmdr-photo-preview')).toHaveCount(0);
    await expect(page.getByTestId('cmdr-photo-error')).toHaveCount(0);
  });

  test('PHOTO-8 PHOTO-10: two photos sent to a commander show as thumbnails in the person\'s bubble after a reload', async ({ paired: page, relayEnv }) => {
    const files = [await photoFile('left.jpg', 800, 600), await photoFile('right.jpg', 600, 800)];
    await page.getByTestId('nav-commanders').click();
    await page.getByTestId('cmdr-new').click();
    await page.getByTestId('cmdr-name').fill('Photo pair');
    await page.getByTestId('cmdr-start').click();
    await expect(page).toHaveURL(/\/commander\?id=c-/);
    const id = new URL(page.url()).searchParams.get('id')!;
    await expect(page.getByTestId('cmdr-status')).toHaveText(/idle|waiting for you/);
    await page.getByTestId('cmdr-photo-input').setInputFiles(files);
    await expect(page.getByTestId('cmdr-photo-preview')).toHaveCount(2);
    await page.getByTestId('cmdr-message').fill('Which shelf is tidier?');
    await page.getByTestId('cmdr-send').click();
    await expect(page.getByTestId('cmdr-photo-preview')).toHaveCount(0);
    const dir = path.join(relayEnv.relay.dataDir, 'commanders', id, 'photos');
    await expect.poll(() => { try { return readdirSync(dir).length; } catch { return 0; } }).toBe(2);
    await expect(page.getByTestId('cmdr-status')).toHaveText(/idle|waiting for you/);

    await page.reload();
    const mine = page.getByTestId('chat-person').filter({ hasText: 'Which shelf is tidier?' });
    const thumbs = mine.getByTestId('chat-thumb');
    await expect(thumbs).toHaveCount(2);
    const names = await thumbs.evaluateAll((els) => els.map((e) => e.getAttribute('data-photo')!));
    expect([...names].sort()).toEqual(readdirSync(dir).sort());
    await expectThumbs(thumbs, names);
    await expect(mine).not.toContainText(dir);
    await thumbs.first().click();
    await expect(page.getByTestId('chat-thumb-viewer-image')).toHaveAttribute('alt', 'Photo 1 of 2, full size');
    await page.getByTestId('chat-thumb-viewer-close').click();
    await expect(page.getByTestId('chat-thumb-viewer')).toHaveCount(0);
  });
});
