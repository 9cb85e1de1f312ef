// The tests that watch a process's system calls need strace (`.ci/run` installs it): without it
// they fail, saying what to install, rather than skip and pass unseen.
import { spawnSync } from 'node:child_process';
import { expect } from 'vitest';

export function expectStrace(): void {
  expect(spawnSync('strace', ['-V'], { stdio: 'ignore' }).status, 'this test needs strace (apt-get install strace)').toBe(0);
}
