// The gate's trust comes from git's config files, never from variables an agent
// sets for its own commit (APPROVAL-3, APPROVAL-6, INIT-4): real repos, the real
// hooks `commandr init` installed, real `git commit`.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOrCreateSigningKey, publicKeyFile } from '../../bus/approval/keys';
import { repoKeyOf, signApproval } from '../../bus/approval/sign';
import { writeSignedToken } from '../../bus/gate';
import { digestOf } from '../../bus/digest';
import { type World, useInstall } from './harness';

const fixture = useInstall();

function commit(w: World, env: Record<string, string> = {}, args: string[] = []): { code: number | null; stderr: string } {
  const r = spawnSync('git', [...args, 'commit', '-q', '-m', 'change'], { cwd: w.repo, env: { ...w.env, ...env }, encoding: 'utf8' });
  return { code: r.status, stderr: r.stderr };
}

/** On branch agent/T-1 with one staged change. */
function agentWorld(options: { init?: boolean } = {}): World {
  const w = fixture.world(options);
  w.git(['checkout', '-q', '-b', 'agent/T-1']);
  fs.writeFileSync(path.join(w.repo, 'a.txt'), 'evil\n');
  w.git(['add', 'a.txt']);
  return w;
}

/** Signs an approval of exactly what is staged with the key pair in `dataDir` (as a relay, or an agent posing as one). */
function signStaged(w: World, dataDir: string): void {
  const key = loadOrCreateSigningKey(dataDir);
  const patch = spawnSync('git', ['diff', '--cached', '--binary', '--no-color', '--no-ext-diff'], { cwd: w.repo, env: w.env }).stdout;
  const claim = {
    v: 1 as const, repo: repoKeyOf(w.repo), task: 'T-1', base: w.git(['rev-parse', 'HEAD']).trim(), tree: w.git(['write-tree']).trim(),
    digest: digestOf(patch), by: 'test', ts: new Date().toISOString(),
  };
  writeSignedToken(w.bus, signApproval(claim, key));
}

const emptyToken = (w: World): void => fs.writeFileSync(path.join(w.bus, 'approvals', 'T-1.approved'), '');

describe('the gate reads its trust from config files only', () => {
  it('APPROVAL-3: `git -c commandr.plainTokens=true commit` (GIT_CONFIG_PARAMETERS) does not make an empty token pass', () => {
    const world = agentWorld();
    emptyToken(world);
    const r = commit(world, {}, ['-c', 'commandr.plainTokens=true']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('not signed by the relay');
    expect(world.git(['log', '--format=%s'])).not.toContain('change');
  });

  it('APPROVAL-3: GIT_CONFIG_COUNT/KEY/VALUE and GIT_CONFIG_GLOBAL naming plainTokens do not make an empty token pass', () => {
    const world = agentWorld();
    emptyToken(world);
    const agentConfig = path.join(world.dir, 'agent-gitconfig');
    fs.writeFileSync(agentConfig, '[commandr]\n\tplainTokens = true\n');
    expect(commit(world, { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'commandr.plainTokens', GIT_CONFIG_VALUE_0: 'true' }).code).toBe(1);
    expect(commit(world, { GIT_CONFIG_GLOBAL: agentConfig }).code).toBe(1);
    expect(commit(world, { GIT_CONFIG_SYSTEM: agentConfig, GIT_CONFIG_NOSYSTEM: '0' }).code).toBe(1);
    // The person's own config file still opts in (repo config here).
    world.git(['config', 'commandr.plainTokens', 'true']);
    expect(commit(world).code).toBe(0);
  });

  it('APPROVAL-6: a token the agent signed itself does not pass through GIT_CONFIG_COUNT naming its key as commandr.approvalKey', () => {
    const world = agentWorld();
    const agentDir = path.join(world.dir, 'agent-key');
    signStaged(world, agentDir);
    const r = commit(world, { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'commandr.approvalKey', GIT_CONFIG_VALUE_0: publicKeyFile(agentDir) });
    expect(r.code).toBe(1);
    expect(world.git(['log', '--format=%s'])).not.toContain('change');
    const viaParams = commit(world, {}, ['-c', `commandr.approvalKey=${publicKeyFile(agentDir)}`]);
    expect(viaParams.code).toBe(1);
  });

  it('INIT-4 APPROVAL-6: init records the relay\'s key as commandr.approvalKey, so COMMANDR_HOME set for one commit cannot swap in the agent\'s key', () => {
    const world = agentWorld({ init: false });
    const relayDir = path.join(world.dir, 'relay-data');
    loadOrCreateSigningKey(relayDir);
    const init = world.tool('commandr', ['init'], { env: { COMMANDR_HOME: relayDir } });
    expect(init.code, init.stderr).toBe(0);
    expect(world.git(['config', '--local', 'commandr.approvalKey']).trim()).toBe(publicKeyFile(relayDir));
    const again = world.tool('commandr', ['init'], { env: { COMMANDR_HOME: relayDir } });
    expect(again.stderr).not.toContain('init: wrote');

    const agentDir = path.join(world.dir, 'agent-key');
    signStaged(world, agentDir);
    const r = commit(world, { COMMANDR_HOME: agentDir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('not a trusted relay key');

    signStaged(world, relayDir);
    const ok = commit(world, { COMMANDR_HOME: agentDir });
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
  });

  it('INIT-4: init leaves a commandr.approvalKey the person set, and records nothing when the relay has no key yet', () => {
    const world = fixture.world({ init: false });
    const r = world.tool('commandr', ['init'], { env: { COMMANDR_HOME: path.join(world.dir, 'no-relay-yet') } });
    expect(r.code).toBe(0);
    expect(spawnSync('git', ['config', '--local', 'commandr.approvalKey'], { cwd: world.repo, env: world.env }).status).toBe(1);
    const relayDir = path.join(world.dir, 'relay-data');
    loadOrCreateSigningKey(relayDir);
    world.git(['config', 'commandr.approvalKey', '/srv/relay/public.pem']);
    expect(world.tool('commandr', ['init'], { env: { COMMANDR_HOME: relayDir } }).code).toBe(0);
    expect(world.git(['config', '--local', 'commandr.approvalKey']).trim()).toBe('/srv/relay/public.pem');
  });
});
