// Voice notes end to end: dictation through Web Speech (replaced by an init
// script: headless Chromium's fails at once), recording through the fake
// microphone to the relay's transcriber, and the plain "not available" state.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launchOptions } from './browsers';
import { test, expect } from './fixtures';
import { openTask, requestApproval, startTask } from './task-setup';
import { FAKE_AUDIO, FAKE_SPEECH, NO_SPEECH, standInTranscriber } from './voice-setup';

test.use({
  permissions: ['microphone'],
  launchOptions: launchOptions(['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${FAKE_AUDIO}`]),
});

let scratch: string;
test.beforeEach(() => { scratch = mkdtempSync(path.join(tmpdir(), 'commandr-voice-')); });
test.afterEach(() => {
  delete process.env.COMMANDR_TRANSCRIBE_CMD;
  rmSync(scratch, { recursive: true, force: true });
});

test('VOICE-1: dictation shows the live transcript in the box, the person edits it, and the note lands on the bus', async ({ paired: page, relayEnv }) => {
  await page.addInitScript(FAKE_SPEECH);
  const task = startTask(relayEnv, 'V-1', 'Voice');
  requestApproval(relayEnv, task, { 'src/v.js': 'v();\n' });
  await openTask(page, relayEnv, task);
  await page.getByTestId('finish-more-toggle').click(); // Add note is under More (ROOM-1)
  await page.getByTestId('annotate').click();
  const talk = page.getByTestId('voice-talk');
  await expect(talk).toHaveAttribute('data-mode', 'speech');
  const box = await talk.boundingBox();
  await page.mouse.move(box!.x + box!.width / 2, box!.y + box!.height / 2);
  await page.mouse.down();
  await expect(talk).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('annotate-body')).toHaveValue('check the null case');
  await page.mouse.up();
  await expect(talk).toHaveAttribute('aria-pressed', 'false');
  await page.getByTestId('annotate-body').fill('check the null case in v()');
  await page.getByTestId('annotate-send').click();
  await expect(page.getByTestId('note-done')).toBeVisible();
  await expect(page.getByTestId('annotation')).toContainText('check the null case in v()');
  expect(relayEnv.events().find((e) => e.event === 'task_annotation' && e.task === 'V-1')).toMatchObject({ anchor: 'general' });
});

test('VOICE-2: without Web Speech, hold-to-record uploads real audio to the relay transcriber; the text is checked before sending', async ({ paired: page, relayEnv }) => {
  process.env.COMMANDR_TRANSCRIBE_CMD = standInTranscriber(scratch);
  await page.addInitScript(NO_SPEECH);
  const task = startTask(relayEnv, 'V-2', 'Recorded');
  requestApproval(relayEnv, task, { 'src/r.js': 'r();\n' });
  await openTask(page, relayEnv, task);
  await page.getByTestId('finish-more-toggle').click(); // Add note is under More (ROOM-1)
  await page.getByTestId('annotate').click();
  const talk = page.getByTestId('voice-talk');
  await expect(talk).toHaveAttribute('data-mode', 'record');
  const box = await talk.boundingBox();
  await page.mouse.move(box!.x + box!.width / 2, box!.y + box!.height / 2);
  await page.mouse.down();
  await expect(talk).toContainText('Recording');
  // Release once the recorder has handed over a few pieces of audio from the fake microphone.
  await expect.poll(async () => Number(await talk.getAttribute('data-pieces'))).toBeGreaterThanOrEqual(3);
  await page.mouse.up();
  await expect(page.getByTestId('annotate-body')).toHaveValue('please rename the helper');
  await page.getByTestId('annotate-send').click();
  await expect(page.getByTestId('note-done')).toBeVisible();
  await expect(page.getByTestId('annotation')).toContainText('please rename the helper');
  expect(relayEnv.annotationFiles('V-2')).toHaveLength(1);
});

test('VOICE-3: with no Web Speech and no transcriber the sheet says so plainly and shows no record button', async ({ paired: page, relayEnv }) => {
  await page.addInitScript(NO_SPEECH);
  const task = startTask(relayEnv, 'V-3', 'Typed');
  requestApproval(relayEnv, task, { 'src/t.js': 't();\n' });
  await openTask(page, relayEnv, task);
  await page.getByTestId('finish-more-toggle').click(); // Add note is under More (ROOM-1)
  await page.getByTestId('annotate').click();
  await expect(page.getByTestId('voice-status')).toContainText('Voice input is not available here');
  await expect(page.getByTestId('voice-talk')).toHaveCount(0);
});
