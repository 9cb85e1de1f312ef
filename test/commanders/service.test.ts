// The commanders service driven through the fake adapter (a real executable that
// follows the adapter contract): directories, sessions, turns, waiting, death,
// replacement, references, deletion and reload — all on real files and processes.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COMMANDER_ID_PATTERN, CommanderRecord } from '../../protocol/commander';
import { Commanders } from '../../relay/commanders/service';
import { FAKE_ADAPTER_RUN, makeFixture, outputText, settled, untilState, type Fixture } from './helpers';

let fx: Fixture;
beforeEach(() => {
  fx = makeFixture();
});
afterEach(async () => {
  await fx.cleanup();
});

const recordOf = (id: string) => CommanderRecord.parse(JSON.parse(fs.readFileSync(path.join(fx.dataDir, 'commanders', id, 'commander.json'), 'utf8')));

describe('commanders service (fake adapter)', () => {
  it('CMDR-ID-1: ids are platform-owned c-<alnum>, each commander gets its own new directory', async () => {
    const a = fx.commanders.create('memos', path.join(fx.root, 'memos'));
    const b = fx.commanders.create('memos', path.join(fx.root, 'memos'));
    expect(a.id).toMatch(COMMANDER_ID_PATTERN);
    expect(b.id).not.toBe(a.id);
    expect(fs.readdirSync(path.join(fx.dataDir, 'commanders')).sort()).toEqual([a.id, b.id].sort());
    await untilState(fx.commanders, a.id, settled);
    await untilState(fx.commanders, b.id, settled);
  });

  it('CMDR-START-1: record, directory and CLAUDE.md exist before the agent starts; it runs there in work mode', async () => {
    const v = fx.commanders.create('Voice memos', path.join(fx.root, 'memos'));
    const dir = path.join(fx.dataDir, 'commanders', v.id);
    expect(v.status).toBe('starting');
    expect(recordOf(v.id)).toMatchObject({ id: v.id, name: 'Voice memos', session: null, status: 'starting' });
    const done = await untilState(fx.commanders, v.id, settled);
    expect(done.status).toBe('idle');
    const out = outputText(fx.commanders, v.id);
    expect(out).toContain(`cwd: ${dir}`);
    expect(out).toContain('claude-md: present');
    expect(out).toContain('mode: work');
    expect(out).toContain('echo: This is your first turn');
  });

  it('CMDR-DOC-1: CLAUDE.md names the commander and its reference paths, gives standing guidance and says it is the first turn', () => {
    const memos = path.join(fx.root, 'memos');
    const v = fx.commanders.create('Voice memos', memos);
    const doc = fs.readFileSync(path.join(fx.dataDir, 'commanders', v.id, 'CLAUDE.md'), 'utf8');
    expect(doc).toContain('# Commander: Voice memos');
    expect(doc).toContain(`## Reference paths\n\n- ${memos}\n`);
    expect(doc).toMatch(/interesting material is at the reference paths/);
    expect(doc).toMatch(/handled\.md/);
    expect(doc).toMatch(/This is your FIRST turn/);
  });

  it('CMDR-SESSION-1: the session id from the SESSION line is recorded as a pointer and appended to spawned', async () => {
    const v = fx.commanders.create('memos', path.join(fx.root, 'memos'));
    const done = await untilState(fx.commanders, v.id, settled);
    expect(done.session).toMatch(/^[0-9a-f-]{36}$/);
    expect(recordOf(v.id).session).toBe(done.session);
    expect(fs.readFileSync(path.join(fx.dataDir, 'commanders', v.id, 'spawned'), 'utf8')).toBe(`${done.session}\n`);
  });

  it('CMDR-MSG-1: a message resumes the current session; messages sent during a turn queue and run one at a time; each shows in the conversation as its turn starts', async () => {
    const v = fx.commanders.create('memos', path.join(fx.root, 'memos'));
    const first = await untilState(fx.commanders, v.id, settled);
    fx.commanders.message(v.id, 'one FAKE:delay 300');
    expect(fx.commanders.message(v.id, 'two')).toEqual({ queued: 1 });
    await untilState(fx.commanders, v.id, (c) => settled(c) && outputText(fx.commanders, v.id).includes('echo: two'));
    const out = outputText(fx.commanders, v.id);
    expect(out.indexOf('echo: one')).toBeLessThan(out.indexOf('echo: two'));
    // The person's messages are in the conversation, each right before its turn's answer.
    expect(out.indexOf('\n› one FAKE:delay 300\n')).toBeGreaterThan(-1);
    expect(out.indexOf('\n› one FAKE:delay 300\n')).toBeLessThan(out.indexOf('echo: one'));
    expect(out.indexOf('echo: one')).toBeLessThan(out.indexOf('\n› two\n'));
    expect(out.indexOf('\n› two\n')).toBeLessThan(out.indexOf('echo: two'));
    expect(out).toContain('turn: 3');
    expect(fx.commanders.get(v.id).session).toBe(first.session);
    expect(fs.readFileSync(path.join(fx.dataDir, 'commanders', v.id, 'spawned'), 'utf8')).toBe(`${first.session}\n`);
  });

  it('CMDR-OUT-1: output is streamed with rising seq numbers, logged outside the directory, and kept for catch-up', async () => {
    const v = fx.commanders.create('memos', path.join(fx.root, 'memos'));
    await untilState(fx.commanders, v.id, settled);
    const frames = fx.frames.filter((f) => f.type === 'commander.output');
    expect(frames.length).toBeGreaterThan(0);
    const seqs = frames.map((f) => (f as { seq: number }).seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    const log = fs.readFileSync(path.join(fx.dataDir, 'commander-logs', `${v.id}.log`), 'utf8');
    expect(log).toContain('echo: This is your first turn');
    expect(outputText(fx.commanders, v.id)).toBe(log);
    expect(fs.readdirSync(path.join(fx.dataDir, 'commanders', v.id)).sort()).toEqual(['CLAUDE.md', 'commander.json', 'spawned']);
  });

  it('CMDR-WAIT-1: a turn ending with NOT READY or a question marks the commander waiting and emits waiting', async () => {
    const v = fx.commanders.create('memos', path.join(fx.root, 'memos'));
    await untilState(fx.commanders, v.id, settled);
    const waited: string[] = [];
    fx.commanders.on('waiting', (c) => waited.push(c.waitingFor ?? ''));
    fx.commanders.message(v.id, 'FAKE:not-ready which mailbox?');
    const w = await untilState(fx.commanders, v.id, (c) => c.status === 'waiting');
    expect(w.waitingFor).toBe('which mailbox?');
    fx.commanders.message(v.id, 'FAKE:ask');
    const q = await untilState(fx.commanders, v.id, (c) => c.status === 'waiting' && c.waitingFor !== 'which mailbox?');
    expect(q.waitingFor).toBe('Which folder should I watch next?');
    fx.commanders.message(v.id, 'carry on');
    expect((await untilState(fx.commanders, v.id, (c) => c.status === 'idle')).waitingFor).toBeNull();
    expect(waited).toEqual(['which mailbox?', 'Which folder should I watch next?']);
    expect(fx.frames.some((f) => f.type === 'commander.state' && f.commander.status === 'waiting')).toBe(true);
  });

  it('CMDR-DEAD-1: a lost session, a crash or a killed agent marks the commander dead; messages are refused until replaced', async () => {
    const v = fx.commanders.create('memos', path.join(fx.root, 'memos'));
    await untilState(fx.commanders, v.id, settled);
    fx.commanders.message(v.id, 'FAKE:lose-session');
    await untilState(fx.commanders, v.id, (c) => c.status === 'idle' && outputText(fx.commanders, v.id).includes('turn: 2'));
    fx.commanders.message(v.id, 'are you there?');
    await untilState(fx.commanders, v.id, (c) => c.status === 'dead');
    expect(outputText(fx.commanders, v.id)).toMatch(/No conversation found|needs a new session/);
    expect(() => fx.commanders.message(v.id, 'hello')).toThrow(expect.objectContaining({ code: 'E_CONFLICT' }));

    const crash = fx.commanders.create('crashy', path.join(fx.root, 'memos'));
    await untilState(fx.commanders, crash.id, settled);
    fx.commanders.message(crash.id, 'FAKE:crash');
    expect((await untilState(fx.commanders, crash.id, settled)).status).toBe('dead');

    const hang = fx.commanders.create('hangs', path.join(fx.root, 'memos'));
    await untilState(fx.commanders, hang.id, settled);
    fx.commanders.message(hang.id, 'FAKE:hang');
    await untilState(fx.commanders, hang.id, () => outputText(fx.commanders, hang.id).includes('hanging: until killed'));
    const pid = Number(fs.readFileSync(path.join(fx.dataDir, 'commander-logs', `${hang.id}.pid`), 'utf8'));
    process.kill(pid, 'SIGKILL');
    expect((await untilState(fx.commanders, hang.id, settled)).status).toBe('dead');
  });

  it('CMDR-REPLACE-1: replace starts a fresh session in the same directory with everything it wrote intact', async () => {
    const v = fx.commanders.create('memos', path.join(fx.root, 'memos'));
    const first = await untilState(fx.commanders, v.id, settled);
    fx.commanders.message(v.id, 'FAKE:write procedure.md step one: transcribe');
    await untilState(fx.commanders, v.id, (c) => settled(c) && outputText(fx.commanders, v.id).includes('wrote: procedure.md'));
    fx.commanders.message(v.id, 'FAKE:crash');
    await untilState(fx.commanders, v.id, (c) => c.status === 'dead');
    await fx.commanders.replace(v.id);
    const next = await untilState(fx.commanders, v.id, (c) => c.status === 'idle' && c.session !== null);
    const dir = path.join(fx.dataDir, 'commanders', v.id);
    expect(next.session).not.toBe(first.session);
    expect(fs.readFileSync(path.join(dir, 'procedure.md'), 'utf8')).toBe('step one: transcribe\n');
    expect(fs.readFileSync(path.join(dir, 'spawned'), 'utf8')).toBe(`${first.session}\n${next.session}\n`);
    const doc = fs.readFileSync(path.join(dir, 'CLAUDE.md'), 'utf8');
    expect(doc).toMatch(/REPLACEMENT session, not your first turn/);
    expect(doc).not.toMatch(/FIRST turn/);
    expect(outputText(fx.commanders, v.id)).toContain('echo: This is a replacement session');
  });

  it('CMDR-REPLACE-1: replacing a commander mid-turn stops the old turn, which then changes nothing', async () => {
    const v = fx.commanders.create('memos', path.join(fx.root, 'memos'));
    await untilState(fx.commanders, v.id, settled);
    fx.commanders.message(v.id, 'FAKE:hang');
    await untilState(fx.commanders, v.id, () => outputText(fx.commanders, v.id).includes('hanging'));
    await fx.commanders.replace(v.id);
    expect((await untilState(fx.commanders, v.id, (c) => c.status === 'idle')).status).toBe('idle');
  });

  it('CMDR-DEL-1: delete stops its processes and removes its directory and log; nothing is left behind', async () => {
    const v = fx.commanders.create('memos', path.join(fx.root, 'memos'));
    await untilState(fx.commanders, v.id, settled);
    fx.commanders.message(v.id, 'FAKE:hang');
    await untilState(fx.commanders, v.id, () => outputText(fx.commanders, v.id).includes('hanging'));
    const pid = Number(fs.readFileSync(path.join(fx.dataDir, 'commander-logs', `${v.id}.pid`), 'utf8'));
    await fx.commanders.delete(v.id);
    expect(() => process.kill(pid, 0)).toThrow();
    expect(fs.readdirSync(path.join(fx.dataDir, 'commanders'))).toEqual([]);
    expect(fs.readdirSync(path.join(fx.dataDir, 'commander-logs'))).toEqual([]);
    expect(fx.frames.at(-1)).toEqual({ type: 'commander.removed', commander: v.id });
    expect(() => fx.commanders.get(v.id)).toThrow(expect.objectContaining({ code: 'E_NOT_FOUND' }));
  });

  it('CMDR-RELOAD-2: once the relay closes no turn starts: a replace waiting for its old turn to stop, a message and a new commander are refused', async () => {
    const a = fx.commanders.create('kept', path.join(fx.root, 'memos'));
    await untilState(fx.commanders, a.id, settled);
    fx.commanders.message(a.id, 'FAKE:hang');
    await untilState(fx.commanders, a.id, () => outputText(fx.commanders, a.id).includes('hanging'));
    const pidFile = path.join(fx.dataDir, 'commander-logs', `${a.id}.pid`);
    expect(fs.existsSync(pidFile)).toBe(true);
    // The replace stops the hanging turn; the relay closes while it waits for that.
    const replacing = fx.commanders.replace(a.id).catch((e: unknown) => e);
    await fx.commanders.close();
    expect(await replacing).toMatchObject({ code: 'E_UNAVAILABLE', message: expect.stringMatching(/relay stopped while the old turn was being stopped/) });
    expect(() => fx.commanders.message(a.id, 'more')).toThrow(expect.objectContaining({ code: 'E_UNAVAILABLE' }));
    expect(() => fx.commanders.create('late', path.join(fx.root, 'memos'))).toThrow(expect.objectContaining({ code: 'E_UNAVAILABLE' }));
    // No turn's process is on record: the stopped one's pid file went with it, and none was started.
    expect(fs.existsSync(pidFile)).toBe(false);
    expect(fx.commanders.list().map((c) => c.name)).toEqual(['kept']);
  });

  it('CMDR-RELOAD-1: a restarted relay reloads commanders from their directories; one caught mid-turn shows idle or dead', async () => {
    const a = fx.commanders.create('kept', path.join(fx.root, 'memos'));
    await untilState(fx.commanders, a.id, settled);
    fx.commanders.message(a.id, 'FAKE:hang');
    await untilState(fx.commanders, a.id, () => outputText(fx.commanders, a.id).includes('hanging'));
    const pid = Number(fs.readFileSync(path.join(fx.dataDir, 'commander-logs', `${a.id}.pid`), 'utf8'));
    // A second, never-started one: its record says starting with no session.
    const b = recordOf(a.id);
    const bId = 'c-nosession01';
    fs.mkdirSync(path.join(fx.dataDir, 'commanders', bId));
    fs.writeFileSync(path.join(fx.dataDir, 'commanders', bId, 'commander.json'), JSON.stringify({ ...b, id: bId, session: null, status: 'starting' }));
    const again = new Commanders({
      dataDir: fx.dataDir, allowedRoots: () => [fx.root], adapter: () => ({ name: 'fake', run: FAKE_ADAPTER_RUN }), broadcast: () => undefined,
    });
    try {
      expect(again.get(a.id)).toMatchObject({ status: 'idle', session: b.session, name: 'kept' });
      expect(again.get(bId).status).toBe('dead');
      expect(again.output(a.id).chunks.map((c) => c.chunk).join('')).toContain('hanging');
      // The orphaned turn was stopped: its (old) supervisor sees it die.
      expect((await untilState(fx.commanders, a.id, settled)).status).toBe('dead');
      expect(pid).toBeGreaterThan(1);
    } finally {
      await again.close();
    }
  });

  it('CMDR-SHELL-1: prompts and names with shell metacharacters reach the agent verbatim, never through a shell', async () => {
    const hostile = '$(touch pwned) `touch pwned2`; rm -rf / && echo "x" | cat \'y\'';
    const v = fx.commanders.create('a; $(touch pwned3) `b`', path.join(fx.root, 'memos'));
    await untilState(fx.commanders, v.id, settled);
    fx.commanders.message(v.id, hostile);
    await untilState(fx.commanders, v.id, (c) => settled(c) && outputText(fx.commanders, v.id).includes('turn: 2'));
    expect(outputText(fx.commanders, v.id)).toContain(`echo: ${hostile}`);
    const dir = path.join(fx.dataDir, 'commanders', v.id);
    for (const where of [dir, process.cwd(), fx.tmp]) {
      expect(fs.readdirSync(where).filter((n) => n.startsWith('pwned'))).toEqual([]);
    }
  });
  it('CMDR-DEAD-1: an adapter that cannot be started leaves the commander dead, with the reason in its output', async () => {
    const broken = new Commanders({
      dataDir: fx.dataDir, allowedRoots: () => [fx.root], adapter: () => ({ name: 'gone', run: path.join(fx.tmp, 'no-such-run') }), broadcast: () => undefined,
    });
    try {
      const v = broken.create('x', path.join(fx.root, 'memos'));
      expect((await untilState(broken, v.id, settled)).status).toBe('dead');
      expect(outputText(broken, v.id)).toMatch(/adapter could not start: spawn .*ENOENT.*needs a new session/s);
    } finally {
      await broken.close();
    }
  });
});
