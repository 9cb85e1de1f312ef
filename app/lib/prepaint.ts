// The Inbox's last rendered cards, shown before the app's scripts run (FIRST-9).
// The Inbox keeps a copy of the groups React rendered (their first FIRST_CARDS cards each,
// the Done group folded: what its first render shows) in localStorage; an inline script
// right after an empty container in the exported page puts that copy on screen as the
// HTML is parsed, before any framework script has run. The first render of the saved
// state replaces the container with the same markup, so nothing moves.
// The copy is markup React rendered (every text escaped) from this origin's own state;
// no script runs from it (the CSP allows inline scripts by hash only, CSP-2). Unpairing
// removes it with the device key.
//
// The paired mark (FASTPAIR-2): `commandr.paired` in localStorage says this browser holds a
// device key, which lives in IndexedDB and cannot be read before the first paint. The
// exported pages' first inline script (scripts/paint-first.mjs, FASTPAIR-1) reads it, or the
// Inbox's copy above, to put Pair on screen instead of the screen asked for when neither is
// there. Set at pairing, set again by the app frame when it finds a key without a mark,
// removed with the device key.
//
// API:
//   PREPAINT_KEY         — the localStorage key ({ v: 1, html })
//   PAIRED_KEY           — the paired mark's localStorage key ('1')
//   UNPAIRED_ATTR        — the attribute on <html> while an unpaired visitor is shown the Pair copy
//   PAIR_COPY_ATTR       — the attribute of that copy (a node outside React's tree)
//   prepaintScript       — the inline script's text (fills its previous sibling)
//   savePrepaint(el, n)  — keeps el's markup, each task list cut to its first n cards, its buttons disabled
//   dropInboxCopy()      — forgets the Inbox's copy (the Inbox has no task)
//   markPaired()         — sets the paired mark
//   clearPrepaint()      — unpairing: forgets the copy and the paired mark
//   takePairCopy()       — removes the Pair copy and the attribute; returns what was typed in it
export const PREPAINT_KEY = 'commandr.inbox';
export const PAIRED_KEY = 'commandr.paired';
export const UNPAIRED_ATTR = 'data-unpaired';
export const PAIR_COPY_ATTR = 'data-pair-copy';

export const prepaintScript = `(function(){try{var el=document.currentScript.previousElementSibling,saved=JSON.parse(localStorage.getItem(${JSON.stringify(PREPAINT_KEY)})||"null");if(el&&saved&&saved.v===1&&typeof saved.html==="string"){el.innerHTML=saved.html;document.documentElement.setAttribute("data-prepaint","")}}catch(e){}})()`;

export function savePrepaint(el: HTMLElement, firstCards: number): void {
  const copy = copyOf(el, firstCards);
  // Its buttons do nothing until the app runs: they say so (links work, they need no script).
  for (const button of copy.querySelectorAll('button')) button.disabled = true;
  const saved = JSON.stringify({ v: 1, html: copy.innerHTML });
  try {
    if (localStorage.getItem(PREPAINT_KEY) !== saved) localStorage.setItem(PREPAINT_KEY, saved);
  } catch {
    // Storage full or disabled: the Inbox shows once the framework runs, as before.
  }
}

/** A copy of `node` with each task list's first `firstCards` items and Done folded, cloning nothing else. */
function copyOf(node: Element, firstCards: number): Element {
  const copy = node.cloneNode(false) as Element;
  if (node.classList.contains('task-list')) {
    for (const item of [...node.children].slice(0, firstCards)) copy.append(item.cloneNode(true));
  } else if (node.tagName === 'DETAILS' && node.closest('[data-testid="group-done"]')) {
    // The Done group starts folded, with no card rendered (FIRST-6).
    copy.removeAttribute('open');
    const summary = node.querySelector(':scope > summary');
    if (summary) copy.append(summary.cloneNode(true));
  } else {
    // Every other group folds too, but starts open: its copy is open, whatever the person folded since.
    if (node.tagName === 'DETAILS') copy.setAttribute('open', '');
    for (const child of node.childNodes) copy.append(child instanceof Element ? copyOf(child, firstCards) : child.cloneNode(true));
  }
  return copy;
}

function forget(...keys: string[]): void {
  try {
    for (const key of keys) globalThis.localStorage?.removeItem(key);
  } catch {
    // no storage: nothing kept
  }
}

export function dropInboxCopy(): void {
  forget(PREPAINT_KEY);
}

export function clearPrepaint(): void {
  forget(PREPAINT_KEY, PAIRED_KEY);
}

export function markPaired(): void {
  try {
    if (globalThis.localStorage?.getItem(PAIRED_KEY) !== '1') globalThis.localStorage?.setItem(PAIRED_KEY, '1');
  } catch {
    // No storage: every visit paints the screen asked for, and the app sends an unpaired one to Pair, as before.
  }
}

/**
 * Ends the Pair copy an unpaired visitor was shown before the app ran (FASTPAIR-1): removes it
 * and the attribute that hid the screen below it, and returns what the person typed into it
 * (and which of its fields had the focus), for the real form to take over.
 */
export function takePairCopy(): { code: string; name: string; focused: 'pair-code' | 'pair-name' | null } | null {
  if (typeof document === 'undefined') return null;
  document.documentElement.removeAttribute(UNPAIRED_ATTR);
  const copy = document.querySelector(`[${PAIR_COPY_ATTR}]`);
  if (!copy) return null;
  const value = (id: string) => (copy.querySelector(`#${id}`) as HTMLInputElement | null)?.value ?? '';
  const active = document.activeElement;
  const focused = active && copy.contains(active) && (active.id === 'pair-code' || active.id === 'pair-name') ? (active.id as 'pair-code' | 'pair-name') : null;
  const typed = { code: value('pair-code'), name: value('pair-name'), focused };
  copy.remove();
  return typed;
}
