// How many pushes one member may cause on the home's devices (FLEETX-7). A member's frames are
// checked for shape and ownership, but a hostile or broken member could still invent a new
// prompt id or task every millisecond and turn each into a notification on the person's phone.
// Each member gets a rolling window; what is over it is dropped (the frames themselves still
// reach the app, only the notification is not sent) with one warning until the window empties.
import type { PushPayload } from '../../protocol/wire/push';
import type { RelayServices } from '../context';

/** Most pushes one member may cause in `MEMBER_PUSH_WINDOW_MS`. */
export const MAX_MEMBER_PUSHES = 30;
export const MEMBER_PUSH_WINDOW_MS = 60_000;

export type MemberNotify = (machine: { id: string; name: string }, payload: PushPayload) => void;

export function memberPushBudget(services: RelayServices, now: () => number = Date.now): MemberNotify {
  /** Per machine: the times of the pushes sent within the window, oldest first, and whether the window already warned. */
  const windows = new Map<string, { sent: number[]; warned: boolean }>();
  return (machine, payload) => {
    const at = now();
    let w = windows.get(machine.id);
    if (!w) windows.set(machine.id, (w = { sent: [], warned: false }));
    while (w.sent.length && at - w.sent[0]! >= MEMBER_PUSH_WINDOW_MS) w.sent.shift();
    if (w.sent.length >= MAX_MEMBER_PUSHES) {
      if (!w.warned) services.log.warn(`fleet: ${machine.name} caused more than ${MAX_MEMBER_PUSHES} notifications in a minute; dropping its pushes until the minute is over`);
      w.warned = true;
      return;
    }
    if (!w.sent.length) w.warned = false;
    w.sent.push(at);
    try {
      services.push?.notify?.(payload);
    } catch (error) {
      services.log.error(error, `push for ${machine.name}`);
    }
  };
}
