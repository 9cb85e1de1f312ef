// Security headers on every relay response (HTTP-n): the app, its scripts and its
// socket come from the relay's own origin and nothing else. Inline scripts run only
// when their hash was listed at build time (CSP-2): never 'unsafe-inline'.
import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import { type OriginPolicy, ownOrigins } from './origin';

/** Written by scripts/csp-hashes.mjs at build:app. */
export const CSP_HASHES_FILE = 'csp-hashes.json';

let cached: { file: string; mtimeMs: number; sources: string[] } | undefined;

/** The `'sha256-…'` sources of the built app's inline scripts (none when not built). */
export function inlineScriptSources(appDir: string): string[] {
  const file = path.join(appDir, CSP_HASHES_FILE);
  let mtimeMs: number;
  try {
    mtimeMs = fs.statSync(file).mtimeMs;
  } catch {
    return [];
  }
  if (cached?.file === file && cached.mtimeMs === mtimeMs) return cached.sources;
  let sources: string[] = [];
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as { scriptSrc?: unknown };
    // Only well-formed hash sources: a tampered file cannot widen the policy to a keyword or a host.
    if (Array.isArray(parsed.scriptSrc)) sources = parsed.scriptSrc.filter((s): s is string => typeof s === 'string' && /^'sha256-[A-Za-z0-9+/]{43}='$/.test(s));
  } catch {
    sources = [];
  }
  cached = { file, mtimeMs, sources };
  return sources;
}

export function contentSecurityPolicy(policy: OriginPolicy, req: http.IncomingMessage, scriptHashes: readonly string[] = []): string {
  const sockets = ownOrigins(policy, req).map((o) => o.replace(/^http/, 'ws'));
  return [
    "default-src 'self'",
    // Next.js static export inlines its flight data as <script> tags: allowed by their build-time hashes.
    ['script-src', "'self'", ...scriptHashes].join(' '),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    "font-src 'self' data:",
    `connect-src 'self' ${sockets.join(' ')}`,
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Headers that govern only a document (or a worker): a build's hashed asset under
 * `/_next/static/` is sent without them (FIRST-5) — on a script or a stylesheet they do
 * nothing, and on the Inbox's dozen scripts they were ~9 KB of every cold load.
 */
export const DOCUMENT_ONLY_HEADERS = ['content-security-policy', 'x-frame-options', 'cross-origin-opener-policy'] as const;

export function securityHeaders(policy: OriginPolicy, req: http.IncomingMessage, appDir?: string): http.OutgoingHttpHeaders {
  return {
    'content-security-policy': contentSecurityPolicy(policy, req, appDir === undefined ? [] : inlineScriptSources(appDir)),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    ...(policy.secure ? { 'strict-transport-security': 'max-age=31536000' } : {}),
  };
}
