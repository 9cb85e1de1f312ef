'use client';
// Settings → Notifications: on/off (the browser's permission prompt appears only
// when the person turns this on), which kinds to get, and quiet hours. When push
// cannot work here it says why in one sentence instead of showing a dead switch. A browser
// whose push service is missing or does not answer is only found out by subscribing: then the
// switch turns off and locks, and one sentence says why (ROOM-9).
import { useEffect, useState } from 'react';
import { PUSH_KINDS, type PushKind, type PushPrefs } from '../../protocol/wire/views';
import {
  KIND_LABELS, currentSubscription, disablePush, enablePush, loadPrefs, localOffsetMinutes, pushSupport, savePushPrefs, type Support,
} from '../lib/push';

type State = { phase: 'checking'; installing?: boolean } | { phase: 'unavailable'; reason: string } | { phase: 'ready'; enabled: boolean } | { phase: 'no-service' };

/** Said when the browser has no push service to subscribe with (ROOM-9). */
export const NO_PUSH_SERVICE = 'This browser has no push service to deliver notifications, so this device cannot get them here.';
/** How long subscribing may take before the push service counts as not answering. */
const SUBSCRIBE_PATIENCE_MS = 20_000;
/** Found out once per page: visiting Settings again shows the locked switch straight away. */
let noPushService = false;

/** A subscribe that failed for want of a push service (Chromium: AbortError "push service not available"). */
function isNoService(error: unknown): boolean {
  const e = error as { name?: string; message?: string } | null;
  return e?.name === 'AbortError' || /push service/i.test(e?.message ?? '');
}

/** How long the check waits for the app's worker before saying what it is waiting for. */
const WORKER_PATIENCE_MS = 3_000;
const NO_WORKER = 'The app’s background worker is not running here (it did not register), so this device cannot get notifications. Reload the page to try again.';

