// The `subscribe` read and live delivery: a valid cursor gets exactly the bus
// events after it and then the repo's current state (RESUME-1: packets, verdicts and
// annotations change without events), anything else a snapshot; then the client
// receives every new event once, in log order. Cursors are byte offsets of the
// durable log, so no relay state is needed to resume. `repo.done` pages done tasks (PAGE-2).
import type * as z from 'zod/mini';
import { type RepoDoneRequest, SNAPSHOT_PAGE_TASKS, type ServerFrame, type Subscribe } from '../../protocol/wire/frames';
import { CommandrError } from '../../protocol/wire/errors';
import type { RepoInfo } from '../../protocol/wire/views';
import type { ClientInfo, RelayServices } from '../context';
import type { TaskActionContext } from '../actions/task-common';
import { hubOf } from '../actions/task-common';
import { donePage, eventFrames, snapshotFrames } from './frames';
import type { RepoHub } from './hub';

type SubscribeFrame = z.infer<typeof Subscribe>;
type RepoDoneFrame = z.infer<typeof RepoDoneRequest>;

const SUBSCRIBED = 'watch.subscribed';

function isSubscribed(client: ClientInfo, repo: string): boolean {
  const repos = client.state.get(SUBSCRIBED);
  return repos instanceof Set && repos.has(repo);
}

/** Forwards the hub's changes to the clients subscribed to each repo (server.ts calls this once). */
export function deliverHub(services: RelayServices, hub: RepoHub): void {
  hub.on('events', (repo, frame) => services.broadcast(frame, (c) => isSubscribed(c, repo)));
  hub.on('snapshot', (frames) => sendAll(frames, (f) => services.broadcast(f, (c) => isSubscribed(c, frames[0].repo.id))));
  hub.on('removed', (repo) => {
    services.broadcast({ type: 'repo.removed', repo }, (c) => isSubscribed(c, repo));
    for (const c of services.clients()) (c.state.get(SUBSCRIBED) as Set<string> | undefined)?.delete(repo);
  });
  // A repo that appears later goes to everyone who subscribed to anything.
  hub.on('added', (repo) => {
    const model = hub.model(repo);
    if (!model) return;
    for (const c of services.clients()) {
      const repos = c.state.get(SUBSCRIBED);
      if (repos instanceof Set) repos.add(repo);
    }
    sendAll(snapshotFrames(model), (f) => services.broadcast(f, (c) => isSubscribed(c, repo)));
  });
}

function sendAll(frames: ServerFrame[], send: (frame: ServerFrame) => void): void {
  for (const frame of frames) send(frame);
}

/** `subscribe {cursors?}`: per repo, the events after a valid cursor, else a snapshot; then live. */
export async function subscribe(ctx: TaskActionContext, frame: SubscribeFrame): Promise<{ repos: RepoInfo[] }> {
  const hub = hubOf(ctx.services);
  const cursors = frame.cursors ?? {};
  // A second subscribe on the same socket starts over from its cursors: no live frame in between.
  ctx.client?.state.delete(SUBSCRIBED);
  // Read what is already in the logs first so a cursor from just before a restart is valid.
  await Promise.all(hub.repos().map((r) => hub.catchUp(r.id)));
  // From here to the end nothing awaits: what was sent and what will be broadcast meet exactly.
  const repos = hub.repos();
  for (const repo of repos) {
    const model = hub.model(repo.id)!;
    const cursor = cursors[repo.id];
    const valid = cursor !== undefined && model.log.accepts(cursor);
    // RESUME-1: the missed events first (timelines, cursor), then the state they cannot carry.
    if (valid) for (const f of eventFrames(model, model.log.since(cursor))) ctx.send(f);
    sendAll(snapshotFrames(model, cursor !== undefined && !valid), (f) => ctx.send(f));
  }
  for (const repo of Object.keys(cursors)) if (!hub.model(repo)) ctx.send({ type: 'repo.removed', repo });
  if (ctx.client) ctx.client.state.set(SUBSCRIBED, new Set(repos.map((r) => r.id)));
  return { repos };
}

/** `repo.done {repo, before?, limit?}`: one `repo.tasks` page of done tasks, then `{total, more}` (PAGE-2). */
export async function repoDone(ctx: TaskActionContext, frame: RepoDoneFrame): Promise<{ total: number; more: boolean; sent: number }> {
  const model = hubOf(ctx.services).model(frame.repo);
  if (!model) throw new CommandrError('E_UNKNOWN_REPO', `no repo ${frame.repo} is watched by this relay`);
  const page = donePage(model, frame.before, frame.limit ?? SNAPSHOT_PAGE_TASKS);
  ctx.send({ type: 'repo.tasks', id: frame.id, repo: frame.repo, tasks: page.tasks });
  return { total: page.total, more: page.more, sent: page.tasks.length };
}
