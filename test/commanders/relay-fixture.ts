// A real relay (in-process, port 0) over a temp data dir whose local adapter
// override `fake` is the fake adapter, selected with COMMANDR_AGENT_ADAPTER.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRelay, type Relay } from '../../relay/server';

export const FAKE_ADAPTER_DIR = path.resolve(__dirname, '../stand-ins/fake-adapter');

export interface RelayFixture {
  tmp: string;
  dataDir: string;
  root: string;
  relay: Relay;
  restart(): Promise<Relay>;
  cleanup(): Promise<void>;
}

/** `adapterDir`: the adapter to install as the local override (default: the fake one). */
export async function startRelayFixture(opts: { adapterName?: string; adapterDir?: string; repos?: string[] } = {}): Promise<RelayFixture> {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cmdr-relay-')));
  const dataDir = path.join(tmp, 'data');
  const root = path.join(tmp, 'allowed');
  fs.mkdirSync(path.join(root, 'memos'), { recursive: true });
  fs.mkdirSync(path.join(tmp, 'home'));
  const name = opts.adapterName ?? 'fake';
  fs.mkdirSync(path.join(dataDir, 'adapters'), { recursive: true });
  if (opts.adapterDir !== null) fs.symlinkSync(opts.adapterDir ?? FAKE_ADAPTER_DIR, path.join(dataDir, 'adapters', name));
  process.env.COMMANDR_AGENT_ADAPTER = name;
  process.env.FAKE_ADAPTER_HOME = path.join(tmp, 'home');
  const start = () => createRelay({
    port: 0, host: '127.0.0.1', dataDir, repos: opts.repos ?? [], registryFile: path.join(tmp, 'no-registry'), demo: false,
    allowRoots: [root], appDir: path.join(tmp, 'no-app'),
  });
  const fx: RelayFixture = {
    tmp, dataDir, root, relay: await start(),
    async restart() {
      await fx.relay.close();
      fx.relay = await start();
      return fx.relay;
    },
    async cleanup() {
      await fx.relay.close();
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
  return fx;
}
