// Delivers one payload to one subscription with web-push (PUSH-4): encrypted
// aes128gcm, VAPID-signed, TTL and urgency set, the tag as RFC 8030 Topic so
// the push service also replaces an undelivered older message. Bounded retries.
import { createHash } from 'node:crypto';
import { Agent } from 'node:https';
import webpush from 'web-push';
import type { PushPayload } from '../../protocol/wire/push';
import type { PushSubscriptionJSON } from '../../protocol/wire/views';
import type { VapidKeys } from './vapid';

export type SendOutcome =
  | { ok: true; attempts: number }
  | { ok: false; gone: boolean; attempts: number; status: number | null; message: string };

export interface SenderOptions {
  vapid: VapidKeys;
  /** Extra CA to trust (a self-hosted or test push service). */
  ca?: string | Buffer;
  /** Total attempts for retryable failures (429, 5xx, network). */
  attempts?: number;
  /** First backoff; doubles each retry. */
  backoffMs?: number;
  timeoutMs?: number;
}

export function topicFor(tag: string): string {
  return createHash('sha256').update(tag).digest('base64url').slice(0, 32);
}

export class PushSender {
  private readonly agent: Agent | undefined;
  constructor(private readonly opts: SenderOptions) {
    this.agent = opts.ca ? new Agent({ ca: opts.ca, keepAlive: true }) : undefined;
  }

  async send(subscription: PushSubscriptionJSON, payload: PushPayload): Promise<SendOutcome> {
    const attempts = this.opts.attempts ?? 4;
    const body = JSON.stringify(payload);
    let last: { status: number | null; message: string } = { status: null, message: '' };
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        await webpush.sendNotification(subscription, body, {
          vapidDetails: this.opts.vapid,
          TTL: payload.kind === 'approval_requested' || payload.kind === 'permission_request' ? 3600 : 24 * 3600,
          urgency: payload.kind === 'approval_requested' || payload.kind === 'permission_request' ? 'high' : 'normal',
          topic: topicFor(payload.tag),
          timeout: this.opts.timeoutMs ?? 10_000,
          ...(this.agent ? { agent: this.agent } : {}),
        });
        return { ok: true, attempts: attempt };
      } catch (error) {
        const status = typeof (error as { statusCode?: unknown }).statusCode === 'number' ? (error as { statusCode: number }).statusCode : null;
        last = { status, message: (error as Error).message };
        if (status === 404 || status === 410) return { ok: false, gone: true, attempts: attempt, ...last };
        const retryable = status === null || status === 429 || status >= 500;
        if (!retryable || attempt === attempts) break;
        await new Promise((r) => setTimeout(r, (this.opts.backoffMs ?? 250) * 2 ** (attempt - 1)));
      }
    }
    return { ok: false, gone: false, attempts, ...last };
  }

  close(): void {
    this.agent?.destroy();
  }
}
