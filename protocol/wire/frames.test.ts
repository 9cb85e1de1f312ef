// Accept/reject tables for the relay ⇄ client frames (WIRE-6): each row is a
// frame and whether the schema must take it.
import { describe, expect, it } from 'vitest';
import { ActionFrame, ClientFrame, isActionType, MAX_FRAME_BYTES, ServerFrame } from './frames';

const id = 'act_0123456789';
const act = { id, ts: 1_700_000_000_000, sig: 'c2ln' };
const repo = 'commandr-0123abcd';
const digest = `sha256:${'a'.repeat(64)}`;

const clientRows: [string, unknown, boolean][] = [
  ['auth.response', { type: 'auth.response', device: 'd-0123456789abcdef', sig: 'c2ln' }, true],
  ['auth.response without sig', { type: 'auth.response', device: 'd-0123456789abcdef' }, false],
  ['auth.response with a 1 KiB sig', { type: 'auth.response', device: 'd-1', sig: 'x'.repeat(1024) }, false],
  ['subscribe', { type: 'subscribe', id }, true],
  ['subscribe with cursors', { type: 'subscribe', id, cursors: { [repo]: { offset: 10, epoch: '1:2' } } }, true],
  ['subscribe with a negative cursor', { type: 'subscribe', id, cursors: { [repo]: { offset: -1, epoch: '1:2' } } }, false],
  ['subscribe with a bad repo key', { type: 'subscribe', id, cursors: { '../x': { offset: 0, epoch: '' } } }, false],
  ['device.list', { type: 'device.list', id }, true],
  ['device.list without id', { type: 'device.list' }, false],
  ['read with a short id', { type: 'device.list', id: 'short' }, false],
  ['read with a slash in its id', { type: 'device.list', id: 'abc/defgh' }, false],
  ['task.diff', { type: 'task.diff', id, repo, task: 'T-1' }, true],
  ['task.diff with a traversing task', { type: 'task.diff', id, repo, task: '../T-1' }, false],
  ['task.diff with a dot-leading task', { type: 'task.diff', id, repo, task: '.hidden' }, false],
  ['task.detail with a bad repo', { type: 'task.detail', id, repo: 'commandr', task: 'T-1' }, false],
  ['client.visibility', { type: 'client.visibility', id, visible: false }, true],
  ['client.visibility with a string', { type: 'client.visibility', id, visible: 'no' }, false],
  ['commander.output', { type: 'commander.output', id, commander: 'c-abc123' }, true],
  ['commander.output with a bad commander', { type: 'commander.output', id, commander: 'C-ABC123' }, false],
  ['task.approve', { type: 'task.approve', ...act, repo, task: 'T-1', digest }, true],
  ['task.approve unsigned', { type: 'task.approve', id, ts: 1, repo, task: 'T-1', digest }, false],
  ['task.approve with a float ts', { type: 'task.approve', ...act, ts: 1.5, repo, task: 'T-1', digest }, false],
  ['task.approve with a short digest', { type: 'task.approve', ...act, repo, task: 'T-1', digest: 'sha256:abc' }, false],
  ['task.deny with reason', { type: 'task.deny', ...act, repo, task: 'T-1', digest, reason: 'no' }, true],
  ['task.annotate', { type: 'task.annotate', ...act, repo, task: 'T-1', turn: 3, anchor: 'a.ts:10', body: 'why?' }, true],
  ['task.annotate with a negative turn', { type: 'task.annotate', ...act, repo, task: 'T-1', turn: -1, anchor: 'a', body: 'b' }, false],
  ['task.run', { type: 'task.run', ...act, repo, task: 'T-1', mode: 'review' }, true],
  ['task.run with an unknown mode', { type: 'task.run', ...act, repo, task: 'T-1', mode: 'yolo' }, false],
  ['commander.create', { type: 'commander.create', ...act, name: 'ops', referencePath: '/srv/ops' }, true],
  ['commander.create with an empty name', { type: 'commander.create', ...act, name: '', referencePath: '/srv' }, false],
  ['commander.message empty', { type: 'commander.message', ...act, commander: 'c-abc123', text: '' }, false],
  ['permission.decide', { type: 'permission.decide', ...act, request: 'r1', decision: 'allow-session' }, true],
  ['permission.decide with a bad decision', { type: 'permission.decide', ...act, request: 'r1', decision: 'maybe' }, false],
  ['device.rename', { type: 'device.rename', ...act, device: 'd-0123456789abcdef', name: 'phone' }, true],
  ['device.revoke', { type: 'device.revoke', ...act, device: 'd-0123456789abcdef' }, true],
  ['push.subscribe over http', {
    type: 'push.subscribe', ...act, subscription: { endpoint: 'http://push.example', keys: { p256dh: 'a', auth: 'b' } },
    prefs: { kinds: {}, dnd: null },
  }, false],
  ['push.unsubscribe', { type: 'push.unsubscribe', ...act }, true],
  ['UX-4 task.run with an agent', { type: 'task.run', ...act, repo, task: 'T-1', mode: 'work', agent: 'opencode' }, true],
  ['UX-4 task.run with a traversing agent', { type: 'task.run', ...act, repo, task: 'T-1', mode: 'work', agent: '../x' }, false],
  ['UX-3 task.create', { type: 'task.create', ...act, repo, packet: { id: 'T-2', type: 'research', scope: 'docs/**', title: 'Look', context: '', acceptance: 'a\nb' } }, true],
  ['UX-3 task.create with a two-line scope', { type: 'task.create', ...act, repo, packet: { id: 'T-2', type: 'research', scope: 'a\nid: x', title: 'Look', context: '', acceptance: '' } }, false],
  ['UX-3 task.create with an unknown type', { type: 'task.create', ...act, repo, packet: { id: 'T-2', type: 'chore', scope: 'a', title: 'Look', context: '', acceptance: '' } }, false],
  ['UX-5 job.stop', { type: 'job.stop', ...act, job: 'j-0123456789ab' }, true],
  ['UX-5 job.stop with a bad job id', { type: 'job.stop', ...act, job: 'j-../x' }, false],
  ['UX-6 commander.create with an agent and a first message', { type: 'commander.create', ...act, name: 'ops', referencePath: '/srv', agent: 'claude', message: 'hi' }, true],
  ['unknown type', { type: 'task.delete', ...act }, false],
  ['no type', { id }, false],
  ['an array', [], false],
  ['null', null, false],
];

