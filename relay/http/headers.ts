// Security headers on every relay response (HTTP-n): the app, its scripts and its
// socket come from the relay's own origin and nothing else.
import type * as http from 'node:http';
import { type OriginPolicy, ownOrigins } from './origin';

export function contentSecurityPolicy(policy: OriginPolicy, req: http.IncomingMessage): string {
  const sockets = ownOrigins(policy, req).map((o) => o.replace(/^http/, 'ws'));
  return [
    "default-src 'self'",
    // Next.js static export inlines its flight data as <script> tags.
    "script-src 'self' 'unsafe-inline'",
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

export function securityHeaders(policy: OriginPolicy, req: http.IncomingMessage): http.OutgoingHttpHeaders {
  return {
    'content-security-policy': contentSecurityPolicy(policy, req),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    ...(policy.secure ? { 'strict-transport-security': 'max-age=31536000' } : {}),
  };
}
