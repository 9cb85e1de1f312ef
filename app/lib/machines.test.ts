// Machine labels and the offline reason (FLEETUI-1, FLEETUI-2), and the store's
// machine frames, on the pure functions the screens use.
import { describe, expect, it } from 'vitest';
import type { MachineState } from '../../protocol/wire/machines';
import type { RepoInfo } from '../../protocol/wire/views';
import { sentence } from './errors';
import { clock } from './clock';
import { offlineReason, placeOf } from './machines';
import { commanderPlace, reposOf } from './machine-list';
import { initialState, persistable, reduce } from './store';

const laptop: MachineState = { id: 'm-0123456789abcdef', name: 'laptop', online: true, since: '2026-12-01T09:00:00.000Z', repos: ['01234567.api-aaaaaaaa'], version: '0.1.0', lastSeen: '2026-12-01T09:05:00.000Z' };
const repo = (id: string, name: string) => ({ id, name }) as RepoInfo;

function state() {
  let s = initialState();
  s = reduce(s, { type: 'machine.home', home: { name: 'desk', version: '0.1.0' } });
  s = { ...s, repos: { 'repo-bbbbbbbb': repo('repo-bbbbbbbb', 'repo'), '01234567.api-aaaaaaaa': repo('01234567.api-aaaaaaaa', 'laptop/api'), '01234567.web-cccccccc': repo('01234567.web-cccccccc', 'laptop/web') } };
  return reduce(s, { type: 'machine.state', machine: laptop });
}

describe('machine labels', () => {
  it('FLEETUI-1: no members, no label; with one, a member repo reads "<machine> · <repo>" and a home repo carries the home name', () => {
    expect(placeOf({ ...initialState(), repos: { r: repo('r', 'repo') } }, 'r')).toBeNull();
    const s = state();
    expect(placeOf(s, '01234567.api-aaaaaaaa')).toEqual({ machine: 'laptop', repo: 'api', offline: null });
    // A repo the machine.state does not list yet is still placed by its label.
    expect(placeOf(s, '01234567.web-cccccccc')).toEqual({ machine: 'laptop', repo: 'web', offline: null });
    expect(placeOf(s, 'repo-bbbbbbbb')).toEqual({ machine: 'desk', repo: 'repo', offline: null });
    expect(reposOf(s, laptop).sort()).toEqual(['01234567.api-aaaaaaaa', '01234567.web-cccccccc']);
    // Commanders: a `<8 hex>.` prefix names the member, anything else is the home's.
    expect(commanderPlace(s, '01234567.c-abc123')).toEqual({ machine: 'laptop', repo: null, offline: null });
    expect(commanderPlace(s, 'c-abc123')).toEqual({ machine: 'desk', repo: null, offline: null });
  });

  it('FLEETUI-2: an offline member is marked with when it was last seen; its tasks stay; the relay’s E_UNAVAILABLE reason is shown as is', () => {
    // Last seen at 09:05 today in the phone's time, so the label is the bare clock whatever day the test runs.
    const at = new Date();
    at.setHours(9, 5, 0, 0);
    const s = reduce(state(), { type: 'machine.state', machine: { ...laptop, online: false, lastSeen: at.toISOString() } });
    // VOCAB-7: the time in the person's locale, as app/lib/clock.ts formats every time.
    const hhmm = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' }).format(at);
    expect(placeOf(s, '01234567.api-aaaaaaaa')?.offline).toBe(`laptop offline · last seen ${hhmm}`);
    expect(offlineReason({ name: 'laptop', lastSeen: null, since: null })).toBe('laptop offline · not seen since the home relay started');
    expect(clock(at, new Date(at.getTime() + 3 * 86_400_000))).toBe(new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' }).format(at));
    expect(s.repos['01234567.api-aaaaaaaa']).toBeDefined();
    expect(sentence({ code: 'E_UNAVAILABLE', message: 'laptop is offline; task.approve was not sent (nothing is queued), try again when it is back' }))
      .toBe('Not done: laptop is offline; task.approve was not sent (nothing is queued), try again when it is back.');
  });

  it('FLEETUI-5: machine.removed forgets the machine; machines and the home are saved for offline use', () => {
    const s = state();
    expect(persistable(s)).toMatchObject({ machines: { [laptop.id]: laptop }, home: { name: 'desk' } });
    const gone = reduce(s, { type: 'machine.removed', machine: laptop.id });
    expect(gone.machines).toEqual({});
    expect(placeOf(gone, 'repo-bbbbbbbb')).toBeNull();
  });
});
