// A member machine for the app's fleet screens (FLEETUI-n): a temp git repo made
// bus-ready with the real `commandr init`, its own relay on port 0 with its own data
// dir and machine key, joined to `home` with a real one-time code. Shared by
// e2e/fleet-machines.spec.ts and scripts/screenshots.ts.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRelay, type Relay } from '../relay/server';
import { createJoinCode } from '../relay/fleet/machines';
import { joinHome } from '../relay/fleet/member';

export interface Member {
  relay: Relay;
  /** The machine id the home gave it (`m-<16 hex>`). */
  machine: string;
  /** Stops its relay (the home then marks it offline); safe to call twice. */
  stop(): Promise<void>;
  /** Stops it and deletes its files. */
  close(): Promise<void>;
}

export async function startMember(home: Relay, name: string, repoName: string, packets: Array<[id: string, title: string]>): Promise<Member> {
  const tmp = mkdtempSync(path.join(tmpdir(), `commandr-member-${name}-`));
  const repo = path.join(tmp, repoName);
  const env = { ...process.env, HOME: tmp, AGENTS_INDEX_REPOS: path.join(tmp, 'registry'), GIT_AUTHOR_NAME: 'e2e', GIT_AUTHOR_EMAIL: 'e2e@example.com', GIT_COMMITTER_NAME: 'e2e', GIT_COMMITTER_EMAIL: 'e2e@example.com' };
  const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { cwd: repo, env, stdio: 'pipe' });
  mkdirSync(repo);
  run('git', ['init', '-q', '-b', 'main']);
  writeFileSync(path.join(repo, 'README.md'), `# ${repoName}\n`);
  run('git', ['add', '.']);
  run('git', ['commit', '-q', '-m', 'initial']);
  run(path.resolve(__dirname, '..', 'bin', 'commandr'), ['init']);
  for (const [id, title] of packets) {
    writeFileSync(path.join(repo, '.agents', 'inbox', `${id}.md`),
      `---\nid: ${id}\ntype: implementation\nscope: src/**\n---\n# ${title}\n\n## Context\nfleet\n\n## Acceptance criteria\n- works\n\n## Files to touch\n- src/x.js\n\n## Do not touch\n- .agents/\n`);
  }
  const relay = await createRelay({ port: 0, host: '127.0.0.1', dataDir: path.join(tmp, 'data'), repos: [repo], registryFile: path.join(tmp, 'registry') });
  const { code } = createJoinCode(home.dataDir, name);
  // The member's relay notices the home record and holds the link from then on (FLEET-3).
  const joined = await joinHome(relay.dataDir, home.url, code, name);
  let stopped: Promise<void> | undefined;
  const stop = () => (stopped ??= relay.close().catch(() => undefined));
  return {
    relay, machine: joined.machine, stop,
    async close() {
      await stop();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}
