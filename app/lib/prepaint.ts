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
// API:
//   PREPAINT_KEY         — the localStorage key ({ v: 1, html })
//   prepaintScript       — the inline script's text (fills its previous sibling)
//   savePrepaint(el, n)  — keeps el's markup, each task list cut to its first n cards, its buttons disabled
//   clearPrepaint()
export const PREPAINT_KEY = 'commandr.inbox';

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
  } else if (node.tagName === 'DETAILS') {
    // The Done group starts folded, with no card rendered (FIRST-6).
    copy.removeAttribute('open');
    const summary = node.querySelector(':scope > summary');
    if (summary) copy.append(summary.cloneNode(true));
  } else {
    for (const child of node.childNodes) copy.append(child instanceof Element ? copyOf(child, firstCards) : child.cloneNode(true));
  }
  return copy;
}

export function clearPrepaint(): void {
  try {
    globalThis.localStorage?.removeItem(PREPAINT_KEY);
  } catch {
    // no storage: nothing kept
  }
}
