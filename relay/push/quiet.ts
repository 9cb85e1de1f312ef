// When not to push (PUSH-5): a per-device do-not-disturb window in the
// device's local time, and at most one notification per tag per window.
import type { PushPrefs } from '../../protocol/wire/views';

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** True when `now` falls in the device's DND window (which may wrap midnight). */
export function inDoNotDisturb(prefs: PushPrefs, now: number): boolean {
  if (!prefs.dnd) return false;
  const local = new Date(now + prefs.dnd.tzOffsetMinutes * 60_000);
  const m = local.getUTCHours() * 60 + local.getUTCMinutes();
  const start = minutesOf(prefs.dnd.start);
  const end = minutesOf(prefs.dnd.end);
  if (start === end) return false;
  return start < end ? m >= start && m < end : m >= start || m < end;
}

/**
 * Collapses bursts: the first message for a key goes out at once; later ones
 * within `windowMs` replace each other and only the newest goes out when the
 * window ends. So a burst yields at most one leading and one trailing send.
 */
export class Collapser<T> {
  private readonly last = new Map<string, number>();
  private readonly pending = new Map<string, { value: T; timer: NodeJS.Timeout }>();

  constructor(
    private readonly windowMs: number,
    private readonly deliver: (key: string, value: T) => void,
    private readonly now: () => number = Date.now,
  ) {}

  push(key: string, value: T): void {
    const waiting = this.pending.get(key);
    if (waiting) {
      waiting.value = value;
      return;
    }
    const since = this.now() - (this.last.get(key) ?? -Infinity);
    if (since >= this.windowMs) {
      this.last.set(key, this.now());
      this.deliver(key, value);
      return;
    }
    const timer = setTimeout(() => {
      const p = this.pending.get(key);
      this.pending.delete(key);
      if (!p) return;
      this.last.set(key, this.now());
      this.deliver(key, p.value);
    }, this.windowMs - since);
    timer.unref?.();
    this.pending.set(key, { value, timer });
  }

  forget(prefix: string): void {
    for (const [k, p] of this.pending) if (k.startsWith(prefix)) { clearTimeout(p.timer); this.pending.delete(k); }
    for (const k of this.last.keys()) if (k.startsWith(prefix)) this.last.delete(k);
  }

  close(): void {
    for (const p of this.pending.values()) clearTimeout(p.timer);
    this.pending.clear();
  }
}
