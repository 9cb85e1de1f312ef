// THE table of the relay's HTTP endpoints (HTTP-n). Each feature adds its route
// here with one line; anything not listed under /api/ is a 404, everything else
// is the static app.
import type * as http from 'node:http';
import type { RelayServices } from '../context';
import type { Dispatcher } from '../clients/dispatch';
import type { FailureLimiter } from '../devices/rate-limit';
import { postAction } from '../clients/action-route';
import { postPair } from '../devices/pair-route';
import { postLiveEvent } from '../live/route';
import { postHookReport } from '../live/report-route';
import { postPermission } from '../permissions/route';
import { postPermissionCheck } from '../permissions/check-route';
import { postQuestion, postQuestionCancel } from '../questions/route';
import { getArtifact } from '../artifacts/route';
import { getPushKey } from '../push/route';
import { sendJson } from './respond';
import { commanderRoutes } from '../commanders/http';
import { getTranscribeStatus, postTranscribe, transcribeOptions } from '../transcribe/route';

export interface HttpContext {
  services: RelayServices;
  dispatcher: Dispatcher;
  pairingLimiter: FailureLimiter;
  /** Posts live events and permission requests only (CRED-2). */
  hookToken: string;
  /** The local admin routes (`/api/local/…`, CRED-1); the hook credential is refused there. */
  adminToken: string;
  version: string;
}

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** Routes a browser page may call carry the Origin check (HTTP-4); hook routes do not need it. */
  browser: boolean;
  handle(ctx: HttpContext, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> | void;
}

export const routes: Route[] = [
  { method: 'GET', path: '/healthz', browser: false, handle: (ctx, _req, res) => sendJson(res, 200, { ok: true, version: ctx.version }) },
  { method: 'POST', path: '/api/pair', browser: true, handle: (ctx, req, res) => postPair(ctx.services, ctx.pairingLimiter, req, res) },
  { method: 'POST', path: '/api/action', browser: true, handle: (ctx, req, res) => postAction(ctx.services, ctx.dispatcher, req, res) },
  { method: 'GET', path: '/api/push/key', browser: true, handle: (ctx, _req, res) => getPushKey(ctx.services, res) },
  { method: 'POST', path: '/api/permissions', browser: false, handle: (ctx, req, res) => postPermission(ctx.services, ctx.hookToken, req, res) },
  { method: 'POST', path: '/api/permissions/check', browser: false, handle: (ctx, req, res) => postPermissionCheck(ctx.services, ctx.hookToken, req, res) },
  { method: 'POST', path: '/api/questions', browser: false, handle: (ctx, req, res) => postQuestion(ctx.services, ctx.hookToken, req, res) },
  { method: 'POST', path: '/api/questions/cancel', browser: false, handle: (ctx, req, res) => postQuestionCancel(ctx.services, ctx.hookToken, req, res) },
  { method: 'GET', path: '/api/artifacts', browser: false, handle: (ctx, req, res) => getArtifact(ctx.services, req, res) },
  { method: 'POST', path: '/api/hooks/report', browser: false, handle: (ctx, req, res) => postHookReport(ctx.services, ctx.hookToken, req, res) },
  { method: 'POST', path: '/api/events', browser: false, handle: (ctx, req, res) => postLiveEvent(ctx.services, ctx.hookToken, req, res) },
  { method: 'POST', path: '/api/transcribe', browser: true, handle: (ctx, req, res) => postTranscribe(transcribeOptions(ctx.services), req, res) },
  { method: 'GET', path: '/api/transcribe/status', browser: true, handle: (ctx, _req, res) => getTranscribeStatus(transcribeOptions(ctx.services), res) },
  ...commanderRoutes,
];
