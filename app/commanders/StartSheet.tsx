'use client';
// Start a commander: a name, one reference path (CMDR-UI-2), the agent it runs on
// for good and, optionally, the first thing to tell it (UX-6). With member machines,
// also which machine runs it (FLEETUI-6): on a member the path is typed, not picked.
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import type { CommanderView } from '../../protocol/wire/views';
import { Button } from '../components/Button';
import { Prose } from '../components/Prose';
import { Sheet } from '../components/Sheet';
import { act } from '../lib/actions';
import { AGENTS } from '../lib/agents';
import { AGENT_RUN_FAILURE, START_COMMANDER } from '../lib/words';
import { VoiceInput } from '../components/voice/VoiceInput';
import { sentence } from '../lib/errors';
import { useRelay, type AppState } from '../lib/store';
import { ReferencePicker } from './ReferencePicker';
import { typedPathProblem } from './status';

const selectFleet = (s: AppState) => s.machines;
const selectHome = (s: AppState) => s.home;

export function StartSheet({ roots, onClose }: { roots: string[]; onClose(): void }) {
  const router = useRouter();
  const [name, setName] = useState('');
  const [homePath, setHomePath] = useState<string | null>(null);
  // '' is the home; else a member's machine id (FLEETUI-6).
  const [machine, setMachine] = useState('');
  const [typed, setTyped] = useState('');
  const fleet = useRelay(selectFleet);
  const homeName = useRelay(selectHome)?.name ?? 'home';
  const members = Object.values(fleet).sort((a, b) => a.name.localeCompare(b.name));
  const member = machine ? fleet[machine] : undefined;
  // A chosen member that went offline or was removed meanwhile: never fall back to the home silently.
  const memberProblem = !machine ? null : !member ? 'That machine was removed. Choose another.' : member.online ? null : `${member.name} is offline. Choose another machine or wait until it is back.`;
  const typedProblem = typedPathProblem(typed);
  const path = machine ? (typed.trim() && !typedProblem ? typed.trim() : null) : homePath;
  const [agent, setAgent] = useState('');
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // CMDRFAIL-3: the start the agent was not ready for, sent again as it was by Retry.
  const [refused, setRefused] = useState<Parameters<typeof send>[0] | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!path || !name.trim() || memberProblem) return;
    await send({
      name: name.trim(), referencePath: path, ...(agent ? { agent } : {}), ...(message.trim() ? { message: message.trim() } : {}),
      ...(machine ? { machine } : {}),
    });
  }

  async function send(request: { name: string; referencePath: string; agent?: string; message?: string; machine?: string }) {
    setBusy(true);
    setRefused(null);
    const outcome = await act('commander.create', request);
    setBusy(false);
    if (outcome.status === 'applied') {
      const created = (outcome.result as { commander?: CommanderView } | undefined)?.commander;
      onClose();
      if (created) router.push(`/commander?id=${encodeURIComponent(created.id)}`);
    } else if (outcome.status === 'queued') {
      setError('You are offline: the commander will be started when the connection is back.');
    } else {
      // RUNREADY-2: a not-ready agent's sentence already says what to do, once.
      const said = outcome.error.code === 'E_NOT_READY' ? ` ${AGENT_RUN_FAILURE.notStarted}` : outcome.error.message ? ` (${outcome.error.message})` : '';
      setError(sentence(outcome.error) + said);
      if (outcome.error.code === 'E_NOT_READY') setRefused(request);
    }
  }

  return (
    <Sheet title={START_COMMANDER} onClose={onClose} testId="start-sheet">
      <form onSubmit={submit}>
        <div className="field">
          <label htmlFor="cmdr-name">Name</label>
          <input id="cmdr-name" value={name} maxLength={80} onChange={(e) => setName(e.target.value)} required data-testid="cmdr-name" />
        </div>
        {members.length > 0 ? (
          <div className="field">
            <label htmlFor="cmdr-machine">Machine</label>
            <select id="cmdr-machine" value={machine} onChange={(e) => setMachine(e.target.value)} data-testid="cmdr-machine">
              <option value="">{homeName}</option>
              {members.map((m) => <option key={m.id} value={m.id} disabled={!m.online}>{m.online ? m.name : `${m.name} · offline`}</option>)}
            </select>
            {memberProblem ? <span role="alert" className="muted" data-testid="cmdr-machine-problem">{memberProblem}</span> : null}
          </div>
        ) : null}
        {machine ? (
          <div className="field">
            <label htmlFor="cmdr-path">Folder it works on{member ? ` (on ${member.name})` : ''}</label>
            <input id="cmdr-path" value={typed} onChange={(e) => setTyped(e.target.value)} placeholder="e.g. /home/me/code/api" autoCapitalize="off" autoCorrect="off" spellCheck={false} data-testid="cmdr-path" aria-describedby="cmdr-path-hint" />
            <span id="cmdr-path-hint" className="muted" data-testid="cmdr-path-hint">
              Type a full path on {member?.name ?? 'that machine'}. The phone is not sent which folders it allows: it checks the path itself.
            </span>
            {typedProblem ? <span role="alert" className="muted">{typedProblem}</span> : null}
          </div>
        ) : <ReferencePicker roots={roots} onChange={setHomePath} />}
        <div className="field">
          <label htmlFor="cmdr-agent">Agent</label>
          <select id="cmdr-agent" value={agent} onChange={(e) => setAgent(e.target.value)} data-testid="cmdr-agent">
            <option value="">The relay’s default</option>
            {AGENTS.map((a) => <option key={a.id} value={a.id}>{a.label}</option>)}
          </select>
        </div>
        <VoiceInput id="cmdr-first-message" label="First message (optional)" value={message} onChange={setMessage} rows={3} testId="cmdr-first-message" />
        {/* The buttons stay in view at the sheet's foot (ROOM-8); after a refusal, its sentence sits with them and
            Retry is the one main button (Start commander sends the fields as they are now). */}
        <div className="row sheet-footer">
          {error ? <p role="alert" className="sheet-footer-note" data-testid="start-error"><Prose text={error} /></p> : null}
          {refused ? <Button variant="primary" disabled={busy} onClick={() => void send(refused)} data-testid="start-retry">{AGENT_RUN_FAILURE.retry}</Button> : null}
          <Button type="submit" variant={refused ? undefined : 'primary'} disabled={busy || !path || !name.trim() || !!memberProblem} data-testid="cmdr-start">{START_COMMANDER}</Button>
          <Button onClick={onClose}>Cancel</Button>
        </div>
      </form>
    </Sheet>
  );
}
