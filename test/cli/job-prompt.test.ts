// The job prompt's way to finish works as written (CLIHELP-5): the command it names is
// `commandr complete` by absolute path, run by bash with a PATH that holds neither
// `commandr` nor node, and it moves the claimed packet to done/. The bare `complete` the
// prompt used to name is a bash builtin: exit 0, nothing moved. Needs dist/ built.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claimNext } from '../../bus/claim';
import { jobPrompt } from '../../relay/jobs/prompt';
import { busRepo, type BusRepo } from '../helpers/bus-repo';

const ROOT = path.join(__dirname, '..', '..');
let made: BusRepo | undefined;

afterEach(() => {
  if (made) fs.rmSync(made.dir, { recursive: true, force: true });
  made = undefined;
});

/** A PATH that holds git and nothing else: neither commandr nor node. */
function gitOnlyPath(dir: string): string {
  const bin = path.join(dir, 'path-bin');
  fs.mkdirSync(bin);
  const git = spawnSync('/bin/sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
  fs.symlinkSync(git, path.join(bin, 'git'));
  return bin;
}

/** The two commands the prompt gives for finishing: [pass, fail]. */
function finishCommands(prompt: string): string[] {
  const m = /run `([^`]+ pass)` \(or `([^`]+ fail)`/.exec(prompt);
  expect(m, prompt).not.toBeNull();
  return [m![1]!, m![2]!];
}

describe('the job prompt', () => {
  it('CLIHELP-5: names `commandr complete` by absolute path, and that command, run by bash without commandr or node on PATH, moves the packet to done/', async () => {
    made = busRepo('job-prompt-', { inbox: ['T-1'], commit: true });
    const claimed = await claimNext(made.bus);
    expect(claimed?.task).toBe('T-1');
    const prompt = jobPrompt({ task: 'T-1', mode: 'work', packet: claimed!.path }, made.repo);
    const [pass, fail] = finishCommands(prompt);
    expect(pass).toContain(`${path.join(ROOT, 'bin', 'commandr')} complete ${claimed!.path} pass`);
    expect(fail).toBe(pass.replace(/ pass$/, ' fail'));
    expect(pass).not.toMatch(/^complete /);
    // A job's PATH need hold neither commandr nor node.
    const env = { PATH: gitOnlyPath(made.dir), HOME: made.dir } as unknown as NodeJS.ProcessEnv; // Next's global types make NODE_ENV required
    expect(spawnSync('/bin/bash', ['-c', 'command -v node || command -v commandr'], { env }).status).not.toBe(0);
    const ran = spawnSync('/bin/bash', ['-c', pass], { cwd: made.repo, env, encoding: 'utf8' });
    expect(ran.status, ran.stderr).toBe(0);
    const done = path.join(made.bus, 'done', path.basename(claimed!.path));
    expect(ran.stdout).toBe(`done:${done}\n`);
    expect(fs.existsSync(done)).toBe(true);
    expect(fs.existsSync(claimed!.path)).toBe(false);
  });

  it('CLIHELP-5: a packet path with a space or a quote stays one shell word', async () => {
    made = busRepo('job prompt \'q\' ', { inbox: ['T-2'], commit: true });
    const claimed = await claimNext(made.bus);
    const [, fail] = finishCommands(jobPrompt({ task: 'T-2', mode: 'work', packet: claimed!.path }, made.repo));
    const ran = spawnSync('/bin/bash', ['-c', fail], { cwd: made.repo, env: { PATH: gitOnlyPath(made.dir), HOME: made.dir } as unknown as NodeJS.ProcessEnv, encoding: 'utf8' });
    expect(ran.status, ran.stderr).toBe(0);
    expect(fs.existsSync(path.join(made.bus, 'done', path.basename(claimed!.path)))).toBe(true);
    const events = fs.readFileSync(path.join(made.bus, 'events.jsonl'), 'utf8');
    expect(events).toMatch(/"event":"task_complete"[^\n]*"result":"fail"/);
  });

  it('CLIHELP-5: a review job is told to end with a verdict, not to complete anything', () => {
    made = busRepo('job-prompt-', { inbox: ['T-3'] });
    const prompt = jobPrompt({ task: 'T-3', mode: 'review', packet: path.join(made.bus, 'inbox', 'T-3.md') }, made.repo);
    expect(prompt).toContain('VERDICT: pass');
    expect(prompt).not.toMatch(/complete/);
  });

  it('JOB-8: a packet swapped for a link to a file outside its bus (the approval key) puts nothing of that file in the prompt', () => {
    made = busRepo('job-prompt-', { inbox: ['T-4', 'T-5'] });
    const secret = path.join(made.dir, 'private.pem');
    fs.writeFileSync(secret, '-----BEGIN PRIVATE KEY-----\nTHE-KEY\n', { mode: 0o600 });
    const packet = path.join(made.bus, 'inbox', 'T-4.md');
    fs.rmSync(packet);
    fs.symlinkSync(secret, packet);
    const prompt = jobPrompt({ task: 'T-4', mode: 'work', packet }, made.repo);
    expect(prompt).not.toContain('THE-KEY');
    expect(prompt).toContain('outside the bus');
    // A link that stays inside the bus is still read.
    const inside = path.join(made.bus, 'inbox', 'T-5.md');
    const moved = path.join(made.bus, 'inbox', 'T-5.real');
    fs.renameSync(inside, moved);
    fs.symlinkSync(moved, inside);
    expect(jobPrompt({ task: 'T-5', mode: 'work', packet: inside }, made.repo)).toContain(fs.readFileSync(moved, 'utf8'));
  });
});
