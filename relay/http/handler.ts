// The relay's one HTTP request handler: security headers, the Origin check for
// browser routes, the route table, the static app, and one place where errors
// become answers (unknown ones logged once, answered E_INTERNAL).
import type * as http from 'node:http';
import { CommandrError } from '../../protocol/wire/errors';
import { securityHeaders } from './headers';
import { type OriginPolicy, originAllowed } from './origin';
import { sendError } from './respond';
import { type HttpContext, routes } from './routes';
import { serveStatic } from './static';

export function createRequestHandler(ctx: HttpContext, policy: OriginPolicy, appDir: () => string) {
  return (req: http.IncomingMessage, res: http.ServerResponse): void => {
    for (const [name, value] of Object.entries(securityHeaders(policy, req, appDir()))) res.setHeader(name, value!);
    void handle(ctx, policy, appDir(), req, res).catch((error: unknown) => {
      if (!(error instanceof CommandrError)) ctx.services.log.error(error, `${req.method} ${req.url}`);
      const answer = error instanceof CommandrError ? error : new CommandrError('E_INTERNAL', 'the relay failed to handle this request');
      if (res.headersSent) res.destroy();
      else sendError(res, answer);
    });
  };
}

async function handle(ctx: HttpContext, policy: OriginPolicy, appDir: string, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const { pathname } = new URL(req.url ?? '/', 'http://relay');
  const route = routes.find((r) => r.path === pathname && r.method === req.method);
  if (route) {
    if (route.browser && !originAllowed(policy, req)) {
      req.resume();
      throw new CommandrError('E_FORBIDDEN_ORIGIN', 'requests must come from the relay\'s own origin');
    }
    await route.handle(ctx, req, res);
    return;
  }
  if (pathname.startsWith('/api/') || pathname === '/healthz') {
    req.resume();
    const known = routes.some((r) => r.path === pathname);
    throw new CommandrError(known ? 'E_BAD_FRAME' : 'E_NOT_FOUND', known ? `${req.method} is not allowed on ${pathname}` : `no endpoint ${pathname}`);
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    req.resume();
    throw new CommandrError('E_NOT_FOUND', `${req.method} is not allowed here`);
  }
  serveStatic(appDir, req, res, {});
}
