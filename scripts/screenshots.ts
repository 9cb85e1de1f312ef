// `npx tsx scripts/screenshots.ts`: regenerates docs/screenshots/{inbox,task,commanders,settings}.png
// on the phone profile (Pixel 7) against a real relay serving its demo workspace.
// Needs the built app: node scripts/build-app.mjs.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { startAppSession } from './app-session';

const OUT = path.resolve(__dirname, '..', 'docs', 'screenshots');

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const session = await startAppSession();
  const { page, relay } = session;
  try {
    const shot = (name: string) => page.screenshot({ path: path.join(OUT, `${name}.png`), animations: 'disabled' });

    await page.getByTestId('task-card').first().waitFor();
    await shot('inbox');

    const review = page.getByTestId('group-approval').getByTestId('task-card').first();
    const repo = await review.getAttribute('data-repo');
    const id = await review.getAttribute('data-task');
    await page.goto(`${relay.url}/task?repo=${repo}&id=${id}`);
    await page.getByTestId('task-screen').waitFor();
    const digest = page.getByTestId('diff-digest');
    await digest.waitFor({ timeout: 15_000 }).catch(() => undefined); // shot anyway if the diff is slow
    // Show the diff under review (the header and brief are above it).
    await digest.evaluate((el) => el.scrollIntoView({ block: 'start' })).catch(() => undefined);
    await page.evaluate(() => scrollBy(0, -80)); // clear of the sticky header
    await shot('task');

    await page.goto(`${relay.url}/commanders`);
    await page.getByTestId('cmdr-card').first().waitFor({ timeout: 10_000 }).catch(() => undefined);
    await shot('commanders');

    await page.goto(`${relay.url}/settings`);
    await page.getByTestId('this-device-name').waitFor();
    await shot('settings');
    console.log(`screenshots written to ${path.relative(process.cwd(), OUT)}/`);
  } finally {
    await session.close();
  }
}

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});
