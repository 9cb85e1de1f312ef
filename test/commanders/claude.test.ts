// A commander driven end to end with the REAL Claude Code CLI (through the claude
// adapter's `run`) against the Messages API stand-in, from a paired device over the
// real socket: directory first, session recorded, resume, death, replacement, delete.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CommanderView } from '../../protocol/wire/views';
import { planTurn, requestText } from '../adapters/claude-script';
import { useClaudeRelayWorld } from '../adapters/world';
import type { RecordedRequest } from '../stand-ins/messages-api';

const ROOT = path.resolve(__dirname, '../..');

const w = useClaudeRelayWorld('cmdr-claude-', (tmp) => {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'adapters', 'claude', 'run.cjs'))) throw new Error('run `node scripts/build.mjs` first');
  const memos = path.join(tmp, 'allowed', 'memos');
  fs.mkdirSync(memos, { recursive: true });
  return { memos, relayOptions: { repos: [], allowRoots: [path.join(tmp, 'allowed')] } };
});

let id: string;
let dir: string;
let firstSession: string;

const state = (check: (c: CommanderView) => boolean) =>
  w.phone.next('commander.state', (f) => f.commander.id === id && check(f.commander), 60_000).then((f) => f.commander);
const record = () => JSON.parse(fs.readFileSync(path.join(dir, 'commander.json'), 'utf8')) as { session: string | null; status: string };
const spawned = () => fs.readFileSync(path.join(dir, 'spawned'), 'utf8').trim().split('\n');
const transcripts = () => {
  const projects = path.join(w.home, '.claude', 'projects');
  return fs.existsSync(projects) ? fs.readdirSync(projects).flatMap((p) => fs.readdirSync(path.join(projects, p)).map((f) => path.join(projects, p, f))) : [];
};

