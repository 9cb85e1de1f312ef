// A world for `commandr mcp` tests: a real git repo with a bus, a worktree on
// `agent/T-1` whose packet is claimed, a real relay on port 0 watching the repo,
// and the real server (dist/mcp.cjs) spoken to through the official SDK client.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { initRepo } from '../../bus/init';
import { createRelay, type Relay } from '../../relay/server';
import { connectDevice, type DeviceClient } from '../helpers/device';

export const ROOT = path.resolve(__dirname, '..', '..');
/** What `wire` registers: this node, `bin/commandr mcp`. */
export const COMMANDR_BIN = path.join(ROOT, 'bin', 'commandr');
export const TASK = 'T-1';

export function packetText(id: string): string {
  return ['---', `id: ${id}`, 'type: implementation', 'scope: "src/**"', '---', '## Context', 'c', '## Acceptance criteria', 'a', '## Files to touch', 'f', '## Do not touch', 'd', ''].join('\n');
}

export class McpWorld {
  readonly dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'commandr-mcp-')));
  readonly repo = path.join(this.dir, 'repo');
  readonly bus = path.join(this.repo, '.agents');
  readonly worktree = path.join(this.dir, 'wt-T-1');
  readonly dataDir = path.join(this.dir, 'commandr-home');
  readonly home = path.join(this.dir, 'home');
  relay!: Relay;
  private clients: Client[] = [];

  constructor() {
    fs.mkdirSync(this.repo);
    fs.mkdirSync(this.home);
    this.git(['init', '-q', '-b', 'main']);
    fs.writeFileSync(path.join(this.repo, 'README.md'), 'hello\n');
    this.git(['add', 'README.md']);
    this.git(['commit', '-q', '-m', 'init']);
    initRepo(this.repo, { gateBin: path.join(ROOT, 'bin', 'pre-commit-gate'), registryFile: path.join(this.home, 'repos') });
    this.git(['worktree', 'add', '-q', '-b', `agent/${TASK}`, this.worktree]);
    fs.writeFileSync(path.join(this.bus, 'claimed', `host_1_${TASK}.md`), packetText(TASK));
  }

  git(args: string[], cwd = this.repo): string {
    return execFileSync('git', args, { cwd, encoding: 'utf8', env: { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@commandr.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@commandr.invalid', ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: this.home } });
  }

  async startRelay(): Promise<Relay> {
    this.relay = await createRelay({
      port: 0, host: '127.0.0.1', demo: false, repos: [this.repo], dataDir: this.dataDir,
      registryFile: path.join(this.dataDir, 'no-registry'), appDir: path.join(this.dataDir, 'no-app'),
    });
    return this.relay;
  }

  /** The environment an agent session of task T-1 would give the server. */
  env(extra: Record<string, string | undefined> = {}): Record<string, string> {
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '', HOME: this.home, COMMANDR_HOME: this.dataDir, GIT_CONFIG_NOSYSTEM: '1',
      ...(this.relay ? { COMMANDR_URL: this.relay.url } : {}),
    };
    for (const [k, v] of Object.entries(extra)) {
      if (v === undefined) delete env[k];
      else env[k] = v;
    }
    return env;
  }

  /**
   * Starts the server in `cwd` and connects the SDK client to it over stdio: `node bin/commandr mcp`
   * (the Node server), or with `asAgent` the file itself as `.mcp.json` starts it (sh, then the
   * pipe to the relay's server when a relay runs, else the Node server: MCP-ONE-2, MCP-ONE-6).
   */
  async connect(options: { cwd?: string; env?: Record<string, string | undefined>; asAgent?: boolean } = {}): Promise<Client> {
    const [command, args] = options.asAgent ? [COMMANDR_BIN, ['mcp']] : [process.execPath, [COMMANDR_BIN, 'mcp']];
    const transport = new StdioClientTransport({ command, args, cwd: options.cwd ?? this.worktree, env: this.env(options.env), stderr: 'pipe' });
    const client = new Client({ name: 'commandr-test', version: '0.0.0' });
    await client.connect(transport);
    this.clients.push(client);
    return client;
  }

  events(): Array<Record<string, unknown>> {
    const file = path.join(this.bus, 'events.jsonl');
    if (!fs.existsSync(file)) return [];
    return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  }

  async close(): Promise<void> {
    for (const client of this.clients.splice(0)) await client.close().catch(() => {});
    await this.relay?.close();
    // Detached hooks of a real CLI run may still be finishing in the dir: retry the removal for a while.
    for (let i = 0; ; i++) {
      try {
        fs.rmSync(this.dir, { recursive: true, force: true });
        return;
      } catch (error) {
        if (i >= 100) throw error;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }
}

export function textOf(result: unknown): string {
  const content = (result as CallToolResult).content ?? [];
  return content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

export const PNG_1x1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** A world with its relay running and a phone paired and subscribed, as every MCP test starts. */
export async function worldWithPhone(): Promise<{ world: McpWorld; phone: DeviceClient }> {
  const world = new McpWorld();
  await world.startRelay();
  const phone = await connectDevice(world.relay, 'pixel');
  await phone.request({ type: 'subscribe' });
  return { world, phone };
}
