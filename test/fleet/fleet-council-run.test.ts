// Council and task jobs on a member's task from a device paired with the home
// (FLEETX-4): the member runs the real council (stand-in evaluator) and the fake
// agent adapter for real; the job's output streams back to every home device; the
// verdict's push comes from the home (FLEET-23). Hostile members are hand-driven links.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimNext } from '../../bus/claim';
import type { DeviceClient } from '../helpers/device';
import { WireFrameError } from '../helpers/device';
import { subscribedClient } from '../relay-watch/fixture';
import { type FleetPair, handLink, offline, startFleetPair } from './member-fixture';

let pair: FleetPair;

beforeAll(async () => {
  pair = await startFleetPair({ 'T-ok': 'all fine', 'T-hang': 'FAKE:hang', 'T-council': 'judge me' });
  const evaluator = path.join(pair.base, 'evaluator.cjs');
  fs.writeFileSync(evaluator, `#!${process.execPath}\nconsole.log(process.argv[3] === 'style' ? 'VOTE: FAIL' : 'VOTE: PASS');\n`, { mode: 0o755 });
  process.env.COUNCIL_EVALUATOR_CMD = evaluator;
});

afterAll(async () => {
  delete process.env.COUNCIL_EVALUATOR_CMD;
  await pair?.cleanup();
});

type JobState = { job: string; repo: string; task: string; status: string; stopped?: boolean };
const jobState = (client: DeviceClient, job: string, status: string) =>
  client.waitFor((f) => f.type === 'job.state' && f.job === job && f.status === status, `job ${job} ${status}`, 15_000) as unknown as Promise<JobState>;
const outputOf = (client: DeviceClient, job: string) => client.received.filter((f) => f.type === 'job.output' && f.job === job).map((f) => f.chunk as string).join('');

