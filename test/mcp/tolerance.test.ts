// Bus contract v0.5: the tools that predate the new events read a log full of them
// (and of an event type from the future) without complaint or loss.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializeEvent } from '../../bus/event-log';
import { buildInstall, type Install, packet, World } from '../conformance/harness';

let install: Install;
beforeAll(async () => {
  install = await buildInstall();
}, 120_000);
afterAll(() => fs.rmSync(install.root, { recursive: true, force: true }));

const digest = `sha256:${'ab'.repeat(32)}`;
function v05Lines(task: string): string {
  const at = new Date('2026-01-01T00:00:00Z');
  return [
    serializeEvent({ event: 'question_asked', task, question: 'q-0123456789abcdef0123', choices: 2 }, at),
    serializeEvent({ event: 'question_answered', task, question: 'q-0123456789abcdef0123', via: 'voice', by: 'pixel' }, at),
    serializeEvent({ event: 'action_approval_requested', task, request: 'q-0123456789abcdef0124', action: 'deploy to staging' }, at),
    serializeEvent({ event: 'action_approval_decided', task, request: 'q-0123456789abcdef0124', decision: 'denied', by: 'pixel' }, at),
    serializeEvent({ event: 'artifact_emitted', task, artifact: 'a-0123456789abcdef0123', path: 'shot.png', worktree: '/tmp/wt', kind: 'image', bytes: 70, digest }, at),
    `${JSON.stringify({ ts: at.toISOString(), event: 'from_the_future', task, whatever: { nested: true } })}\n`,
  ].join('');
}

describe('bus contract v0.5 and the older tools', () => {
  it('MCP-7: claim, progress, complete and index tolerate the v0.5 events and unknown ones in the log', () => {
    const world = new World(install);
    try {
      world.write('inbox/T-9.md', packet({ id: 'T-9' }));
      fs.writeFileSync(path.join(world.bus, 'events.jsonl'), v05Lines('T-9'));
      const claimed = world.tool('claim');
      expect(claimed.code).toBe(0);
      expect(claimed.stderr).not.toMatch(/warn|skip/i);
      const claimedPath = claimed.stdout.split('\n')[0]!.replace(/^claimed:/, '');
      expect(world.tool('progress', ['T-9', 'halfway there']).code).toBe(0);
      const index = world.tool('index', ['refresh', world.repo]);
      expect(index.code).toBe(0);
      expect(index.stderr).toBe('');
      const folded = JSON.parse(fs.readFileSync(path.join(world.home, '.agents', 'index.json'), 'utf8')) as { tasks: Array<Record<string, unknown>> };
      expect(folded.tasks).toEqual([expect.objectContaining({ id: 'T-9', state: 'claimed', last_note: 'halfway there' })]);
      expect(world.tool('complete', [claimedPath, 'pass']).code).toBe(0);
      const events = world.events();
      expect(events.slice(0, 6).map((e) => e.event)).toEqual([
        'question_asked', 'question_answered', 'action_approval_requested', 'action_approval_decided', 'artifact_emitted', 'from_the_future',
      ]);
      expect(events.slice(6).map((e) => e.event)).toEqual(['task_claimed', 'task_progress', 'task_complete']);
    } finally {
      world.cleanup();
    }
  });

  it('MCP-7: a writer refuses a malformed v0.5 event (a question event may not carry text)', () => {
    expect(() => serializeEvent({ event: 'question_asked', task: 'T-1', question: 'what database?', choices: 0 } as never)).toThrow(/question id must be q-<20 hex>/);
  });
});
