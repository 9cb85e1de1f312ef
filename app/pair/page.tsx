'use client';
// Pairing: the code comes from the link `commandr pair` shows (#code=…); the person
// names this device; the key is made here and never leaves the browser.
// The pairing request (its schemas, the key store) and the client core are loaded
// when the person presses Pair, not with the screen (LAZY-1).
import { useRouter } from 'next/navigation';
import { useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '../components/Button';
import { sentence } from '../lib/errors';
import { Prose } from '../components/Prose';
import { NOT_A_CODE, PAIR_UNREACHABLE, codeFromHash, isPairingCode, pairingCodeFrom } from '../lib/pair-link';
import { appStore, useRelay, type AppState } from '../lib/store';
import { loadDevice } from '../lib/device-key';
import { takePairCopy } from '../lib/prepaint';
import Link from '../components/Link';

function guessName(): string {
  const ua = navigator.userAgent;
  const model = /Android [\d.]+; ([^;)]+)/.exec(ua)?.[1]?.trim();
  if (model && model !== 'K') return model;
  if (/iPhone/.test(ua)) return 'iPhone';
  if (/iPad/.test(ua)) return 'iPad';
  if (/Mac OS X/.test(ua)) return 'Mac';
  if (/Windows/.test(ua)) return 'Windows PC';
  return /Mobile/.test(ua) ? 'Phone' : 'Browser';
}

/** What the code field shows for what was typed or pasted: a whole pairing link is cut to its code. */
const shown = (typed: string) => (typed.includes('code=') ? pairingCodeFrom(typed) : typed);

/** Why this device is on Pair again (revoked, forgotten by the relay), if the relay said so. */
const selectUnpaired = (s: AppState) => s.connection.state === 'unpaired';
const selectDropped = (s: AppState) => (s.connection.state === 'unpaired' && s.connection.error?.code === 'E_UNAUTHORIZED' ? s.connection.error : null);

export default function PairPage() {
  const router = useRouter();
  const dropped = useRelay(selectDropped);
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  // The name this device gets if the person types none: shown as the field's placeholder, so
  // it never mixes with what they type — the form is on screen before the app runs (FIRST-1,
  // FIRST-10), and a guess written into the field as they typed would join their text.
  const [guess, setGuess] = useState('');
  const codeField = useRef<HTMLInputElement>(null);
  const nameField = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A device that already holds a key the relay has not refused: pairing it again would only
  // leave its current device behind on the relay, listed and unused (APP-1).
  const [pairedAs, setPairedAs] = useState<string | null>(null);
  const unpaired = useRelay(selectUnpaired);
  const alreadyPaired = pairedAs !== null && !unpaired && !busy;

  // An unpaired visit to another screen was shown a copy of this one before the app ran
  // (FASTPAIR-1): this screen takes its place in the same frame, with what was typed in it.
  useLayoutEffect(() => {
    const typed = takePairCopy();
    if (!typed) return;
    if (typed.code) setCode(shown(typed.code));
    if (typed.name) setName(typed.name);
    if (typed.focused) document.getElementById(typed.focused)?.focus();
  }, []);

  useEffect(() => {
    void loadDevice().then((device) => setPairedAs(device?.name ?? null), () => setPairedAs(null));
  }, []);

  useEffect(() => {
    const fromLink = () => {
      const linked = codeFromHash(location.hash);
      if (linked) setCode(linked);
    };
    // What was typed before the app took over the form is kept; a code in the link wins.
    if (codeField.current?.value) setCode(shown(codeField.current.value));
    if (nameField.current?.value) setName(nameField.current.value);
    fromLink();
    setGuess(guessName());
    addEventListener('hashchange', fromLink); // a pairing link opened while this screen is showing
    return () => removeEventListener('hashchange', fromLink);
  }, []);

  async function submit(e: FormEvent) {
    e.preventDefault();
    // A pasted link is cut down to its code, and what cannot be a code (too short, a stray
    // character) is explained here: the relay would only answer that it did not understand.
    const typed = pairingCodeFrom(code);
    if (!isPairingCode(typed)) {
      setError(NOT_A_CODE);
      return;
    }
    setCode(typed);
    setBusy(true);
    setError(null);
    try {
      // Both before pairing: once the code is spent nothing is left that could fail to load.
      // Loaded from the relay now: a relay that is down fails here, before anything was sent (QUEUE-1).
      const [{ pairDevice }, { getClient, startClient }] = await Promise.all([import('../lib/pairing'), import('../lib/client')])
        .catch(() => { throw { code: 'E_OFFLINE', message: PAIR_UNREACHABLE }; });
      await pairDevice({ code: typed, name: name.trim() || guess });
      history.replaceState(null, '', '/pair'); // the code is spent; keep it out of history
      appStore.dispatch({ type: 'local.error', error: null });
      (getClient() ?? startClient()).restart();
      router.replace('/');
    } catch (thrown) {
      setError(sentence(thrown));
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="pair-title" className="stack">
      <h1 id="pair-title" className="page-title">Pair this device</h1>
      <p className="muted" hidden={alreadyPaired} data-testid="pair-how">
        Run <code>commandr pair</code> on the computer where the relay runs and open the link it shows on this device,
        or type the code below. This device makes its own key; only the public half is sent to the relay.
      </p>
      {dropped ? <p className="card notice" role="status" data-testid="pair-dropped"><Prose text={sentence(dropped)} /></p> : null}
      {alreadyPaired ? (
        <div className="card notice stack" role="status" data-testid="pair-already">
          <p style={{ margin: 0 }}>
            This device is already paired as <strong>{pairedAs}</strong>. To pair it again, unpair it
            in <Link href="/settings">Settings</Link> first.
          </p>
          <Link href="/" className="btn" data-variant="primary" data-testid="pair-open-inbox">Open the Inbox</Link>
        </div>
      ) : null}
      <form hidden={alreadyPaired} onSubmit={submit} className="card" data-testid="pair-form">
        <div className="field">
          <label htmlFor="pair-code">Pairing code</label>
          <input id="pair-code" ref={codeField} data-testid="pair-code" value={code} onChange={(e) => setCode(shown(e.target.value))} autoComplete="one-time-code" required spellCheck={false} />
        </div>
        <div className="field">
          <label htmlFor="pair-name">Name for this device</label>
          <input id="pair-name" ref={nameField} data-testid="pair-name" value={name} onChange={(e) => setName(e.target.value)} placeholder={guess} maxLength={80} />
        </div>
        {error ? <p role="alert" className="card notice" data-tone="danger" data-testid="pair-error"><Prose text={error} /></p> : null}
        <Button type="submit" variant="primary" disabled={busy || !code.trim() || !(name.trim() || guess)} data-testid="pair-submit">
          {busy ? 'Pairing…' : 'Pair this device'}
        </Button>
      </form>
    </section>
  );
}
