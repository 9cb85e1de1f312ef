'use client';
// Keeps the paired mark (FASTPAIR-2) true to the device key, on every screen. The exported
// pages decide before their first paint whether to show Pair (FASTPAIR-1) from the mark in
// localStorage, because the key itself is in IndexedDB; this frame piece mends the mark
// when the two disagree:
// - a key but no mark (a device paired before the mark existed, or whose localStorage was
//   cleared): the visit was shown the Pair copy; once the key is read, the mark is set and
//   the copy removed, and the screen asked for shows;
// - a mark but no key, or a key the relay refused (the frame's state turns 'unpaired'): the
//   mark goes, so the next visit paints Pair at once. (Revocation also clears it with the key.)
import { useEffect } from 'react';
import { loadDevice } from '../lib/device-key';
import { UNPAIRED_ATTR, clearPrepaint, markPaired, takePairCopy } from '../lib/prepaint';
import { useRelay, type AppState } from '../lib/store';

const selectUnpaired = (s: AppState) => s.connection.state === 'unpaired';

export function PairFirst() {
  const unpaired = useRelay(selectUnpaired);
  useEffect(() => {
    if (!document.documentElement.hasAttribute(UNPAIRED_ATTR)) return;
    let live = true;
    void loadDevice().then((device) => {
      if (!live || !device) return;
      markPaired();
      takePairCopy();
    }, () => undefined);
    return () => {
      live = false;
    };
  }, []);
  useEffect(() => {
    if (unpaired) clearPrepaint();
  }, [unpaired]);
  return null;
}
