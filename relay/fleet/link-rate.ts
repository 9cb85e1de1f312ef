// How often one member machine may bring its link up (FLEET-24). Each link-up replaces
// the machine's previous link and tells every device `machine.state` (with all its repo
// ids), so a hostile member, or a thief of its key, reconnecting in a loop would flood
// the person's phones until their sockets were cut. Only links that passed the key
// proof count: nobody without the machine's key can use up its budget.

/** Most link-ups one machine may make within LINK_UP_WINDOW_MS; a further `fleet.auth` is refused E_RATE_LIMITED. */
export const MAX_LINK_UPS = 30;
export const LINK_UP_WINDOW_MS = 60_000;

export class LinkUps {
  private readonly times = new Map<string, number[]>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Records a link-up of `machine` and returns true, or returns false (nothing recorded) when it is over its budget. */
  take(machine: string): boolean {
    const at = this.now();
    const recent = (this.times.get(machine) ?? []).filter((t) => at - t < LINK_UP_WINDOW_MS);
    if (recent.length >= MAX_LINK_UPS) {
      this.times.set(machine, recent);
      return false;
    }
    recent.push(at);
    this.times.set(machine, recent);
    return true;
  }

  forget(machine: string): void {
    this.times.delete(machine);
  }
}
