// FLEETX-4: a forwarded council is not reported unanswered while the member's council still runs.
import { describe, expect, it } from 'vitest';
import { DEFAULT_TIMEOUT_MS } from '../../bus/council/evaluators';
import { COUNCIL_FORWARD_TIMEOUT_MS, FORWARD_TIMEOUT_MS, forwardTimeoutMs } from '../../protocol/wire/fleet';

describe('forward timeouts', () => {
  it('FLEETX-4: the home waits for a forwarded task.council longer than the council evaluators may take; every other frame keeps FORWARD_TIMEOUT_MS', () => {
    expect(forwardTimeoutMs('task.council')).toBe(COUNCIL_FORWARD_TIMEOUT_MS);
    expect(COUNCIL_FORWARD_TIMEOUT_MS).toBeGreaterThan(DEFAULT_TIMEOUT_MS);
    for (const type of ['task.approve', 'task.diff', 'task.run', 'commander.create', 'permission.decide']) expect(forwardTimeoutMs(type)).toBe(FORWARD_TIMEOUT_MS);
  });
});