const serverRows: [string, unknown, boolean][] = [
  ['auth.challenge', { type: 'auth.challenge', nonce: 'n', relay: { version: '0.1.0' } }, true],
  ['auth.ok', { type: 'auth.ok', device: { id: 'd-1', name: 'p', createdAt: 't', lastSeenAt: null, current: true, push: false } }, true],
  ['ack without result', { type: 'ack', id }, true],
  ['ack with result', { type: 'ack', id, result: { any: 1 } }, true],
  ['error', { type: 'error', id, error: { code: 'E_BAD_FRAME', message: 'x' } }, true],
  ['error without id', { type: 'error', error: { code: 'E_UNAUTHORIZED', message: 'x' } }, true],
  ['error with an unknown code', { type: 'error', error: { code: 'E_WHATEVER', message: 'x' } }, false],
  ['live.event', { type: 'live.event', at: 't', event: { v: 1, session: 's', kind: 'edit', summary: 'x' } }, true],
  ['live.event v2', { type: 'live.event', at: 't', event: { v: 2, session: 's', kind: 'edit', summary: 'x' } }, false],
  ['relay.lagged', { type: 'relay.lagged', dropped: 3 }, true],
  ['relay.lagged without count', { type: 'relay.lagged' }, false],
];

describe('wire frames', () => {
  it.each(clientRows)('WIRE-6: client frame %s', (_name, frame, ok) => {
    expect(ClientFrame.safeParse(frame).success).toBe(ok);
  });

  it.each(serverRows)('WIRE-6: server frame %s', (_name, frame, ok) => {
    expect(ServerFrame.safeParse(frame).success).toBe(ok);
  });

  it('WIRE-6: isActionType names exactly the signed frames', () => {
    expect(isActionType('task.approve')).toBe(true);
    expect(isActionType('device.revoke')).toBe(true);
    expect(isActionType('device.list')).toBe(false);
    expect(isActionType('subscribe')).toBe(false);
    expect(isActionType(undefined)).toBe(false);
    expect(ActionFrame.safeParse({ type: 'device.list', id }).success).toBe(false);
  });

  it('WIRE-3: the frame limit is 1 MiB', () => {
    expect(MAX_FRAME_BYTES).toBe(1_048_576);
  });
});