describe('fleet: council and run on a member task', () => {
  it('FLEETX-4: task.run on a member task starts the job there; its labelled state and output reach every home device', async () => {
    const { phone, watcher, label, prefix } = pair;
    const ack = await phone.client.request({ type: 'task.run', repo: label, task: 'T-ok', mode: 'work' });
    const { job } = ack.result as { job: string };
    expect(job).toMatch(new RegExp(`^${prefix}\\.j-[0-9a-f]{12}$`));
    for (const client of [phone.client, watcher]) {
      const done = await jobState(client, job, 'done');
      expect(done).toMatchObject({ repo: label, task: 'T-ok', mode: 'work', exitCode: 0 });
    }
    // The member ran it in ITS worktree, with its adapter, and kept the log.
    const own = job.slice(prefix.length + 1);
    expect(fs.readFileSync(path.join(pair.member.dataDir, 'jobs', `${own}.log`), 'utf8')).toContain('echo: Work on task T-ok');
    await expect.poll(() => outputOf(watcher, job)).toContain('echo: Work on task T-ok');
    expect(outputOf(phone.client, job)).toContain(`cwd: ${path.join(pair.member.dataDir, 'worktrees', pair.repoId, 'T-ok')}`);
  });

  it('FLEETX-4: job.stop with the labelled job id stops the member job; a late subscriber is replayed its state', async () => {
    const { phone, label } = pair;
    const { job } = (await phone.client.request({ type: 'task.run', repo: label, task: 'T-hang', mode: 'work' })).result as { job: string };
    await jobState(phone.client, job, 'running');
    const stop = await phone.client.request({ type: 'job.stop', job });
    expect(stop.result).toEqual({ job, stopped: true });
    expect(await jobState(phone.client, job, 'failed')).toMatchObject({ stopped: true, repo: label });
    const late = await subscribedClient(pair.home, undefined, 'tablet');
    await late.client.waitFor((f) => f.type === 'job.state' && f.job === job && f.status === 'failed', 'the replayed job state');
    await late.client.close();
  });

  it('FLEETX-4: task.council on a member task runs the member council; its verdict push comes from the home', async () => {
    const { phone, label } = pair;
    const claimed = await claimNext(pair.bus);
    expect(claimed?.task).toBe('T-council');
    const task = 'T-council';
    const ack = await phone.client.request({ type: 'task.council', repo: label, task });
    expect(ack.result).toMatchObject({ task, verdict: 'PASS' });
    expect(JSON.parse(fs.readFileSync(path.join(pair.bus, 'council', `${task}.json`), 'utf8'))).toMatchObject({ task, verdict: 'PASS' });
    const pushed = await pair.endpoint.waitFor((p) => p.subscription === phone.sub.id && (p.payload as { kind?: string }).kind === 'council_verdict');
    expect(pushed.payload).toMatchObject({ title: expect.stringMatching(/^laptop: /), data: { repo: label, task } });
    // A council on an inbox task is refused by the member, named.
    const refused = await phone.client.request({ type: 'task.council', repo: label, task: 'T-ok' }).catch((e: unknown) => e);
    expect((refused as WireFrameError).code).toBe('E_CONFLICT');
    expect((refused as WireFrameError).message).toContain('laptop: ');
  });

  it('FLEETX-6: a member cannot announce jobs of repos it does not own, stream into jobs it did not announce, or be sent another machine\'s job', async () => {
    const { phone, watcher, label, prefix } = pair;
    const real = (await phone.client.request({ type: 'task.run', repo: label, task: 'T-ok', mode: 'review' })).result as { job: string };
    await jobState(watcher, real.job, 'done');
    const rogue = await handLink(pair, 'rogue', 'rogue-0000abcd');
    const own = real.job.slice(prefix.length + 1);
    const state = (repo: string, job: string) => ({ type: 'fleet.frame', frame: { type: 'job.state', job, repo, task: 'T-ok', mode: 'work', status: 'running', exitCode: null } });
    rogue.send(state(pair.repoId, 'j-000000000001')); // the laptop's repo: not the rogue's
    rogue.send(state('rogue-0000abcd', real.job)); // an already labelled id: not a platform id
    rogue.send({ type: 'fleet.frame', frame: { type: 'job.output', job: own, seq: 0, chunk: 'FORGED into the laptop job' } });
    rogue.send(state('rogue-0000abcd', 'j-00000000000a'));
    const mine = await jobState(watcher, `${rogue.prefix}.j-00000000000a`, 'running');
    expect(mine.repo).toBe(rogue.repo);
    expect(watcher.received.filter((f) => f.type === 'job.state' && (f.repo === label && String(f.job).startsWith(rogue.prefix)))).toEqual([]);
    expect(watcher.received.some((f) => f.type === 'job.output' && String(f.chunk).includes('FORGED'))).toBe(false);
    // Stopping the laptop's job never reaches the rogue; the rogue's own job goes to it alone.
    await phone.client.request({ type: 'job.stop', job: real.job }).catch(() => undefined);
    expect(rogue.actions.filter((a) => a.type === 'fleet.action')).toEqual([]);
    rogue.link.ws.close();
    await offline(watcher, rogue.machine);
    const down = await phone.client.request({ type: 'job.stop', job: `${rogue.prefix}.j-00000000000a` }).catch((e: unknown) => e);
    expect((down as WireFrameError).code).toBe('E_UNAVAILABLE');
    const nobody = await phone.client.request({ type: 'job.stop', job: '0123abcd.j-00000000000a' }).catch((e: unknown) => e);
    expect((nobody as WireFrameError).code).toBe('E_NOT_FOUND');
  });

  it('FLEETX-4: with the member offline, task.run and task.council are refused at once with E_UNAVAILABLE', async () => {
    const { phone, watcher, label } = pair;
    await pair.member.relay.close();
    await offline(watcher, pair.machine);
    for (const frame of [{ type: 'task.run', repo: label, task: 'T-ok', mode: 'work' }, { type: 'task.council', repo: label, task: 'T-ok' }]) {
      const error = await phone.client.request(frame).catch((e: unknown) => e);
      expect((error as WireFrameError).code).toBe('E_UNAVAILABLE');
      expect((error as WireFrameError).message).toMatch(/laptop is offline/);
    }
  });
});