/** The vendor CLI processes the adapter's `run` (pid in the relay's pid file) started. */
function cliChildren(): number[] {
  const runPid = Number(fs.readFileSync(path.join(w.dataDir, 'commander-logs', `${id}.pid`), 'utf8'));
  return fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e)).filter((e) => {
    try {
      return Number(fs.readFileSync(`/proc/${e}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]) === runPid;
    } catch {
      return false;
    }
  }).map(Number);
}

describe('a commander on the real Claude Code CLI', () => {
  it('CMDR-START-1: the directory and CLAUDE.md exist before the CLI starts; the CLI runs there and reads them; its session id is recorded', async () => {
    let seenAtFirstRequest: string[] | null = null;
    w.api.setReply((req: RecordedRequest) => {
      if (!Array.isArray(req.body?.tools) || req.body.tools.length === 0) return { text: 'side answer' };
      const dirs = fs.readdirSync(path.join(w.dataDir, 'commanders'));
      seenAtFirstRequest ??= dirs.flatMap((d) => fs.readdirSync(path.join(w.dataDir, 'commanders', d)));
      const done = JSON.stringify(req.body.messages).includes('tool_result');
      if (!done) return { content: [{ type: 'tool_use', name: 'Write', input: { file_path: path.join(w.dataDir, 'commanders', dirs[0]!, 'procedure.md'), content: 'step 1: transcribe\n' } }] };
      return { text: 'I read the memos folder.\nNOT READY: which mailbox should I watch?' };
    });
    const from = w.api.messageRequests().length;
    const ack = await w.phone.request({ type: 'commander.create', name: 'Voice memos', referencePath: w.memos });
    const created = (ack.result as { commander: CommanderView }).commander;
    id = created.id;
    dir = path.join(w.dataDir, 'commanders', id);
    const first = await w.phone.next('commander.output', (f) => f.commander === id, 30_000);
    expect(first.chunk).toMatch(/^SESSION: [0-9a-f-]{36}/);
    const waiting = await state((c) => c.status === 'waiting');
    expect(waiting.waitingFor).toBe('which mailbox should I watch?');
    expect(seenAtFirstRequest).toEqual(expect.arrayContaining(['CLAUDE.md', 'commander.json']));
    // Claude Code read the CLAUDE.md from its working directory: its text reached the model.
    const sent = requestText(w.api, from);
    expect(sent).toContain('This is your FIRST turn');
    expect(sent).toContain(w.memos);
    firstSession = waiting.session!;
    expect(firstSession).toMatch(/^[0-9a-f-]{36}$/);
    expect(record().session).toBe(firstSession);
    expect(spawned()).toEqual([firstSession]);
    expect(transcripts().some((t) => t.endsWith(`${firstSession}.jsonl`))).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'procedure.md'), 'utf8')).toBe('step 1: transcribe\n');
  });

  it('CMDR-MSG-1: a second message resumes the same session (the model sees the history)', async () => {
    planTurn(w.api, [], 'Watching the mailbox now.');
    const from = w.api.messageRequests().length;
    await w.phone.request({ type: 'commander.message', commander: id, text: 'watch ~/mail; $(rm -rf /) `id`' });
    const idle = await state((c) => c.status === 'idle');
    expect(idle.session).toBe(firstSession);
    const sent = requestText(w.api, from);
    expect(sent).toContain('which mailbox should I watch?');
    // Claude Code tags every request with its session: the resumed turn carries the same id.
    const tagged = w.api.messageRequests().slice(from).map((r) => JSON.stringify(r.body.metadata ?? {}));
    expect(tagged.some((m) => m.includes(firstSession))).toBe(true);
    expect(sent).toContain('watch ~/mail; $(rm -rf /) `id`');
    expect(spawned()).toEqual([firstSession]);
  });

  it('CMDR-DEAD-1: killing the CLI mid-turn marks the commander as needing a new session', async () => {
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    w.api.setReply((req) => {
      if (!Array.isArray(req.body?.tools) || req.body.tools.length === 0) return { text: 'side answer' };
      arrived();
      return { text: 'too late', delayMs: 120_000 };
    });
    await w.phone.request({ type: 'commander.message', commander: id, text: 'take your time' });
    await requestArrived;
    const children = cliChildren();
    expect(children.length).toBeGreaterThan(0);
    for (const pid of children) process.kill(pid, 'SIGKILL');
    const dead = await state((c) => c.status === 'dead');
    expect(dead.session).toBe(firstSession);
    await expect(w.phone.request({ type: 'commander.message', commander: id, text: 'hello?' })).rejects.toMatchObject({ code: 'E_CONFLICT' });
  });

  it('CMDR-REPLACE-1: replace starts a new Claude session in the same directory; what it wrote is intact; CLAUDE.md says so', async () => {
    planTurn(w.api, [], 'Back. I see procedure.md.');
    const from = w.api.messageRequests().length;
    await w.phone.request({ type: 'commander.replace', commander: id });
    const idle = await state((c) => c.status === 'idle' && c.session !== null && c.session !== firstSession);
    expect(spawned()).toEqual([firstSession, idle.session]);
    expect(fs.readFileSync(path.join(dir, 'procedure.md'), 'utf8')).toBe('step 1: transcribe\n');
    const sent = requestText(w.api, from);
    expect(sent).toContain('REPLACEMENT session, not your first turn');
    expect(sent).not.toContain('which mailbox should I watch?');
  });

  it('CMDR-DEAD-2: a session whose transcript is gone fails to resume and is marked dead', async () => {
    const current = record().session!;
    for (const t of transcripts().filter((f) => f.endsWith(`${current}.jsonl`))) fs.rmSync(t);
    planTurn(w.api, [], 'should not be reached');
    await w.phone.request({ type: 'commander.message', commander: id, text: 'still there?' });
    await state((c) => c.status === 'dead');
    const out = w.phone.received.filter((f) => f.type === 'commander.output' && f.commander === id).map((f) => f.chunk as string).join('');
    expect(out).toContain('needs a new session');
  });

  it('CMDR-DEL-1: delete removes the directory, its log and the Claude Code transcripts of its sessions; nothing is left', async () => {
    const transcripts = path.join(w.home, '.claude', 'projects', dir.replace(/[^A-Za-z0-9]/g, '-'));
    expect(fs.readdirSync(transcripts).some((f) => f.endsWith('.jsonl'))).toBe(true);
    await w.phone.request({ type: 'commander.delete', commander: id });
    expect(fs.existsSync(transcripts)).toBe(false);
    expect(fs.existsSync(dir)).toBe(false);
    expect(fs.readdirSync(path.join(w.dataDir, 'commander-logs'))).toEqual([]);
    expect(fs.readdirSync(path.join(w.dataDir, 'commanders'))).toEqual([]);
  });
});
