// The service worker's push side (PUSH-4): shows each relay push as a notification
// (validated with protocol/wire/push), and answers its Approve/Deny/Allow buttons
// right in the worker — signed with the device key, bound to the digest the
// notification showed — so a person can decide from the lock screen without the app.
// Every change to the notifications under one tag (a push shown, a tap's confirmation, the
// page's close of a settled request) runs in the order it was asked, one at a time (ASK-9).
import type { ActionFrame } from '../../protocol/wire/frames';
import { NOTICE_PARAM, PushPayload } from '../../protocol/wire/push';
import { loadDevice } from '../lib/device-key';
import { toClientError } from '../lib/errors';
import { CLOSE_SETTLED } from '../lib/worker-messages';
import { newActionId, signAction, type UnsignedAction } from '../lib/sign';
import { sendActionOverHttp } from './http-action';

const ICON = '/icons/icon-192.png';
const SETTLED_TAG = /^(?:question|permission):[A-Za-z0-9_-]{1,128}$/;

/**
 * Runs each change to a tag's notifications after the ones asked before it. Chromium closes
 * a notification by its tag, so a close that read the list before a confirmation replaced
 * it would take the confirmation with it; in one queue the read and the close come before
 * the confirmation is shown, or after it, never around it.
 */
export type TagQueue = <T>(tag: string, change: () => Promise<T>) => Promise<T>;

export function createTagQueue(): TagQueue {
  const last = new Map<string, Promise<void>>();
  return (tag, change) => {
    const run = (last.get(tag) ?? Promise.resolve()).then(change);
    const done = run.then(() => undefined, () => undefined);
    last.set(tag, done);
    void done.then(() => { if (last.get(tag) === done) last.delete(tag); });
    return run;
  };
}

export function installPushHandlers(sw: ServiceWorkerGlobalScope): void {
  const underTag = createTagQueue();
  sw.addEventListener('push', (event) => event.waitUntil(showPush(sw.registration, event.data, underTag)));
  sw.addEventListener('notificationclick', (event) => {
    event.notification.close();
    keepAlive(event, handleClick(sw, event.notification, event.action, underTag));
  });
  sw.addEventListener('message', (event) => {
    const data = event.data as { type?: unknown; tag?: unknown } | null;
    if (data?.type !== CLOSE_SETTLED || typeof data.tag !== 'string' || !SETTLED_TAG.test(data.tag)) return;
    event.waitUntil(closeSettled(sw.registration, data.tag, underTag));
  });
}

/**
 * Closes the notification of a request settled while the app was on screen, if it still has
 * buttons (PUSH-5, ASK-9): one without (a tap's confirmation, the relay's quiet notice) stays.
 */
export function closeSettled(registration: ServiceWorkerRegistration, tag: string, underTag: TagQueue): Promise<void> {
  return underTag(tag, async () => {
    for (const n of await registration.getNotifications({ tag })) {
      if ((n as Notification & { actions?: unknown[] }).actions?.length) n.close();
    }
  });
}

/** waitUntil throws for a script-dispatched (untrusted) event; the work runs either way. */
function keepAlive(event: ExtendableEvent, work: Promise<void>): void {
  try {
    event.waitUntil(work);
  } catch {
    void work;
  }
}

/** Shows the payload; anything that is not a valid PushPayload becomes a plain "open the app" notice. */
export async function showPush(registration: ServiceWorkerRegistration, data: PushMessageData | null, underTag: TagQueue): Promise<void> {
  const payload = parsePayload(data);
  if (!payload) {
    await underTag('commandr', () => registration.showNotification('Commandr', { body: 'Something needs your attention.', tag: 'commandr', icon: ICON, data: { url: '/' } }));
    return;
  }
  const shown = fitActions(payload, maxActions());
  await underTag(payload.tag, () => registration.showNotification(payload.title, {
    body: shown.body,
    tag: payload.tag,
    // A settled request's notice replaces its notification without a sound (ASK-9).
    renotify: !payload.quiet,
    silent: payload.quiet === true,
    icon: ICON,
    badge: ICON,
    data: payload,
    actions: shown.actions.map((a) => ({ action: a.action, title: a.title })),
  } as NotificationOptions));
}

/** How many buttons this browser shows on a notification (Chromium: 2). */
function maxActions(): number {
  const n = (globalThis as { Notification?: { maxActions?: number } }).Notification?.maxActions;
  return typeof n === 'number' && n >= 0 ? n : Number.POSITIVE_INFINITY;
}

/**
 * The buttons the platform can show; a question's choices that get no button are
 * named in the body, so no choice silently disappears from the lock screen (ASK-4).
 */
