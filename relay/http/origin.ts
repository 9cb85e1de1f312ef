// Which browser origins may open the relay's socket or post its actions
// (ORIGIN-n): the relay's own origin only, so a page elsewhere cannot ride on a
// paired browser. Host names other than IP literals and localhost need
// --public-origin, which also shuts out DNS-rebinding pages.
import type * as http from 'node:http';
import * as net from 'node:net';

export interface OriginPolicy {
  /** http(s)://host:port the relay bound and printed. */
  boundOrigin: string;
  publicOrigin: string | null;
  secure: boolean;
}

/** The origin the request's Host header names, if that host may be trusted as-is. */
function hostOrigin(policy: OriginPolicy, req: http.IncomingMessage): string | undefined {
  // HTTP/2 carries the Host as the `:authority` pseudo-header (SERVE-1).
  const host = req.headers.host ?? (req.headers as Record<string, string | string[] | undefined>)[':authority'];
  if (typeof host !== 'string' || !host) return undefined;
  let url: URL;
  try {
    url = new URL(`${policy.secure ? 'https' : 'http'}://${host}`);
  } catch {
    return undefined;
  }
  const name = url.hostname.replace(/^\[|\]$/g, '');
  if (name !== 'localhost' && net.isIP(name) === 0) return undefined;
  return url.origin;
}

/** The origins this request may come from (for CSP and the Origin check). */
export function ownOrigins(policy: OriginPolicy, req: http.IncomingMessage): string[] {
  const origins = [policy.boundOrigin];
  if (policy.publicOrigin) origins.push(policy.publicOrigin);
  const fromHost = hostOrigin(policy, req);
  if (fromHost) origins.push(fromHost);
  return [...new Set(origins)];
}

/** ORIGIN-1..3: absent (not a browser) or one of the relay's own origins. */
export function originAllowed(policy: OriginPolicy, req: http.IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  return ownOrigins(policy, req).includes(origin);
}
