// FIRST-4: every script an exported page loads by itself (a `<script src>` of its HTML,
// not the lazily imported chunks) starts with V8's explicit compile hint
// `//# allFunctionsCalledOnLoad`. Chromium then compiles the whole file on a background
// thread while it streams in, instead of compiling each webpack module on the main
// thread the first time it runs — the startup task that evaluates React, the router and
// the screen was most of the first load's blocking time. Browsers without the hint read
// a comment. Run once at build:app, after `next build` and before the precompression.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { htmlFiles } from './exported-pages.mjs';

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';
const SCRIPT_SRC = /<script\b[^>]*\ssrc="(\/_next\/static\/[^"?#]+\.js)"[^>]*>/gi;

/** The `/_next/static/…js` scripts `html` loads itself; `nomodule` ones (legacy polyfills, never run by a module browser) left out. */
export function pageScripts(html) {
  const out = new Set();
  for (const match of html.matchAll(SCRIPT_SRC)) if (!/\snomodule\b/i.test(match[0])) out.add(match[1]);
  return [...out];
}

/**
 * The lazily imported chunks that still run as the app starts: the client core the app
 * frame requests while the page's scripts run (FIRST-7). Compiled off the main thread too.
 */
export const STARTUP_CHUNK = /^client-core\.[0-9a-f]+\.js$/;

function startupChunks(dir) {
  const chunks = path.join(dir, '_next', 'static', 'chunks');
  try {
    return readdirSync(chunks).filter((name) => STARTUP_CHUNK.test(name)).map((name) => `/_next/static/chunks/${name}`);
  } catch {
    return [];
  }
}

/** Prepends the hint to every page script (and start-up chunk) under `dir` that lacks it; returns how many files it hinted. */
export function addCompileHints(dir) {
  const scripts = new Set(startupChunks(dir));
  for (const file of htmlFiles(dir)) for (const src of pageScripts(readFileSync(file, 'utf8'))) scripts.add(src);
  let hinted = 0;
  for (const src of scripts) {
    const file = path.join(dir, ...src.split('/').filter(Boolean));
    if (path.relative(dir, file).startsWith('..')) throw new Error(`compile hints: ${src} is outside ${dir}`);
    const code = readFileSync(file, 'utf8');
    if (code.startsWith(COMPILE_HINT)) continue;
    writeFileSync(file, COMPILE_HINT + code);
    hinted += 1;
  }
  return hinted;
}
