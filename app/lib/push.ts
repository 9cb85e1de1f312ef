// Web Push on this device, for the Settings screen: whether it can work here (and a
// sentence when it cannot), turning it on (permission is asked only then), off,
// and saving which kinds to get and the quiet hours. Subscriptions are signed
// actions (push.subscribe / push.unsubscribe / push.prefs) like every other change.
//
// API:
//   pushSupport()        → {ok:true} | {ok:false, reason}   (no prompt, safe on first load)
//   currentSubscription()→ PushSubscription | null
//   enablePush(prefs)    → asks permission, subscribes with the relay's VAPID key, tells the relay
//   disablePush()        → unsubscribes here and on the relay
//   savePushPrefs(prefs) → push.prefs; loadPrefs()/storePrefs() keep them on this device too
import { PushKeyResponse } from '../../protocol/wire/push';
import { PUSH_KINDS, type PushKind, type PushPrefs, type PushSubscriptionJSON } from '../../protocol/wire/views';
import { act } from './actions';
import { sentence } from './errors';

export type Support = { ok: true } | { ok: false; reason: string };

const PREFS_KEY = 'commandr.push.prefs';

export const DEFAULT_PREFS: PushPrefs = {
  kinds: Object.fromEntries(PUSH_KINDS.map((k) => [k, true])) as Record<PushKind, boolean>,
  dnd: null,
};

export const KIND_LABELS: Record<PushKind, string> = {
  approval_requested: 'A change waits for your approval',
  council_verdict: 'The council has a verdict',
  task_done: 'A task finished or failed',
  commander_waiting: 'A commander is waiting for you',
  permission_request: 'An agent asks permission for a tool',
};

function isIos(): boolean {
  return /iPad|iPhone|iPod/.test(navigator.userAgent) || (navigator.platform === 'MacIntel' && navigator.maxTouchPoints > 1);
}

function isStandalone(): boolean {
  return (navigator as Navigator & { standalone?: boolean }).standalone === true || matchMedia('(display-mode: standalone)').matches;
}

export function pushSupport(): Support {
  if (typeof window === 'undefined') return { ok: false, reason: 'Notifications are checked when the app opens.' };
  if (!window.isSecureContext) {
    return { ok: false, reason: 'Notifications need the relay on an HTTPS address. Start it with --tls-cert and --tls-key, or behind Tailscale serve, and open the app from there.' };
  }
  if (isIos() && !isStandalone()) {
    return { ok: false, reason: 'On iPhone and iPad, notifications work only from the home screen: tap Share, then “Add to Home Screen”, and open Commandr from there.' };
  }
  if (!('serviceWorker' in navigator)) return { ok: false, reason: 'This browser has no service workers, so it cannot receive notifications.' };
  if (!('PushManager' in window) || !('Notification' in window)) return { ok: false, reason: 'This browser cannot receive push notifications.' };
  if (Notification.permission === 'denied') {
    return { ok: false, reason: 'Notifications are blocked for this site. Allow them in the browser’s site settings, then come back here.' };
  }
  return { ok: true };
}

/** The worker registration once it is really `activated` (`ready` resolves while it is still activating). */
async function activeRegistration(): Promise<ServiceWorkerRegistration> {
  const registration = await navigator.serviceWorker.ready;
  const worker = registration.active;
  if (worker && worker.state !== 'activated') {
    await new Promise<void>((resolve) => {
      const check = () => {
        if (worker.state === 'activated') {
          worker.removeEventListener('statechange', check);
          resolve();
        }
      };
      worker.addEventListener('statechange', check);
      check();
    });
  }
  return registration;
}

export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupport().ok) return null;
  return (await activeRegistration()).pushManager.getSubscription();
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const bin = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(bin.length));
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Said when the relay cannot be reached to turn notifications on (QUEUE-1): not the browser's "Failed to fetch". */
export const PUSH_RELAY_UNREACHABLE = 'Could not reach the relay, so notifications are still off. Check that the relay is running and reachable, then try again.';

async function relayKey(): Promise<Uint8Array<ArrayBuffer>> {
  const response = await fetch('/api/push/key', { cache: 'no-store' }).catch(() => {
    throw new Error(PUSH_RELAY_UNREACHABLE);
  });
  const parsed = PushKeyResponse.safeParse(await response.json().catch(() => null));
  if (!response.ok || !parsed.success) throw new Error('The relay did not give its notification key. Check that it is running and reachable, then try again.');
  return keyBytes(parsed.data.publicKey);
}

function sameKey(subscription: PushSubscription, key: Uint8Array): boolean {
  const current = subscription.options.applicationServerKey;
  if (!current) return false;
  const a = new Uint8Array(current);
  return a.length === key.length && a.every((b, i) => b === key[i]);
}

/** Asks for permission (only here, when the person turned notifications on), subscribes, tells the relay. */
export async function enablePush(prefs: PushPrefs): Promise<void> {
  const support = pushSupport();
  if (!support.ok) throw new Error(support.reason);
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new Error('Notifications were not allowed. Allow them in the browser’s site settings to turn them on.');
  const [registration, key] = await Promise.all([activeRegistration(), relayKey()]);
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameKey(subscription, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  const outcome = await act('push.subscribe', { subscription: subscription.toJSON() as PushSubscriptionJSON, prefs });
  if (outcome.status === 'refused') throw new Error(sentence(outcome.error));
  storePrefs(prefs);
}

export async function disablePush(): Promise<void> {
  const subscription = await currentSubscription();
  await subscription?.unsubscribe();
  const outcome = await act('push.unsubscribe', {});
  if (outcome.status === 'refused') throw new Error(sentence(outcome.error));
}

export async function savePushPrefs(prefs: PushPrefs): Promise<void> {
  storePrefs(prefs);
  const outcome = await act('push.prefs', { prefs });
  if (outcome.status === 'refused') throw new Error(sentence(outcome.error));
}

export function loadPrefs(): PushPrefs {
  try {
    const saved = JSON.parse(localStorage.getItem(PREFS_KEY) ?? 'null') as PushPrefs | null;
    if (saved && typeof saved === 'object' && saved.kinds) return { kinds: { ...DEFAULT_PREFS.kinds, ...saved.kinds }, dnd: saved.dnd ?? null };
  } catch {
    /* a broken saved value falls back to the defaults */
  }
  return DEFAULT_PREFS;
}

function storePrefs(prefs: PushPrefs): void {
  try {
    localStorage.setItem(PREFS_KEY, JSON.stringify(prefs));
  } catch {
    /* private mode: prefs still reach the relay */
  }
}

/** The device's offset for the relay's DND check: minutes to add to UTC to get local time. */
export function localOffsetMinutes(now: Date = new Date()): number {
  return -now.getTimezoneOffset();
}
