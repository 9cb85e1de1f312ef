// The world an adapter test starts from, built in one call and closed by cleanup(): the
// model stand-in an agent CLI talks to, a fresh HOME and COMMANDR_HOME, a real relay on
// that home, a repo with a bus, wired for the CLI or not. Options say what a file differs in.
// A file whose tests all share one world gets it from a use…World(), which builds it in beforeAll.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { RelayOptions } from '../../relay/options';
import { createRelay, type Relay } from '../../relay/server';
import { connectDevice, type DeviceClient } from '../helpers/device';
import { startMessagesApi, type MessagesApi } from '../stand-ins/messages-api';
import { startOpenAiChat, type OpenAiChat } from '../stand-ins/openai-chat';
import {
  adapterBin, cleanup, CLAUDE_BIN, git, makeHome, makeRepo, onCleanup, runProcess, startRelay, tempDir, type Home, type Ran, type TestRelay,
} from './harness';

export type Adapter = 'claude' | 'opencode';

export interface WorldOptions {
  /** A relay on the world's COMMANDR_HOME (default true); without one the hooks find none. */
  relay?: boolean;
  /** A repo with one commit and a bus (default true). */
  repo?: boolean;
  /** With claudeWorld / openCodeWorld: the adapter's `wire` run in the repo (default true). */
  wired?: boolean;
  /** An untracked package.json whose `npm test` passes ("3 passed, 0 failed"). */
  npmTest?: boolean;
  /** A branch checked out in the repo, as a job's worktree has. */
  branch?: string;
}

/** What a world holds: the parts an option turned off are not there. */
export type World<O extends WorldOptions> = { h: Home }
  & (O extends { relay: false } ? unknown : { relay: TestRelay })
  & (O extends { repo: false } ? unknown : { repo: string; bus: string });

/** Runs the adapter's `wire` on `dir` (with `h`'s home, else only PATH), as a person would. */
export function wire(adapter: Adapter, dir: string, h?: Home): Promise<Ran> {
  const env = h ? { PATH: process.env.PATH, HOME: h.home, COMMANDR_HOME: h.commandrHome } : { PATH: process.env.PATH };
  return runProcess(adapterBin(adapter, 'wire'), [dir], { cwd: dir, env });
}

/** A home, a relay on it and a repo, wired for `options.wire` if given: what hooks run against as plain processes. */
export async function hookWorld<O extends WorldOptions = {}>(options?: O & { wire?: Adapter }): Promise<World<O>> {
  const h = makeHome();
  const world: Record<string, unknown> = { h };
  if (options?.relay !== false) world.relay = await startRelay(h.commandrHome);
  if (options?.repo !== false) {
    const { repo, bus } = makeRepo();
    Object.assign(world, { repo, bus });
    if (options?.npmTest) fs.writeFileSync(path.join(repo, 'package.json'), JSON.stringify({ name: 'demo', private: true, scripts: { test: 'echo "3 passed, 0 failed"' } }));
    if (options?.wire) {
      const wired = await wire(options.wire, repo, h);
      if (wired.code !== 0) throw new Error(`${options.wire} wire failed: ${wired.stderr}`);
    }
    if (options?.branch) git(repo, 'checkout', '-q', '-b', options.branch);
  }
  return world as World<O>;
}

/** Claude Code's world: the Messages API stand-in, and the repo wired for Claude Code unless `wired: false`. */
export async function claudeWorld<O extends WorldOptions = {}>(options?: O): Promise<World<O> & { api: MessagesApi }> {
  const api = await startMessagesApi({ apiKey: 'sk-test' });
  onCleanup(() => api.close());
  return { api, ...(await hookWorld({ ...options, wire: options?.wired === false ? undefined : 'claude' })) } as World<O> & { api: MessagesApi };
}

/** OpenCode's world: the OpenAI-compatible stand-in, and the repo wired for OpenCode unless `wired: false`. */
export async function openCodeWorld<O extends WorldOptions = {}>(options?: O): Promise<World<O> & { api: OpenAiChat }> {
  const api = await startOpenAiChat();
  onCleanup(() => api.close());
  return { api, ...(await hookWorld({ ...options, wire: options?.wired === false ? undefined : 'opencode' })) } as World<O> & { api: OpenAiChat };
}

