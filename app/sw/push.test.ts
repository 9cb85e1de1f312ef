// The worker's pure push helpers: which signed frame a notification button becomes,
// the confirmation text, and the notice added when an action failed.
import { describe, expect, it } from 'vitest';
import type { PushPayload } from '../../protocol/wire/push';
import { actionFrameFor, closeSettled, confirmationOf, createTagQueue, fitActions, parsePayload, showPush, withNotice, type TagQueue } from './push';

const digest = `sha256:${'a'.repeat(64)}`;
const approval: PushPayload = {
  v: 1, kind: 'approval_requested', tag: 'task:app-0123abcd:T-7', title: 'Approve T-7 in app?', body: '1 file changed',
  url: '/task?repo=app-0123abcd&id=T-7', actions: [{ action: 'approve', title: 'Approve' }, { action: 'deny', title: 'Deny' }],
  data: { repo: 'app-0123abcd', task: 'T-7', digest },
};
const permission: PushPayload = {
  v: 1, kind: 'permission_request', tag: 'permission:p1', title: 'Bash needs your OK', body: 'rm -rf build', url: '/?request=p1',
  actions: [{ action: 'allow', title: 'Allow' }, { action: 'deny', title: 'Deny' }], data: { request: 'p1' },
};
const data = (value: unknown) => ({ json: () => (typeof value === 'string' ? JSON.parse(value) : value) }) as unknown as PushMessageData;

