// Where each of the bar's actions goes (ROOM-1, ROOM-2): the bar is one slim row. With room,
// it holds the state's first two actions and "More" for the rest; when the text is large for
// the screen (200 % on a phone) it holds the main action and "More" with everything else.
// Pure, unit-tested; which actions a state offers is task-stage.ts's (barActions).
import type { BarAction } from './task-stage';

export interface BarLayout {
  /** The buttons on the row, the main action first. */
  row: BarAction[];
  /** The actions in the "More" menu; empty: no "More" button. */
  more: BarAction[];
}

/** The bar's width, in the text's em, below which it holds one button and "More" (ROOM-2). */
export const COMPACT_EM = 17;

export function barLayout(actions: readonly BarAction[], compact: boolean): BarLayout {
  const room = compact ? 1 : 2;
  // Two actions on a roomy bar are both shown: "More" for one action would hide it for nothing.
  if (actions.length <= room) return { row: [...actions], more: [] };
  return { row: actions.slice(0, room), more: actions.slice(room) };
}

/** Whether a bar `widthPx` wide is compact when its text's em is `emPx` (ROOM-2). */
export function isCompact(widthPx: number, emPx: number): boolean {
  return emPx > 0 && widthPx < COMPACT_EM * emPx;
}