export function fitActions(payload: PushPayload, max: number): { body: string; actions: PushPayload['actions'] } {
  const actions = payload.actions.slice(0, max);
  const cut = payload.actions.slice(actions.length).filter((a) => a.action.startsWith('choice-'));
  if (cut.length === 0) return { body: payload.body, actions };
  return { body: `${payload.body}\nMore choices in the app: ${cut.map((a) => a.title).join(' · ')}`, actions };
}

export function parsePayload(data: PushMessageData | null): PushPayload | null {
  if (!data) return null;
  let json: unknown;
  try {
    json = data.json();
  } catch {
    return null;
  }
  const parsed = PushPayload.safeParse(json);
  return parsed.success ? parsed.data : null;
}

async function handleClick(sw: ServiceWorkerGlobalScope, notification: Notification, action: string, underTag: TagQueue): Promise<void> {
  const parsed = PushPayload.safeParse(notification.data);
  if (!parsed.success) return openPage(sw, typeof notification.data?.url === 'string' ? notification.data.url : '/');
  const payload = parsed.data;
  const frame = actionFrameFor(payload, action);
  if (!frame) return openPage(sw, payload.url);
  const outcome = await postAction(frame);
  if (outcome.ok) {
    await underTag(payload.tag, () => sw.registration.showNotification(confirmationOf(frame, payload), { tag: payload.tag, icon: ICON, data: { url: payload.url }, silent: true } as NotificationOptions));
    return;
  }
  await openPage(sw, withNotice(payload.url, outcome.code));
}

/** The action a button stands for, or null for a tap on the body (or a button this payload cannot back). */
export function actionFrameFor(payload: PushPayload, action: string): UnsignedAction | null {
  const { repo, task, digest, request } = payload.data;
  const id = newActionId();
  if (payload.kind === 'approval_requested' && repo && task && digest) {
    if (action === 'approve') return { type: 'task.approve', id, repo, task, digest };
    if (action === 'deny') return { type: 'task.deny', id, repo, task, digest, reason: 'Denied from a notification' };
  }
  // An agent's question or action approval (ASK-4, ACTAPPROVE-2): its request id starts with `q-`.
  if (payload.kind === 'permission_request' && request?.startsWith('q-')) {
    const choice = /^choice-([0-2])$/.exec(action);
    if (choice) return { type: 'question.answer', id, request, via: 'choice', choice: Number(choice[1]) };
    if (action === 'approve' || action === 'deny') return { type: 'question.decide', id, request, decision: action };
    return null;
  }
  if (payload.kind === 'permission_request' && request) {
    if (action === 'allow') return { type: 'permission.decide', id, request, decision: 'allow' };
    if (action === 'deny') return { type: 'permission.decide', id, request, decision: 'deny' };
  }
  return null;
}

export function confirmationOf(frame: UnsignedAction, payload: PushPayload): string {
  const what = payload.data.task ?? 'the request';
  if (frame.type === 'task.approve') return `Approved ${what}`;
  if (frame.type === 'permission.decide') return frame.decision === 'deny' ? `Denied ${what}` : `Allowed ${what}`;
  if (frame.type === 'question.answer') return `Answered ${what}`;
  if (frame.type === 'question.decide') return frame.decision === 'approve' ? `Approved ${what}` : `Denied ${what}`;
  return `Denied ${what}`;
}

/** `url` with `notice=<code>` added, so the screen it opens says why the action did not go through. */
export function withNotice(url: string, code: string): string {
  const u = new URL(url, 'https://app.invalid');
  u.searchParams.set(NOTICE_PARAM, code);
  return `${u.pathname}${u.search}`;
}

type Outcome = { ok: true } | { ok: false; code: string };

async function postAction(unsigned: UnsignedAction): Promise<Outcome> {
  const device = await loadDevice().catch(() => null);
  if (!device) return { ok: false, code: 'E_NOT_PAIRED' };
  let frame: ActionFrame;
  try {
    frame = await signAction({ deviceId: device.deviceId, privateKey: device.privateKey }, unsigned);
  } catch {
    return { ok: false, code: 'E_INTERNAL' };
  }
  try {
    await sendActionOverHttp(frame, device.deviceId);
    return { ok: true };
  } catch (error) {
    return { ok: false, code: toClientError(error).code };
  }
}

/** Focuses an open window of the app on `url`, else opens one. */
async function openPage(sw: ServiceWorkerGlobalScope, url: string): Promise<void> {
  const target = new URL(url, sw.location.origin).href;
  const windows = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const open of windows) {
    const moved = await open.navigate(target).catch(() => null);
    if (moved) {
      await moved.focus().catch(() => undefined);
      return;
    }
  }
  await sw.clients.openWindow(target);
}