describe('service worker push helpers', () => {
  it('PUSH-4: Approve and Deny become task.approve / task.deny bound to the digest the notification carried', () => {
    expect(actionFrameFor(approval, 'approve')).toMatchObject({ type: 'task.approve', repo: 'app-0123abcd', task: 'T-7', digest });
    expect(actionFrameFor(approval, 'deny')).toMatchObject({ type: 'task.deny', repo: 'app-0123abcd', task: 'T-7', digest });
    expect(actionFrameFor(approval, '')).toBeNull();
    expect(actionFrameFor({ ...approval, data: { repo: 'app-0123abcd', task: 'T-7' } }, 'approve')).toBeNull();
    expect(actionFrameFor(permission, 'allow')).toMatchObject({ type: 'permission.decide', request: 'p1', decision: 'allow' });
    expect(actionFrameFor(permission, 'deny')).toMatchObject({ type: 'permission.decide', request: 'p1', decision: 'deny' });
    expect(actionFrameFor(permission, 'approve')).toBeNull();
  });

  it('PUSH-4: success says what was done; failure opens the screen with notice=<code>', () => {
    expect(confirmationOf(actionFrameFor(approval, 'approve')!, approval)).toBe('Approved T-7');
    expect(confirmationOf(actionFrameFor(approval, 'deny')!, approval)).toBe('Denied T-7');
    expect(withNotice(approval.url, 'E_STALE_DIGEST')).toBe('/task?repo=app-0123abcd&id=T-7&notice=E_STALE_DIGEST');
  });

  it('ASK-4: a question\'s choices beyond the buttons the platform shows are named in the body; other pushes keep theirs', () => {
    const question: PushPayload = {
      ...permission, tag: 'question:q-0123456789abcdef0123', title: 'T-1 asks you', body: 'Which database?', data: { request: 'q-0123456789abcdef0123' },
      actions: [{ action: 'choice-0', title: 'sqlite' }, { action: 'choice-1', title: 'redis' }, { action: 'choice-2', title: 'postgres' }],
    };
    expect(fitActions(question, 2)).toEqual({ body: 'Which database?\nMore choices in the app: postgres', actions: question.actions.slice(0, 2) });
    expect(fitActions(question, 1).body).toBe('Which database?\nMore choices in the app: redis · postgres');
    expect(fitActions(question, Number.POSITIVE_INFINITY)).toEqual({ body: 'Which database?', actions: question.actions });
    expect(fitActions(permission, 1)).toEqual({ body: 'rm -rf build', actions: permission.actions.slice(0, 1) });
  });

  it('ASK-9: a settled request\'s quiet push replaces its notification (same tag) silently and with no buttons; others ring again', async () => {
    const shown: { title: string; options: NotificationOptions & { renotify?: boolean; actions?: unknown[] } }[] = [];
    const registration = { showNotification: async (title: string, options: NotificationOptions) => void shown.push({ title, options }) } as unknown as ServiceWorkerRegistration;
    const settled: PushPayload = { ...permission, tag: 'question:q-0123456789abcdef0123', title: 'Answered by Desk · T-1', body: 'Which database?', actions: [], quiet: true };
    const underTag = createTagQueue();
    await showPush(registration, data(JSON.stringify(permission)), underTag);
    await showPush(registration, data(JSON.stringify(settled)), underTag);
    expect(shown.map((n) => [n.title, n.options.tag, n.options.silent, n.options.renotify, n.options.actions?.length])).toEqual([
      [permission.title, permission.tag, false, true, permission.actions.length],
      ['Answered by Desk · T-1', settled.tag, true, false, 0],
    ]);
  });

  it('ASK-9: the page\'s close of a settled request and a tap\'s confirmation under the same tag run one after the other, so the confirmation stays', async () => {
    // Chromium's semantics: one notification per tag (showing replaces), getNotifications answers
    // later with what was shown when it was asked, and close() closes whatever the tag shows then.
    const tray = new Map<string, { title: string; actions: unknown[] }>();
    const registration = {
      showNotification: async (title: string, options: NotificationOptions & { actions?: unknown[] }) => void tray.set(options.tag!, { title, actions: options.actions ?? [] }),
      getNotifications: ({ tag }: { tag: string }) => {
        const listed = tray.has(tag) ? [{ ...tray.get(tag)!, close: () => void tray.delete(tag) }] : [];
        return new Promise((resolve) => setTimeout(() => resolve(listed), 0));
      },
    } as unknown as ServiceWorkerRegistration;
    const tag = 'question:q-0123456789abcdef0123';
    const confirm = (underTag: TagQueue) => underTag(tag, () => registration.showNotification('Answered T-1', { tag }));
    const question = { ...permission, tag, actions: [{ action: 'choice-0', title: 'sqlite' }] };

    // The page's close is asked first, the worker's confirmation right after, before the close has read the list.
    let underTag = createTagQueue();
    await showPush(registration, data(JSON.stringify(question)), underTag);
    await Promise.all([closeSettled(registration, tag, underTag), confirm(underTag)]);
    expect([...tray.values()].map((n) => n.title)).toEqual(['Answered T-1']);
    // The other order: the confirmation has no buttons, so the close leaves it.
    underTag = createTagQueue();
    await showPush(registration, data(JSON.stringify(question)), underTag);
    await Promise.all([confirm(underTag), closeSettled(registration, tag, underTag)]);
    expect([...tray.values()].map((n) => n.title)).toEqual(['Answered T-1']);
    // A settled request nobody tapped: its notification with buttons is closed.
    tray.clear();
    await showPush(registration, data(JSON.stringify(question)), underTag);
    await closeSettled(registration, tag, underTag);
    expect(tray.size).toBe(0);
    // A change that fails does not hold up the next one under its tag.
    await expect(underTag(tag, () => Promise.reject(new Error('no permission')))).rejects.toThrow('no permission');
    await confirm(underTag);
    expect([...tray.values()].map((n) => n.title)).toEqual(['Answered T-1']);
  });

  it('PUSH-4: only a valid PushPayload is shown as sent; junk is rejected', () => {
    expect(parsePayload(data(JSON.stringify(approval)))).toEqual(approval);
    expect(parsePayload(data({ ...approval, url: 'https://evil.example/' }))).toBeNull();
    expect(parsePayload({ json: () => { throw new SyntaxError('x'); } } as unknown as PushMessageData)).toBeNull();
    expect(parsePayload(null)).toBeNull();
  });
});
