// Starting work from the phone, through the real relay and socket: a new packet
// in a repo's inbox (task.create), a job on the agent the person chose, a job the
// person stops (job.stop), and a commander started with a first message and an agent.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEvents } from '../../bus/event-log';
import { parsePacket } from '../../bus/packet';
import { connectDevice } from '../helpers/device';
import { jobsWorld } from './fixture';


const packet = { id: 'T-new', type: 'implementation', scope: 'src/{a,b}/**', title: 'Add the: thing', context: 'Why: "quotes" and\nlines', acceptance: '- it works\n* it is tested\n\n  third  ' };

const world = jobsWorld('phone-start-', { 'T-hang': `---\nid: T-hang\ntype: implementation\nscope: src/**\n---\n# T-hang\n\nFAKE:hang\n` });

describe('starting work from the phone', () => {
  it('UX-3: task.create writes a packet the bus parses, with the four sections, and every subscriber sees the new task', async () => {
    const ack = await world.phone.request({ type: 'task.create', repo: world.repoId, packet });
    expect(ack.result).toEqual({ task: 'T-new', file: 'T-new.md' });
    const text = fs.readFileSync(path.join(world.bus, 'inbox', 'T-new.md'), 'utf8');
    const parsed = await parsePacket(text);
    expect(parsed).toMatchObject({ ok: true, front: { id: 'T-new', type: 'implementation', scope: 'src/{a,b}/**' }, missingSections: [] });
    expect(text).toContain('# Add the: thing\n');
    expect(text).toContain('## Acceptance criteria\n- it works\n- it is tested\n- third\n');
    expect(fs.readdirSync(path.join(world.bus, 'inbox')).sort()).toEqual(['.gitkeep', 'T-hang.md', 'T-new.md']);
    await world.phone.waitFor((f) => f.type === 'bus.events' && (f.tasks as { id: string; state: string }[]).some((t) => t.id === 'T-new' && t.state === 'inbox'), 'the new task');
  });

  it('UX-3: an id that exists, a scope with a line break, an unsafe id or an unknown repo is refused and nothing is written', async () => {
    await expect(world.phone.request({ type: 'task.create', repo: world.repoId, packet: { ...packet, id: 'T-hang' } })).rejects.toMatchObject({ code: 'E_CONFLICT' });
    await expect(world.phone.request({ type: 'task.create', repo: world.repoId, packet: { ...packet, scope: 'src/**\nid: evil' } })).rejects.toMatchObject({ code: 'E_BAD_FRAME' });
    await expect(world.phone.request({ type: 'task.create', repo: world.repoId, packet: { ...packet, title: 'two\nlines' } })).rejects.toMatchObject({ code: 'E_BAD_FRAME' });
    await expect(world.phone.request({ type: 'task.create', repo: world.repoId, packet: { ...packet, id: '../escape' } })).rejects.toMatchObject({ code: 'E_BAD_FRAME', message: expect.stringContaining('packet.id') });
    await expect(world.phone.request({ type: 'task.create', repo: 'other-0123abcd', packet })).rejects.toMatchObject({ code: 'E_UNKNOWN_REPO' });
    expect(fs.readdirSync(path.join(world.bus, 'inbox')).sort()).toEqual(['.gitkeep', 'T-hang.md']);
    expect(fs.readFileSync(path.join(world.bus, 'inbox', 'T-hang.md'), 'utf8')).toContain('FAKE:hang');
  });

  it('UX-4: task.run runs the agent the person chose, whatever the relay selects; an unknown agent is refused', async () => {
    process.env.COMMANDR_AGENT_ADAPTER = 'no-such-default';
    await expect(world.phone.request({ type: 'task.run', repo: world.repoId, task: 'T-hang', mode: 'review', agent: 'nobody' })).rejects.toMatchObject({ code: 'E_UNAVAILABLE' });
    const ack = await world.phone.request({ type: 'task.run', repo: world.repoId, task: 'T-hang', mode: 'review', agent: 'fake' });
    expect(ack.result).toMatchObject({ status: 'running', agent: 'fake' });
    const { job } = ack.result as { job: string };
    await world.phone.waitFor((f) => f.type === 'job.output' && f.job === job && String(f.chunk).includes('mode: review'), 'fake output');
    await world.phone.request({ type: 'job.stop', job });
  });

  it('UX-5: job.stop ends a running job (its whole group), which ends failed and stopped, with task_failed on the bus; stopping it again is E_NOT_FOUND', async () => {
    const { job } = (await world.phone.request({ type: 'task.run', repo: world.repoId, task: 'T-hang', mode: 'review' })).result as { job: string };
    await world.phone.waitFor((f) => f.type === 'job.output' && f.job === job, 'first output');
    const stop = await world.phone.request({ type: 'job.stop', job });
    expect(stop.result).toEqual({ job, stopped: true });
    const end = world.phone.received.find((f) => f.type === 'job.state' && f.job === job && f.status !== 'running');
    expect(end).toMatchObject({ status: 'failed', stopped: true, agent: 'fake' });
    expect(readEvents(world.bus).events.filter((e) => e.event === 'task_failed')).toEqual([expect.objectContaining({ task: 'T-hang', reason: 'stopped by the relay' })]);
    await expect(world.phone.request({ type: 'job.stop', job })).rejects.toMatchObject({ code: 'E_NOT_FOUND' });
  });

  it('UX-5: a client that subscribes while a job runs is told about it', async () => {
    const { job } = (await world.phone.request({ type: 'task.run', repo: world.repoId, task: 'T-hang', mode: 'review' })).result as { job: string };
    const late = await connectDevice(world.fx.relay, 'late phone');
    await late.request({ type: 'subscribe' });
    expect(late.received.find((f) => f.type === 'job.state' && f.job === job)).toMatchObject({ status: 'running', task: 'T-hang' });
    await late.close();
    await world.phone.request({ type: 'job.stop', job });
  });

  it('UX-6: commander.create with a first message and an agent: the first turn carries the message and the record keeps the agent', async () => {
    process.env.COMMANDR_AGENT_ADAPTER = 'no-such-default';
    const memos = path.join(world.fx.root, 'memos');
    const ack = await world.phone.request({ type: 'commander.create', name: 'Memo keeper', referencePath: memos, agent: 'fake', message: 'Sort the memos by date.' });
    const { commander } = ack.result as { commander: { id: string; adapter: string } };
    expect(commander.adapter).toBe('fake');
    await world.phone.waitFor((f) => f.type === 'commander.output' && f.commander === commander.id && String(f.chunk).includes('Sort the memos by date.'), 'first message in the first turn');
    await world.phone.waitFor((f) => f.type === 'commander.state' && (f.commander as { id: string; status: string }).id === commander.id && ['idle', 'waiting'].includes((f.commander as { status: string }).status), 'turn end');
    // Later turns stay on the commander's own agent.
    await world.phone.request({ type: 'commander.message', commander: commander.id, text: 'And again.' });
    await world.phone.waitFor((f) => f.type === 'commander.output' && f.commander === commander.id && String(f.chunk).includes('turn: 2'), 'second turn on fake');
  });
});
