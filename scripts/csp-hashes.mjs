// CSP-2: the inline <script> blocks Next's static export writes (its flight data)
// are allowed by hash, not by 'unsafe-inline'. Run once at build:app over the
// exported HTML; the relay reads the list from <appDir>/csp-hashes.json.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { htmlFiles } from './exported-pages.mjs';

export const CSP_HASHES_FILE = 'csp-hashes.json';
const INLINE_SCRIPT = /<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/gi;

/** `'sha256-…'` sources of every inline script in `html`. */
export function inlineScriptHashes(html) {
  const out = [];
  for (const match of html.matchAll(INLINE_SCRIPT)) out.push(`'sha256-${createHash('sha256').update(match[1], 'utf8').digest('base64')}'`);
  return out;
}

/** Writes <dir>/csp-hashes.json with the hashes of every exported page's inline scripts. */
export function writeCspHashes(dir) {
  const hashes = new Set();
  for (const file of htmlFiles(dir)) for (const h of inlineScriptHashes(readFileSync(file, 'utf8'))) hashes.add(h);
  const list = [...hashes].sort();
  writeFileSync(path.join(dir, CSP_HASHES_FILE), `${JSON.stringify({ scriptSrc: list }, null, 1)}\n`);
  return list.length;
}
