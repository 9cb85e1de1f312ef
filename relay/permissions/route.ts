// `POST /api/permissions` (PERM-1): a local hook (hook credential) asks for a
// person's decision and long-polls until there is one. The same `key` finds the
// same request again, so a hook retrying after a relay restart gets its answer.
import type * as http from 'node:http';
import { CommandrError } from '../../protocol/wire/errors';
import { PermissionAsk } from '../../protocol/wire/http';
import type { RelayServices } from '../context';
import { readJsonAs } from '../http/respond';
import { asItself, checkScope, checkSession, checkWaiting, hookCaller } from '../live/scoped-tokens';
import { PermissionService } from './service';
import { requestIdFor } from './store';
import { linkedToHome } from '../fleet/linked';

export const PERMISSION_BODY_LIMIT = 128 * 1024;

export async function postPermission(services: RelayServices, hookToken: string, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const caller = hookCaller(services, hookToken, req, 'permission requests');
  const permissions = services.permissions;
  if (!(permissions instanceof PermissionService)) throw new CommandrError('E_UNAVAILABLE', 'permission requests are not available');
  const asked = await readJsonAs(req, PermissionAsk, 'permission ask', PERMISSION_BODY_LIMIT);
  checkScope(caller, { task: asked.task, agent: asked.agent, paths: [asked.cwd] }, 'permission ask'); // JOBTOKEN-2
  checkSession(services, caller, asked.session, 'permission ask'); // JOBTOKEN-3
  // What a run left unsaid is its own, and a key is only ever its own session's request (JOBTOKEN-3).
  const body = asItself(caller, asked);
  const id = requestIdFor(body.key);
  const existing = caller.scope === null ? undefined : permissions.get(id);
  if (caller.scope !== null && existing && (existing.session !== body.session || existing.agent !== caller.scope.agent)) {
    throw new CommandrError('E_FORBIDDEN', `permission ask: the credential of ${caller.scope.owner} may not join request ${existing.id}: it is another session's`);
  }
  checkWaiting(caller, `permission:${id}`, () => permissions.get(id)?.status === 'pending', 'permission ask'); // JOBTOKEN-4
  // No paired device means no one can answer: say so at once, so the hook leaves
  // the decision to the agent's own permission rules (PERM-10).
  // A member linked to its home is answered by the home's devices (FLEETX-3).
  if (services.devices.list().length === 0 && !linkedToHome(services)) throw new CommandrError('E_UNAVAILABLE', 'no paired device can answer a permission request');
  // Read after the hook stopped waiting (the relay was hung): never shown as answerable (GUARD-9).
  if (body.ackBy !== undefined && Date.now() > body.ackBy) {
    const view = permissions.abandon(body);
    throw new CommandrError('E_EXPIRED', `request ${view.id} arrived after its hook stopped waiting; it was recorded as expired`);
  }
  // The headers are the acknowledgement: the hook knows the relay took the request (GUARD-9).
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.flushHeaders();
  await new Promise<void>((resolve) => {
    let cancel = () => {};
    const gone = () => {
      // The hook went away: stop waiting. A retry with the same key keeps the request;
      // none within the grace period and it is abandoned (GUARD-11).
      cancel();
      permissions.hookGone(id);
      resolve();
    };
    res.once('close', gone);
    cancel = permissions.ask(body, (answer) => {
      res.off('close', gone);
      if (!res.writableEnded && !res.destroyed) res.end(JSON.stringify({ id, ...answer }));
      resolve();
    }).cancel;
  });
}