/** A phone paired with the relay and connected, closed by cleanup() before the rest. */
export async function pairPhone(relay: TestRelay): Promise<DeviceClient> {
  const phone = await connectDevice(relay.relay, 'phone');
  onCleanup(() => phone.close());
  return phone;
}

/**
 * The world `build` makes, built in beforeAll and closed by cleanup() in afterAll, for a file whose tests all
 * share it. The object is there at once, so the file declares nothing else; tests read its fields (`w.api`,
 * `w.repo`). Reading one before beforeAll has built it throws, naming the field.
 */
export function useWorld<T extends object>(build: () => Promise<T>): T {
  let built: T | undefined;
  beforeAll(async () => {
    built = await build();
  });
  afterAll(cleanup);
  return new Proxy({} as T, {
    get(_, field) {
      if (!built) throw new Error(`the world's ${String(field)} was read before beforeAll built it`);
      return built[field as keyof T];
    },
  });
}

/** claudeWorld(options) for the whole file: see useWorld. */
export function useClaudeWorld<O extends WorldOptions = {}>(options?: O): World<O> & { api: MessagesApi } {
  return useWorld(() => claudeWorld(options));
}

/** openCodeWorld(options) for the whole file: see useWorld. */
export function useOpenCodeWorld<O extends WorldOptions = {}>(options?: O): World<O> & { api: OpenAiChat } {
  return useWorld(() => openCodeWorld(options));
}

/** What a relay running in this test process needs to start the REAL Claude Code itself. */
export interface ClaudeRelayWorld {
  api: MessagesApi;
  relay: Relay;
  phone: DeviceClient;
  /** The temp dir everything lives in. */
  tmp: string;
  /** HOME for the relay and the Claude Code it starts (tmp/home): its transcripts land here. */
  home: string;
  /** The relay's data dir (tmp/data). */
  dataDir: string;
}

/**
 * A relay run in this process whose commanders and jobs start the REAL Claude Code through the claude
 * adapter's `run`, against the Messages API stand-in, and a phone paired with it. The relay's children inherit
 * process.env, so that is what is pointed at the stand-in and a HOME in the temp dir. `lay(tmp)` lays out the
 * rest of the temp dir and returns what the relay differs in (`relayOptions`) and whatever else the file wants
 * in its world. Closed by cleanup(): phone, relay, stand-in, then the temp dir.
 */
export async function claudeRelayWorld<X extends object = {}>(
  prefix: string, lay: (tmp: string) => X & { relayOptions: Pick<RelayOptions, 'repos' | 'allowRoots'> },
): Promise<ClaudeRelayWorld & Omit<X, 'relayOptions'>> {
  const tmp = tempDir(prefix);
  const api = await startMessagesApi({ apiKey: 'sk-test' });
  onCleanup(() => api.close());
  const home = path.join(tmp, 'home');
  const dataDir = path.join(tmp, 'data');
  fs.mkdirSync(home);
  const { relayOptions, ...extra } = lay(tmp);
  Object.assign(process.env, {
    HOME: home, ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: 'sk-test', DISABLE_TELEMETRY: '1', DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', CLAUDE_CODE_MAX_RETRIES: '0',
    COMMANDR_CLAUDE_BIN: CLAUDE_BIN, COMMANDR_AGENT_ADAPTER: 'claude',
  });
  const relay = await createRelay({
    port: 0, host: '127.0.0.1', dataDir, registryFile: path.join(tmp, 'no-registry'), demo: false, appDir: path.join(tmp, 'no-app'),
    ...relayOptions,
  });
  onCleanup(() => relay.close());
  const phone = await connectDevice(relay);
  onCleanup(() => phone.close());
  return { ...extra, api, relay, phone, tmp, home, dataDir };
}

/** claudeRelayWorld(prefix, lay) for the whole file: see useWorld. */
export function useClaudeRelayWorld<X extends object = {}>(
  prefix: string, lay: (tmp: string) => X & { relayOptions: Pick<RelayOptions, 'repos' | 'allowRoots'> },
): ClaudeRelayWorld & Omit<X, 'relayOptions'> {
  return useWorld(() => claudeRelayWorld(prefix, lay));
}
