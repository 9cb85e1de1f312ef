// At-most-once actions (DEDUPE-n): the answer to each (device, action id) is
// kept in <dataDir>/dedupe/<device>.jsonl, so a retry — after a reconnect or a
// relay restart — gets the FIRST answer and the action is not applied again.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { WireError } from '../../protocol/wire/errors';
import { ensurePrivateDir, writePrivateFile } from '../devices/files';

export type Answer = { ok: true; result: unknown } | { ok: false; error: WireError };

interface Entry {
  at: number;
  answer?: Answer;
}

export const DEDUPE_MAX_PER_DEVICE = 10_000;
export const DEDUPE_TTL_MS = 24 * 60 * 60_000;

const LOST: Answer = {
  ok: false,
  error: { code: 'E_INTERNAL', message: 'the relay stopped while applying this action; check its effect before trying again' },
};

export class DedupeStore {
  private devices = new Map<string, { entries: Map<string, Entry>; lines: number }>();
  private inFlight = new Map<string, Promise<Answer>>();

  constructor(
    readonly dir: string,
    private readonly max = DEDUPE_MAX_PER_DEVICE,
    private readonly ttlMs = DEDUPE_TTL_MS,
  ) {}

  /** The answer of an action already seen (finished or still running), if any. */
  peek(device: string, id: string): Promise<Answer> | undefined {
    const running = this.inFlight.get(`${device}\n${id}`);
    if (running) return running;
    const known = this.load(device).entries.get(id);
    return known ? Promise.resolve(known.answer ?? LOST) : undefined;
  }

  /** The first answer for this action, running `apply` only if it was never started. */
  run(device: string, id: string, apply: () => Promise<Answer>): Promise<Answer> {
    const key = `${device}\n${id}`;
    const running = this.inFlight.get(key);
    if (running) return running;
    const known = this.load(device).entries.get(id);
    if (known) return Promise.resolve(known.answer ?? LOST);
    this.append(device, id, { at: Date.now() });
    const promise = apply()
      .then((answer) => JSON.parse(JSON.stringify(answer)) as Answer)
      .then((answer) => {
        this.append(device, id, { at: Date.now(), answer });
        return answer;
      })
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, promise);
    return promise;
  }

  /** Drops a revoked device's record. */
  forget(device: string): void {
    this.devices.delete(device);
    fs.rmSync(this.file(device), { force: true });
  }

  private file(device: string): string {
    return path.join(this.dir, `${device}.jsonl`);
  }

  private load(device: string): { entries: Map<string, Entry>; lines: number } {
    let state = this.devices.get(device);
    if (state) return state;
    state = { entries: new Map(), lines: 0 };
    let text = '';
    try {
      text = fs.readFileSync(this.file(device), 'utf8');
    } catch {
      /* no actions from this device yet */
    }
    const since = Date.now() - this.ttlMs;
    for (const line of text.split('\n')) {
      if (!line) continue;
      state.lines += 1;
      try {
        const { id, at, answer } = JSON.parse(line) as { id: string; at: number; answer?: Answer };
        if (typeof id === 'string' && typeof at === 'number' && at >= since) {
          state.entries.set(id, { at: state.entries.get(id)?.at ?? at, answer: answer ?? state.entries.get(id)?.answer });
        }
      } catch {
        /* a line cut short by a crash: its action counts as never started */
      }
    }
    this.devices.set(device, state);
    return state;
  }

  private append(device: string, id: string, entry: Entry): void {
    const state = this.load(device);
    state.entries.delete(id);
    state.entries.set(id, entry);
    ensurePrivateDir(this.dir);
    fs.appendFileSync(this.file(device), `${JSON.stringify({ id, ...entry })}\n`, { mode: 0o600 });
    state.lines += 1;
    if (state.lines > 2 * this.max) this.compact(device, state);
  }

  /** Keeps the newest `max` entries within the TTL (Map order is insertion order). */
  private compact(device: string, state: { entries: Map<string, Entry>; lines: number }): void {
    const since = Date.now() - this.ttlMs;
    const kept = [...state.entries].filter(([, e]) => e.at >= since).slice(-this.max);
    state.entries = new Map(kept);
    state.lines = kept.length;
    writePrivateFile(this.file(device), kept.map(([id, e]) => `${JSON.stringify({ id, ...e })}\n`).join(''));
  }
}