export function Notifications() {
  const [state, setState] = useState<State>({ phase: 'checking' });
  const [prefs, setPrefs] = useState<PushPrefs>(() => (typeof window === 'undefined' ? { kinds: {} as PushPrefs['kinds'], dnd: null } : loadPrefs()));
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);

  useEffect(() => {
    const support: Support = pushSupport();
    if (!support.ok) return setState({ phase: 'unavailable', reason: support.reason });
    if (noPushService) return setState({ phase: 'no-service' });
    let live = true;
    currentSubscription()
      .then((sub) => live && setState({ phase: 'ready', enabled: sub !== null && Notification.permission === 'granted' }))
      .catch(() => live && setState({ phase: 'ready', enabled: false }));
    // The check waits for the worker to be active; with no worker at all it would wait forever.
    const patience = setTimeout(() => {
      void navigator.serviceWorker.getRegistration().then((registration) => {
        if (!live) return;
        setState((now) => (now.phase !== 'checking' ? now
          : registration ? { phase: 'checking', installing: true } : { phase: 'unavailable', reason: NO_WORKER }));
      });
    }, WORKER_PATIENCE_MS);
    return () => { live = false; clearTimeout(patience); };
  }, []);

  async function run(work: () => Promise<void>, done: string) {
    setBusy(true);
    setMessage(null);
    try {
      await work();
      setMessage(done);
    } catch (error) {
      setMessage((error as Error).message);
      const support = pushSupport();
      if (!support.ok) setState({ phase: 'unavailable', reason: support.reason });
    } finally {
      setBusy(false);
    }
  }

  function toggle(on: boolean) {
    setState({ phase: 'ready', enabled: on }); // the switch follows the finger; it flips back if this fails
    setBusy(true);
    setMessage(on ? 'Turning notifications on…' : null);
    void (async () => {
      try {
        if (on) await withPatience(enablePush(prefs));
        else await disablePush();
        setMessage(on ? 'Notifications are on for this device.' : 'Notifications are off for this device.');
      } catch (error) {
        if (on && isNoService(error)) {
          noPushService = true;
          setState({ phase: 'no-service' });
          setMessage(null);
          return;
        }
        setState({ phase: 'ready', enabled: !on });
        setMessage((error as Error).message);
        const support = pushSupport();
        if (!support.ok) setState({ phase: 'unavailable', reason: support.reason });
      } finally {
        setBusy(false);
      }
    })();
  }

  function update(next: PushPrefs) {
    setPrefs(next);
    if (state.phase === 'ready' && state.enabled) void run(() => savePushPrefs(next), 'Saved.');
  }

  const setKind = (kind: PushKind, on: boolean) => update({ ...prefs, kinds: { ...prefs.kinds, [kind]: on } });
  const setQuiet = (dnd: PushPrefs['dnd']) => update({ ...prefs, dnd });

  if (state.phase === 'checking') {
    return <p className="muted" data-testid="notifications-checking">{state.installing ? 'The app is still installing its background worker; notifications can be set up once it has finished…' : 'Checking whether this device can get notifications…'}</p>;
  }
  if (state.phase === 'unavailable') return <p className="muted" data-testid="notifications-unavailable">{state.reason}</p>;
  if (state.phase === 'no-service') {
    return (
      <div className="stack" data-testid="notifications">
        <label className="toggle">
          <input type="checkbox" role="switch" checked={false} disabled aria-describedby="no-push-service" data-testid="notifications-toggle" />
          <span>Notify this device</span>
        </label>
        <p className="muted" id="no-push-service" role="status" data-testid="notifications-no-service">{NO_PUSH_SERVICE}</p>
      </div>
    );
  }
  return (
    <div className="stack" data-testid="notifications">
      <label className="toggle">
        <input type="checkbox" role="switch" checked={state.enabled} disabled={busy} onChange={(e) => toggle(e.target.checked)} data-testid="notifications-toggle" />
        <span>Notify this device</span>
      </label>
      {/* What to notify about and quiet hours only matter to a device that gets notifications: while
          "Notify this device" is off they are dimmed and locked, so no switch looks as if it would notify (PUSH-6). */}
      {state.enabled ? null : (
        <p className="muted field-help" data-testid="notification-prefs-off">These apply once notifications are on for this device.</p>
      )}
      <fieldset className="stack notify-prefs" disabled={busy || !state.enabled} data-testid="notification-kinds">
        <legend>What to notify about</legend>
        {PUSH_KINDS.map((kind) => (
          <label className="toggle" key={kind}>
            <input type="checkbox" role="switch" checked={prefs.kinds[kind] !== false} onChange={(e) => setKind(kind, e.target.checked)} data-testid={`notify-${kind}`} />
            <span>{KIND_LABELS[kind]}</span>
          </label>
        ))}
      </fieldset>
      <fieldset className="stack notify-prefs" disabled={busy || !state.enabled} data-testid="quiet-hours">
        <legend>Quiet hours</legend>
        <label className="toggle">
          <input
            type="checkbox"
            role="switch"
            checked={prefs.dnd !== null}
            onChange={(e) => setQuiet(e.target.checked ? { start: '22:00', end: '07:00', tzOffsetMinutes: localOffsetMinutes() } : null)}
            data-testid="quiet-toggle"
          />
          <span>Do not disturb between</span>
        </label>
        {prefs.dnd ? (
          <div className="row">
            <label>From <input type="time" value={prefs.dnd.start} onChange={(e) => setQuiet({ ...prefs.dnd!, start: e.target.value, tzOffsetMinutes: localOffsetMinutes() })} data-testid="quiet-start" /></label>
            <label>to <input type="time" value={prefs.dnd.end} onChange={(e) => setQuiet({ ...prefs.dnd!, end: e.target.value, tzOffsetMinutes: localOffsetMinutes() })} data-testid="quiet-end" /></label>
          </div>
        ) : null}
      </fieldset>
      {message ? <p role="status" data-testid="notifications-message">{message}</p> : null}
    </div>
  );
}

/** A subscribe that never settles is a push service that does not answer (ROOM-9). */
function withPatience<T>(work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(NO_PUSH_SERVICE), { name: 'AbortError' })), SUBSCRIBE_PATIENCE_MS);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
