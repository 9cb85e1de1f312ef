// Accept/reject rows for the machine frames (WIRE-6, FLEETUI-4, FLEETUI-5): what a
// home tells its devices about machines, the device's machine.remove, and the
// version a member reports on its link.
import { describe, expect, it } from 'vitest';
import { MemberFrame } from './fleet';
import { ClientFrame, isActionType, ServerFrame } from './frames';

const act = { id: 'act_0123456789', ts: 1_700_000_000_000, sig: 'c2ln' };
const machine = 'm-0123456789abcdef';
const state = { id: machine, name: 'laptop', online: false, since: null, repos: ['01234567.api-0123abcd'] };
const b64 = (n: number) => 'A'.repeat(n);

const rows: [string, typeof ClientFrame | typeof ServerFrame | typeof MemberFrame, unknown, boolean][] = [
  ['machine.remove', ClientFrame, { type: 'machine.remove', ...act, machine }, true],
  ['machine.remove unsigned', ClientFrame, { type: 'machine.remove', id: act.id, machine }, false],
  ['machine.remove with a path for an id', ClientFrame, { type: 'machine.remove', ...act, machine: '../machines.json' }, false],
  ['machine.state from an older home (no version, no lastSeen)', ServerFrame, { type: 'machine.state', machine: state }, true],
  ['machine.state with version and lastSeen', ServerFrame, { type: 'machine.state', machine: { ...state, version: '0.1.0', lastSeen: '2026-12-01T05:00:00.000Z' } }, true],
  ['machine.state with nulls', ServerFrame, { type: 'machine.state', machine: { ...state, version: null, lastSeen: null } }, true],
  ['machine.state with a 65-char version', ServerFrame, { type: 'machine.state', machine: { ...state, version: 'v'.repeat(65) } }, false],
  ['machine.removed', ServerFrame, { type: 'machine.removed', machine }, true],
  ['machine.removed with a bad id', ServerFrame, { type: 'machine.removed', machine: 'laptop' }, false],
  ['machine.home', ServerFrame, { type: 'machine.home', home: { name: 'desk', version: '0.1.0' } }, true],
  ['machine.home with a name that is not a machine name', ServerFrame, { type: 'machine.home', home: { name: 'my desk/', version: '0.1.0' } }, false],
  ['fleet.auth with a version', MemberFrame, { type: 'fleet.auth', machine, nonce: b64(43), sig: b64(86), version: '0.1.0' }, true],
  ['fleet.auth from an older member (no version)', MemberFrame, { type: 'fleet.auth', machine, nonce: b64(43), sig: b64(86) }, true],
  ['fleet.auth with a 65-char version', MemberFrame, { type: 'fleet.auth', machine, nonce: b64(43), sig: b64(86), version: 'v'.repeat(65) }, false],
];

describe('machine frames', () => {
  it.each(rows)('FLEETUI-4 FLEETUI-5: %s', (_name, schema, frame, ok) => {
    expect(schema.safeParse(frame).success).toBe(ok);
  });
  it('FLEETUI-5: machine.remove is an action (signed, at most once)', () => {
    expect(isActionType('machine.remove')).toBe(true);
  });
});
