// FIRST-10: an exported page paints before any of its scripts runs. Next writes each
// script a page needs as `<script src async>`; one that arrives before the first frame
// (from the HTTP cache or the service worker, or on a fast network) runs before it, and
// the page's text and the Inbox's copy (FIRST-9) wait behind the evaluation of React DOM
// and Next's runtime. This step keeps every download where it started — a
// `<link rel="preload" as="script">` in the head, requested as the HTML is parsed, at the
// low priority Chrome gives an async script — and replaces the tags with one inline
// loader at the end of the body that adds them once the page's first contentful frame is
// on screen. The loader is allowed by hash (CSP-2). Run once at build:app, after the
// compile hints and before the service worker's list, the CSP hashes and the
// precompression, which must all see the final HTML.
//
// FASTPAIR-1 (the same step, the same pages): every exported page but Pair and the not-found
// page also gets, right after its header, Pair's own screen (the HTML of out/pair.html's
// <main>) in a <template> and an inline script that, when this browser holds no paired mark
// (FASTPAIR-2: `commandr.paired`, or the Inbox's copy `commandr.inbox`, in localStorage),
// puts that screen on the page in place of the one asked for, before the first paint: an
// attribute on <html> hides the page's own <main> and nav (a rule added to its head). The
// copy is outside React's tree (React skips a foreign node among <body>'s children when it
// hydrates); the app then sends the visitor to /pair as before, whose screen takes the
// copy's place in the same frame with what was typed into it (app/lib/prepaint.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { htmlFiles } from './exported-pages.mjs';

export const LOADER_MARK = 'data-paint-first';
const SCRIPT_TAG = /<script\b([^>]*)\ssrc="(\/_next\/static\/[^"?#]+\.js)"([^>]*)><\/script>/gi;
const PRELOAD = /<link\b[^>]*\srel="preload"[^>]*>/gi;

const attr = (attrs, name) => new RegExp(`\\s${name}(?:="([^"]*)")?(?=\\s|$)`, 'i').exec(attrs);

/**
 * The page with its `/_next/static` async scripts loaded after the first paint: each one
 * preloaded in the head (unless it already is) and added, in the page's order and with its
 * `id`, by one inline loader before `</body>`. `nomodule` scripts stay as they are; a page
 * that already has the loader, or has no such script, comes back unchanged.
 */
export function paintFirst(html) {
  if (html.includes(LOADER_MARK)) return html;
  const scripts = [];
  const rest = html.replace(SCRIPT_TAG, (tag, before, src, after) => {
    const attrs = `${before} ${after}`;
    if (attr(attrs, 'nomodule')) return tag;
    if (!attr(attrs, 'async')) throw new Error(`paint first: ${src} is not async; its order would change`);
    const id = attr(attrs, 'id')?.[1];
    scripts.push(id ? { src, id } : { src });
    return '';
  });
  if (scripts.length === 0) return html;
  const preloaded = new Set([...rest.matchAll(PRELOAD)].map((m) => /\shref="([^"]+)"/.exec(m[0])?.[1]));
  const links = scripts.filter((s) => !preloaded.has(s.src)).map((s) => `<link rel="preload" as="script" fetchPriority="low" href="${s.src}"/>`).join('');
  if (!rest.includes('</head>') || !rest.includes('</body>')) throw new Error('paint first: the page has no </head> or </body>');
  // JSON inside a script element: `<` escaped, so no text of it can close the element.
  const list = JSON.stringify(scripts).replace(/</g, '\\u003c');
  // Chromium reports the first contentful paint once that frame is presented: the scripts are
  // added then. Without paint timing, two frames and a moment (100 ms) later; with it, the same
  // wait is only a safety net for a paint never reported (1 s): a loaded machine can present the
  // first frame later than two frames and 100 ms, and the scripts must not run before it. A page
  // that is not visible paints nothing, so it adds them at once (and at any change of visibility).
  const loader = `<script ${LOADER_MARK}="">(function(){var s=${list},d=0;function go(){if(d)return;d=1;`
    + 'for(var i=0;i<s.length;i++){var e=document.createElement("script");e.src=s[i].src;e.async=true;if(s[i].id)e.id=s[i].id;document.body.appendChild(e)}}'
    + 'if(document.visibilityState!=="visible"||!window.requestAnimationFrame)return go();'
    + 'document.addEventListener("visibilitychange",go,{once:true});'
    + 'var w=100;try{new PerformanceObserver(function(l,o){if(l.getEntriesByName("first-contentful-paint").length){o.disconnect();go()}}).observe({type:"paint",buffered:true});'
    + 'if((PerformanceObserver.supportedEntryTypes||[]).indexOf("paint")>=0)w=1000}catch(e){}'
    + 'requestAnimationFrame(function(){requestAnimationFrame(function(){setTimeout(go,w)})})})()</script>';
  return rest.replace('</head>', () => `${links}</head>`).replace(/<\/body>(?![\s\S]*<\/body>)/, () => `${loader}</body>`);
}

