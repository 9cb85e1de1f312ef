// Counts failed attempts in a sliding window, per key (an address, a code's hash)
// and in total (PAIR-4): pairing codes cannot be guessed anyway, this keeps a flood
// from costing work. Keys are bounded: the oldest key is forgotten past MAX_KEYS.
export class FailureLimiter {
  private perKey = new Map<string, number[]>();
  private all: number[] = [];

  constructor(
    private readonly perKeyMax: number,
    private readonly globalMax: number,
    private readonly windowMs = 60_000,
  ) {}

  /** True when `key` (or everyone) has failed too often within the window. */
  blocked(key: string, now = Date.now()): boolean {
    this.all = recent(this.all, now - this.windowMs);
    const mine = recent(this.perKey.get(key) ?? [], now - this.windowMs);
    if (mine.length === 0) this.perKey.delete(key);
    else this.perKey.set(key, mine);
    return mine.length >= this.perKeyMax || this.all.length >= this.globalMax;
  }

  fail(key: string, now = Date.now()): void {
    this.all.push(now);
    if (this.all.length > MAX_KEYS) this.all = recent(this.all, now - this.windowMs);
    const mine = this.perKey.get(key) ?? [];
    mine.push(now);
    this.perKey.delete(key);
    this.perKey.set(key, mine.length > this.perKeyMax ? mine.slice(-this.perKeyMax) : mine);
    // A flood of distinct keys (one per guessed code) must not grow the map without bound.
    if (this.perKey.size > MAX_KEYS) this.perKey.delete(this.perKey.keys().next().value!);
  }
}

const MAX_KEYS = 10_000;

function recent(times: number[], since: number): number[] {
  let i = 0;
  while (i < times.length && times[i]! <= since) i += 1;
  return i === 0 ? times : times.slice(i);
}
