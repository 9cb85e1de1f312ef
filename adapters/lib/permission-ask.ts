// The relay half of a permission hook (PERM-HOOK-n): `POST /api/permissions` and
// long-poll until a person decides. Unreachable at first → undefined within a
// second (the agent falls back to its own prompt; never an automatic allow). A
// dropped connection later is retried with the same key until the deadline,
// which then denies with a reason the agent can read.
import type { PermissionAnswer, PermissionAsk } from '../../protocol/wire/http';
import { type Env, hookToken, relayUrl } from './env';
import { longPoll, type Reading } from './long-poll';

/** Why a call that needs a person is refused when no phone can be asked (GUARD-6, GUARD-7). */
export function unreachableReason(why: string): string {
  return `Commandr's policy says a person must decide this, and no one can be asked (${why}), so it was denied. Start the relay (\`commandr serve\`) and pair a phone, or ask the person at this machine.`;
}

export function timeoutAnswer(timeoutMs: number): PermissionAnswer {
  return {
    decision: 'deny', by: null,
    reason: `No one answered on the phone within ${Math.round(timeoutMs / 1000)} s; the request was denied. Ask the person to allow it, or continue without this step.`,
  };
}

/** The person's answer, or undefined when the relay cannot be asked (no decision). */
export async function askRelay(ask: PermissionAsk, env: Env = process.env): Promise<PermissionAnswer | undefined> {
  const token = hookToken(env);
  if (!token) return undefined;
  let url: URL;
  try {
    url = new URL('/api/permissions', relayUrl(env));
  } catch {
    return undefined;
  }
  const timeoutMs = ask.timeoutMs ?? 120_000;
  const end = await longPoll(url, token, { ...ask }, timeoutMs, readAnswer);
  if (end.kind === 'done') return end.value;
  return end.kind === 'deadline' ? timeoutAnswer(timeoutMs) : undefined;
}

function readAnswer(status: number, text: string): Reading<PermissionAnswer | undefined> {
  if (status !== 200) return status === 502 ? { kind: 'retry' } : { kind: 'stop', value: undefined };
  try {
    const value = JSON.parse(text) as Partial<PermissionAnswer>;
    if ((value.decision === 'allow' || value.decision === 'deny') && typeof value.reason === 'string') {
      return { kind: 'done', value: { decision: value.decision, reason: value.reason, by: typeof value.by === 'string' ? value.by : null } };
    }
  } catch { /* fall through */ }
  return { kind: 'stop', value: undefined };
}