/** The scripts a page built by `paintFirst` loads by itself, in order (its loader's list). */
export function loadedScripts(html) {
  const match = new RegExp(`<script ${LOADER_MARK}="">\\(function\\(\\)\\{var s=(\\[.*?\\]),d=0;`).exec(html);
  return match ? JSON.parse(match[1]).map((s) => s.src) : [];
}

export const PAIR_FIRST_MARK = 'data-pair-first';
/** The localStorage keys that say this browser is paired (app/lib/prepaint.ts: PAIRED_KEY, PREPAINT_KEY). */
export const PAIRED_KEYS = ['commandr.paired', 'commandr.inbox'];
/** Pages that never show the Pair copy: Pair itself, and the not-found pages. */
const NO_PAIR_COPY = new Set(['pair.html', '404.html', '_not-found.html']);

/** The screen of the exported Pair page: the inside of its <main>, React's Suspense markers left out. */
export function pairScreenOf(pairHtml) {
  const main = /<main\b[^>]*>([\s\S]*?)<\/main>/.exec(pairHtml);
  if (!main || !main[1].includes('data-testid="pair-form"')) throw new Error('pair first: the exported Pair page has no <main> holding its form');
  return main[1].replace(/<!--\/?\$-->/g, '');
}

/**
 * The page with the Pair copy of FASTPAIR-1: `screen` (pairScreenOf) in a <template> right
 * after the page's </header>, the inline script that shows it to a browser without a paired
 * mark, and the rule that hides the page's own <main> and nav meanwhile. A page that already
 * has it comes back unchanged.
 */
export function pairFirst(html, screen) {
  if (html.includes(PAIR_FIRST_MARK)) return html;
  if (!html.includes('</header>') || !html.includes('</head>')) throw new Error('pair first: the page has no </header> or </head>');
  if (/<\/template|<script/i.test(screen)) throw new Error('pair first: the Pair screen holds a template or a script');
  const style = `<style ${PAIR_FIRST_MARK}="">html[data-unpaired] .shell-main:not([data-pair-copy]),html[data-unpaired] .shell-nav{display:none}</style>`;
  // No storage, or storage that throws: the page paints as it is, and the app sends an unpaired visitor to Pair.
  const script = `<script ${PAIR_FIRST_MARK}="">(function(){var t=document.currentScript.previousElementSibling;`
    + `try{for(var k=${JSON.stringify(PAIRED_KEYS)},i=0;i<k.length;i++)if(localStorage.getItem(k[i])!==null)return}catch(e){return}`
    + 'var d=document.createElement("div");d.className="shell-main";d.setAttribute("role","main");d.setAttribute("data-pair-copy","");'
    + 'd.appendChild(t.content.cloneNode(true));t.parentNode.insertBefore(d,t);document.documentElement.setAttribute("data-unpaired","")})()</script>';
  return html
    .replace('</head>', () => `${style}</head>`)
    .replace('</header>', () => `</header><template ${PAIR_FIRST_MARK}="">${screen}</template>${script}`);
}

/** Rewrites every exported page under `dir` (FIRST-10, and FASTPAIR-1 where `dir` has pair.html); returns how many it changed. */
export function addPaintFirst(dir) {
  let changed = 0;
  let screen = null;
  try {
    screen = pairScreenOf(readFileSync(path.join(dir, 'pair.html'), 'utf8'));
  } catch (error) {
    if (error?.code !== 'ENOENT') throw error;
  }
  for (const file of htmlFiles(dir)) {
    const html = readFileSync(file, 'utf8');
    const copied = screen && !NO_PAIR_COPY.has(path.relative(dir, file)) ? pairFirst(html, screen) : html;
    const next = paintFirst(copied);
    if (next === html) continue;
    writeFileSync(file, next);
    changed += 1;
  }
  return changed;
}
