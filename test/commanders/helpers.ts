// Shared setup for commander tests: temp data dir and allowed root, the fake
// adapter (a real executable following the adapter contract), and waiting on state.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ServerFrame } from '../../protocol/wire/frames';
import type { CommanderView } from '../../protocol/wire/views';
import { Commanders } from '../../relay/commanders/service';

export const FAKE_ADAPTER_RUN = path.resolve(__dirname, '../stand-ins/fake-adapter/run');

export interface Fixture {
  tmp: string;
  dataDir: string;
  root: string;
  home: string;
  frames: ServerFrame[];
  commanders: Commanders;
  cleanup(): Promise<void>;
}

export function makeFixture(): Fixture {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cmdr-')));
  const dataDir = path.join(tmp, 'data');
  const root = path.join(tmp, 'allowed');
  const home = path.join(tmp, 'home');
  fs.mkdirSync(path.join(root, 'memos'), { recursive: true });
  fs.mkdirSync(home);
  const frames: ServerFrame[] = [];
  const commanders = new Commanders({
    dataDir,
    allowedRoots: () => [root],
    adapter: () => ({ name: 'fake', run: FAKE_ADAPTER_RUN }),
    broadcast: (frame) => frames.push(frame),
    env: { HOME: home, FAKE_ADAPTER_HOME: home },
  });
  return {
    tmp, dataDir, root, home, frames, commanders,
    async cleanup() {
      await commanders.close();
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}

/** Resolves with the commander's view once `predicate` holds (checked now and on every state change). */
export function untilState(commanders: Commanders, id: string, predicate: (v: CommanderView) => boolean, ms = 15_000): Promise<CommanderView> {
  return new Promise((resolve, reject) => {
    const check = (v: CommanderView) => {
      if (v.id !== id || !predicate(v)) return;
      clearTimeout(timer);
      commanders.off('state', check);
      commanders.off('output', onOutput);
      resolve(v);
    };
    const onOutput = (which: string) => {
      if (which === id) check(commanders.get(id));
    };
    const timer = setTimeout(() => {
      commanders.off('state', check);
      commanders.off('output', onOutput);
      reject(new Error(`commander ${id} did not reach the expected state; last: ${JSON.stringify(commanders.list().find((c) => c.id === id))}`));
    }, ms);
    commanders.on('state', check);
    commanders.on('output', onOutput);
    try {
      check(commanders.get(id));
    } catch {
      // not there (yet)
    }
  });
}

export const settled = (v: CommanderView) => v.status === 'idle' || v.status === 'waiting' || v.status === 'dead';

export function outputText(commanders: Commanders, id: string): string {
  return commanders.output(id).chunks.map((c) => c.chunk).join('');
}
