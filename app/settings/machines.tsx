'use client';
// Settings → Machines (FLEETUI-3): this relay (the home) and each member machine
// with its state, when it was last seen, its version, and Remove (owner devices
// only, FLEETUI-5). Lives in the Settings route's chunk, never in the Inbox's.
import { useState } from 'react';
import type { MachineState } from '../../protocol/wire/machines';
import { Button } from '../components/Button';
import { act } from '../lib/actions';
import { sentence } from '../lib/errors';
import { clock } from '../lib/clock';
import { reposOf } from '../lib/machine-list';
import { useRelay, type AppState } from '../lib/store';

const selectMachines = (s: AppState) => s.machines;
const selectHome = (s: AppState) => s.home;
const selectOwner = (s: AppState) => s.device?.owner === true;
const selectLive = (s: AppState) => s.connection.state === 'live';
const selectRepos = (s: AppState) => s.repos;

export function Machines() {
  const machines = Object.values(useRelay(selectMachines)).sort((a, b) => a.name.localeCompare(b.name));
  const home = useRelay(selectHome);
  const owner = useRelay(selectOwner);
  const live = useRelay(selectLive);
  const repos = useRelay(selectRepos);
  const [message, setMessage] = useState<string | null>(null);

  async function remove(m: MachineState) {
    setMessage(null);
    const outcome = await act('machine.remove', { machine: m.id });
    if (outcome.status === 'applied') return setMessage(`Removed ${m.name}. It needs a new join code to come back.`);
    // The relay's own words name the command to run instead (E_FORBIDDEN, E_NOT_FOUND).
    if (outcome.status === 'queued') return setMessage(`You are offline: removing ${m.name} is queued and will be sent when the connection is back.`);
    const e = outcome.error;
    setMessage(e.code === 'E_FORBIDDEN' || e.code === 'E_NOT_FOUND' ? `Not removed: ${e.message.replace(/^./, (c) => c.toUpperCase())}.` : sentence(e));
  }

  return (
    <div className="stack" data-testid="machines">
      {home ? (
        <div className="machine-row" data-testid="machine-home">
          <strong>{home.name}</strong> <span className="pill" data-tone="ok">This relay (home)</span>
          <div className="muted">Commandr {home.version}</div>
        </div>
      ) : null}
      {machines.length === 0 ? (
        <p className="muted">No other machine is joined. To add one, run <code>commandr machines add</code> on this relay’s machine and <code>commandr join</code> on the other (see the README).</p>
      ) : machines.map((m) => <MachineRow key={m.id} machine={m} repos={reposOf({ repos }, m).length} canRemove={owner && live} onRemove={() => remove(m)} />)}
      {machines.length > 0 && !owner ? <p className="muted" data-testid="machines-not-owner">Only an owner device can remove a machine; on the home you can run <code>commandr machines remove</code>.</p> : null}
      {machines.length > 0 && owner && !live ? <p className="muted">Removing a machine needs a connection to the relay.</p> : null}
      {message ? <p role="status" data-testid="machines-message">{message}</p> : null}
    </div>
  );
}

function MachineRow({ machine: m, repos: count, canRemove, onRemove }: { machine: MachineState; repos: number; canRemove: boolean; onRemove: () => Promise<void> }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const seen = m.online ? (m.since ? `linked since ${clock(new Date(m.since))}` : null)
    : m.lastSeen ?? m.since ? `last seen ${clock(new Date((m.lastSeen ?? m.since)!))}` : 'not seen since the home relay started';
  const repos = count === 1 ? '1 repository' : `${count} repositories`;
  return (
    <div className="machine-row" data-testid="machine-row" data-machine={m.id} data-online={m.online}>
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <span>
          <strong>{m.name}</strong>{' '}
          <span className="pill" data-tone={m.online ? 'ok' : 'warn'} data-testid="machine-state">{m.online ? 'Online' : 'Offline'}</span>
        </span>
        {confirming ? null : <Button variant="danger" disabled={!canRemove} onClick={() => setConfirming(true)} aria-label={`Remove ${m.name}`} data-testid="machine-remove">Remove</Button>}
      </div>
      <div className="muted" data-testid="machine-detail">
        {/* Each part kept whole on a narrow screen or at 200 % text. */}
        {[seen, m.version ? `Commandr ${m.version}` : 'version unknown', repos].filter(Boolean).map((part, i) => (
          <span key={i}>{i > 0 ? ' · ' : ''}<span style={{ whiteSpace: 'nowrap' }}>{part}</span></span>
        ))}
      </div>
      {confirming ? (
        <div className="stack" role="group" aria-label={`Remove ${m.name}?`} style={{ marginTop: 8 }}>
          <p>Remove <strong>{m.name}</strong>? Its link closes, its tasks leave this app, and it needs a new join code to come back.</p>
          <div className="row">
            <Button variant="danger" disabled={busy} data-testid="machine-remove-confirm"
              onClick={() => { setBusy(true); void onRemove().finally(() => { setBusy(false); setConfirming(false); }); }}>Remove {m.name}</Button>
            <Button disabled={busy} onClick={() => setConfirming(false)}>Cancel</Button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
