// A commander whose start fails (CMDRFAIL-n, protocol/spec/failures.md), through the real commander
// service and the real claude adapter: the fake `claude` prints what the real Claude Code printed when
// its login was gone. The failure says why in one sentence with the raw output beside it, is kept in
// the record (so a reload or a relay restart shows it), and Retry runs the same first turn again.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { notLoggedInSentence } from '../../adapters/lib/readiness';
import type { ServerFrame } from '../../protocol/wire/frames';
import { Commanders } from '../../relay/commanders/service';
import { loggedOutClaude } from '../stand-ins/logged-out-claude';
import { outputText, untilState } from './helpers';

const CLAUDE_RUN = path.resolve(__dirname, '../../adapters/claude/run');
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => { for (const c of cleanups.splice(0)) await c(); });

function world() {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cmdr-fail-')));
  const home = path.join(tmp, 'home');
  const root = path.join(tmp, 'allowed');
  fs.mkdirSync(path.join(root, 'notes'), { recursive: true });
  fs.mkdirSync(home);
  const bin = loggedOutClaude(home);
  // A saved login the CLI no longer accepts: readiness passes, the first turn fails.
  fs.mkdirSync(path.join(home, '.claude'));
  fs.writeFileSync(path.join(home, '.claude', '.credentials.json'), '{"claudeAiOauth":{"accessToken":"expired"}}\n');
  const env = { HOME: home, COMMANDR_CLAUDE_BIN: bin, ANTHROPIC_API_KEY: '', ANTHROPIC_AUTH_TOKEN: '', CLAUDE_CODE_OAUTH_TOKEN: '' };
  const frames: ServerFrame[] = [];
  const make = () => new Commanders({
    dataDir: path.join(tmp, 'data'), allowedRoots: () => [root],
    adapter: () => ({ name: 'claude', run: CLAUDE_RUN, source: 'shipped' }),
    broadcast: (f) => frames.push(f), env,
  });
  const commanders = make();
  cleanups.push(async () => { await commanders.close(); fs.rmSync(tmp, { recursive: true, force: true }); });
  return { tmp, home, root, commanders, make, frames };
}

describe('a commander whose start failed', () => {
  it('CMDRFAIL-1: the first turn failing (Claude Code not logged in, as the real CLI says it) leaves one sentence and the raw output on the commander, kept across a restart', async () => {
    const w = world();
    const v = w.commanders.create('notes', path.join(w.root, 'notes'), { message: 'Sort my notes' });
    const dead = await untilState(w.commanders, v.id, (c) => c.status === 'dead', 30_000);
    expect(dead.failure?.reason).toBe(notLoggedInSentence(os.hostname()));
    expect(dead.failure?.details).toContain('Not logged in · Please run /login');
    expect(dead.failure?.first).toBe(true);
    const record = () => JSON.parse(fs.readFileSync(path.join(w.commanders.store.dir(v.id), 'commander.json'), 'utf8')) as { firstMessage?: string; failure?: unknown };
    expect(record().firstMessage).toBe('Sort my notes');
    // What the phone is sent carries it, and a restarted relay still knows it.
    expect(w.commanders.list().find((c) => c.id === v.id)?.failure?.reason).toBe(notLoggedInSentence(os.hostname()));
    await w.commanders.close();
    const again = w.make();
    cleanups.unshift(() => again.close());
    expect(again.get(v.id).failure?.reason).toBe(notLoggedInSentence(os.hostname()));
  });

  it('CMDRFAIL-2: Retry (commander.replace of a failed first start) runs the same first turn again with the first message, and a turn that works forgets the failure', async () => {
    const w = world();
    const v = w.commanders.create('notes', path.join(w.root, 'notes'), { message: 'Sort my notes' });
    await untilState(w.commanders, v.id, (c) => c.status === 'dead', 30_000);
    const prompts = path.join(w.commanders.store.dir(v.id), 'prompts.txt'); // its working directory, writable in the sandbox
    // Now logged in; the fake records each prompt it is given so the retried first turn can be checked.
    fs.writeFileSync(path.join(w.home, 'logged-in'), '');
    const fake = fs.readFileSync(path.join(w.home, 'bin', 'claude'), 'utf8');
    fs.writeFileSync(path.join(w.home, 'bin', 'claude'), fake.replace('#!/bin/sh\n', `#!/bin/sh\nprintf '%s\\n---\\n' "$*" >> "${prompts}"\n`));
    await w.commanders.replace(v.id);
    const idle = await untilState(w.commanders, v.id, (c) => c.status === 'idle' || c.status === 'waiting', 30_000);
    expect(idle.failure).toBeUndefined();
    const kept = JSON.parse(fs.readFileSync(path.join(w.commanders.store.dir(v.id), 'commander.json'), 'utf8')) as Record<string, unknown>;
    expect([kept.failure, kept.firstMessage]).toEqual([undefined, undefined]);
    const given = fs.readFileSync(prompts, 'utf8');
    expect(given).toContain('This is your first turn as the commander "notes"');
    expect(given).toContain('Sort my notes');
    expect(outputText(w.commanders, v.id)).toContain('All done.');
  });
});
