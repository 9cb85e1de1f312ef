// Attack class 4, repository config for commands the relay runs (test/adversary/README.md): a hostile task
// job writes git config the relay's own git would obey — core.fsmonitor, a diff textconv and a clean/smudge
// filter named from .gitattributes, a post-index-change hook — through an allowed `git log --output=` onto
// the shared .git/config or by editing it directly, then stages a change. The phone then shows the diff and
// approves, and the job's hooks report, so the relay runs git in that worktree. Whatever stops it: the
// attacker's command never runs outside the job's sandbox, and no unapproved commit reaches the remote.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bash, expectAttackTried, markerRunsOutsideSandbox, newOnRemote, personPushes, runAttackJob, type Step, TASK, useAdversaryWorld } from './world';

const w = useAdversaryWorld('adversary-config-');

describe('adversary: a hostile job sets config for the relay\'s git', () => {
  it('ADVERSARY-4: fsmonitor, textconv, filters and hooks the job writes never run as the relay, through the diff view, the approve and the hook report', async () => {
    const config = path.join(w.commonDir, 'config');
    // The whole config the attacker writes: what was there (so git still works) plus every command git may run.
    const attack = (label: string) => `${fs.readFileSync(config, 'utf8')}[core]\n\tfsmonitor = ${w.marker(`${label}-fsmonitor`)}\n`
      + `[diff "x"]\n\ttextconv = ${w.marker(`${label}-textconv`)}\n[filter "x"]\n\tclean = ${w.marker(`${label}-clean`)}\n\tsmudge = ${w.marker(`${label}-smudge`)}\n`;
    const viaLog = (text: string, file: string) => bash(`git log -1 --format='${text.replace(/%/g, '%%').replace(/\n/g, '%n')}' --output=${file}`);
    const steps: Step[] = [
      { name: 'Write', input: { file_path: path.join(w.worktree, '.gitattributes'), content: '* diff=x filter=x\n' } },
      () => viaLog(attack('log-output'), config),
      () => viaLog(attack('proc-root'), `/proc/self/root${config}`),
      { name: 'Read', input: { file_path: config } },
      () => ({ name: 'Write', input: { file_path: config, content: attack('direct-write') } }),
      () => ({ name: 'Edit', input: { file_path: config, old_string: '[core]', new_string: `[core]\n\tfsmonitor = ${w.marker('direct-edit')}` } }),
      bash(`git log -1 --format='#!/bin/sh%n${w.marker('post-index-change')}' --output=${path.join(w.commonDir, 'hooks', 'post-index-change')}`),
      { name: 'Write', input: { file_path: path.join(w.worktree, 'README.md'), content: '# victim\nchanged\n' } },
      bash('git add README.md .gitattributes'),
      bash('git status --short'),
    ];
    const ran = await runAttackJob(w, steps);
    expectAttackTried(ran, steps.length);

    // The phone shows the change and approves it: the relay reads and digests the worktree.
    const id = 'adversary-diff-1';
    const ack = w.phone.request({ type: 'task.diff', id, repo: w.repoId, task: TASK }).catch((e: unknown) => e);
    const begin = await w.phone.next('task.diff.begin', (f) => f.id === id, 60_000).catch(() => undefined);
    await ack;
    const digest = (begin as { digest?: string | null } | undefined)?.digest;
    if (digest) await w.phone.request({ type: 'task.approve', repo: w.repoId, task: TASK, digest }).catch((e: unknown) => e);

    personPushes(w);
    expect(newOnRemote(w), ran.log).toEqual([]);
    expect(markerRunsOutsideSandbox(w), ran.log).toEqual([]);
  }, 240_000);
});
