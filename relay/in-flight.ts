// Work a relay service started and must see finished before it closes (DEMO-5, JOB-5): close
// marks it closing, so no new work is taken, then waits for what is in flight. A key, when
// given, names the work while it runs, so a second of the same kind can be refused.

export class InFlight<K = string> {
  private readonly work = new Map<K | symbol, Promise<void>>();
  private closing = false;

  /** True once `close` was called: the owner takes no new work. */
  get closed(): boolean {
    return this.closing;
  }

  /** Holds `work` (under `key`, else a key of its own) until it settles, however it settles. */
  add(work: Promise<unknown>, key?: K): void {
    const id = key ?? Symbol('work');
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.work.set(id, settled);
    void settled.then(() => {
      if (this.work.get(id) === settled) this.work.delete(id);
    });
  }

  has(key: K): boolean {
    return this.work.has(key);
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.work.values());
  }
}
