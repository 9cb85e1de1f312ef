// The bus watcher must not lose a packet's move when the relay's event loop is busy:
// real files and renames on a real bus, the real fs.watch and stat poll, the real model.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { initRepo } from '../../bus/init';
import { git } from '../../test/council/fixtures';
import { packet } from '../../test/conformance/harness';
import { BusWatcher } from './bus-watcher';
import { RepoModel, allDirty, type ModelChange } from './repo-model';

const POLL_MS = 300;
let dir: string;
let bus: string;
let watcher: BusWatcher | undefined;

beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bus-watcher-')));
  const repo = path.join(dir, 'repo');
  fs.mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  // A new bus: no council/ or annotations/ yet, as before a first council or note.
  bus = initRepo(repo, { gateBin: '/bin/false', registryFile: path.join(dir, 'registry') }).bus;
  for (const id of ['A-1', 'A-2']) fs.writeFileSync(path.join(bus, 'inbox', `${id}.md`), packet({ id }));
});

afterEach(() => {
  watcher?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Holds the thread as a long synchronous step would (a tool run with execFileSync, a big diff). */
const busy = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
const claim = (id: string) => fs.renameSync(path.join(bus, 'inbox', `${id}.md`), path.join(bus, 'claimed', `host_1_${id}.md`));

it('WATCH-7: a move made while the relay is busy past its poll, after another move it heard in the same second, still reaches the model', async () => {
  const changes: Array<() => void> = [];
  let afterFirst: (() => void) | undefined;
  const model = new RepoModel({ id: 'r', name: 'repo', path: dir, demo: false }, bus, () => undefined, (change: ModelChange) => {
    if (change.kind === 'update' && change.tasks.some((t) => t.id === 'A-1' && t.state === 'claimed') && afterFirst) {
      const then = afterFirst;
      afterFirst = undefined;
      then();
    }
    for (const notify of changes.splice(0)) notify();
  });
  let polled: (() => void) | undefined;
  watcher = new BusWatcher(bus, (dirty) => void model.refresh(dirty), POLL_MS, () => {
    polled?.();
    return model.packets.invalid;
  });
  watcher.start();
  await model.refresh(allDirty());
  expect(model.summary('A-2')?.state).toBe('inbox');

  // Right after a poll, so the whole second (here POLL_MS) is ahead: A-1 moves and fs.watch reports it.
  await new Promise<void>((resolve) => (polled = resolve));
  polled = undefined;
  afterFirst = () => {
    // The model has A-1 claimed; before the next poll, A-2 moves while the loop is held past that
    // poll: the poll runs before fs.watch's events for A-2 are read.
    claim('A-2');
    busy(POLL_MS + 150);
  };
  claim('A-1');

  const deadline = Date.now() + 10 * POLL_MS;
  while (model.summary('A-2')?.state !== 'claimed') {
    const left = deadline - Date.now();
    if (left <= 0) break;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, left);
      changes.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
  expect(model.summary('A-1')?.state).toBe('claimed');
  expect(model.summary('A-2')?.state, 'A-2 moved to claimed/ but the relay still shows it in the inbox').toBe('claimed');
  expect([...model.packets.dirs.get('inbox')!.keys()]).toEqual([]);
});
