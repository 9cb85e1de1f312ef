'use client';
// `/commanders`: every commander with its status (and machine, FLEETUI-1), and Start (CMDR-UI-1, -2).
import Link from 'next/link';
import { useState } from 'react';
import { Button } from '../components/Button';
import { EmptyState } from '../components/EmptyState';
import { useRelay, type AppState } from '../lib/store';
import { StartSheet } from './StartSheet';
import { MachineLabel } from '../components/MachineLabel';
import { commanderPlace } from '../lib/machine-list';
import { statusLabel, STATUS_TONE } from './status';
import { START_COMMANDER } from '../lib/words';

const selectCommanders = (s: AppState) => s.commanders;
const selectRoots = (s: AppState) => s.allowedRoots;
const selectFleet = (s: AppState) => s.machines;
const selectHome = (s: AppState) => s.home;

export default function CommandersPage() {
  const commanders = Object.values(useRelay(selectCommanders)).sort((a, b) => a.created.localeCompare(b.created));
  const roots = useRelay(selectRoots);
  // With member machines, each commander says which machine runs it (FLEETUI-1).
  const fleet = { machines: useRelay(selectFleet), home: useRelay(selectHome), repos: {} };
  const [starting, setStarting] = useState(false);
  return (
    <div data-testid="commanders">
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <h1 className="page-title">Commanders</h1>
        <Button variant="primary" onClick={() => setStarting(true)} data-testid="cmdr-new">{START_COMMANDER}</Button>
      </div>
      {commanders.length === 0 ? (
        <EmptyState title="No commanders yet">A commander is a long-running agent that looks after a folder for you. Press {START_COMMANDER} to give one a job.</EmptyState>
      ) : (
        <ul className="stack" style={{ listStyle: 'none', padding: 0 }}>
          {commanders.map((c) => { const place = commanderPlace(fleet, c.id); return (
            <li key={c.id}>
              <Link href={`/commander?id=${encodeURIComponent(c.id)}`} className="card task-card" data-testid="cmdr-card" data-id={c.id} data-status={c.status}>
                <h3>{c.name}</h3>
                <div className="task-meta">
                  <span className="pill" data-tone={STATUS_TONE[c.status]}>{statusLabel(c)}</span>
                  {place ? <MachineLabel place={place} /> : null}
                  <span className="mono wrap-anywhere">{c.referencePaths[0]}</span>
                  {c.referencePaths.length > 1 ? <span>+{c.referencePaths.length - 1} more</span> : null}
                </div>
                {c.status === 'waiting' && c.waitingFor ? <p className="muted" style={{ margin: '4px 0 0' }}>{c.waitingFor}</p> : null}
              </Link>
            </li>
          ); })}
        </ul>
      )}
      {starting ? <StartSheet roots={roots} onClose={() => setStarting(false)} /> : null}
    </div>
  );
}
