// The local admin API behind `commandr commanders …` (CMDR-CLI-n): same-machine
// callers prove themselves with the admin credential (<dataDir>/admin-token, 0600;
// the hook credential is refused, CRED-2), and reach the same service the phone does.
import type * as http from 'node:http';
import * as z from 'zod/mini';
import { CommandrError } from '../../protocol/wire/errors';
import { CommanderAddReference, CommanderCreate, CommanderMessage, CommanderReplace } from '../../protocol/wire/frames';
import { bearerToken, readJsonAs, sendJson } from '../http/respond';
import type { HttpContext, Route } from '../http/routes';
import { tokenMatches } from '../live/hook-token';
import { commandersOf } from './index';

export const LOCAL_COMMANDERS_PATH = '/api/local/commanders';

const Start = z.pick(CommanderCreate, { name: true, referencePath: true });
const Say = z.extend(z.pick(CommanderMessage, { commander: true }), { text: CommanderMessage.shape.text });
const One = z.pick(CommanderReplace, { commander: true });
const AddReference = z.pick(CommanderAddReference, { commander: true, path: true });

function authorize(ctx: HttpContext, req: http.IncomingMessage): void {
  if (!tokenMatches(bearerToken(req), ctx.adminToken)) {
    req.resume();
    throw new CommandrError('E_UNAUTHORIZED', 'the local commanders API needs the admin credential (Authorization: Bearer <dataDir/admin-token>); the hook credential is not enough');
  }
}

const BODY_LIMIT = 128 * 1024;

// `body(schema)` reads the request's JSON checked against the schema; its errors name the command.
type Body = <T>(schema: z.ZodMiniType<T>) => Promise<T>;
type Handle = (ctx: HttpContext, body: Body) => Promise<unknown>;

const post = (sub: string, handle: Handle): Route => ({
  method: 'POST', path: `${LOCAL_COMMANDERS_PATH}/${sub}`, browser: false,
  handle: async (ctx, req, res) => {
    authorize(ctx, req);
    sendJson(res, 200, await handle(ctx, (schema) => readJsonAs(req, schema, `commanders ${sub}`, BODY_LIMIT)));
  },
});

export const commanderRoutes: Route[] = [
  {
    method: 'GET', path: LOCAL_COMMANDERS_PATH, browser: false,
    handle: (ctx, req, res) => {
      authorize(ctx, req);
      const c = commandersOf(ctx.services);
      sendJson(res, 200, { commanders: c.list(), allowedRoots: c.allowedRoots() });
    },
  },
  post('start', async (ctx, body) => {
    const b = await body(Start);
    return { commander: commandersOf(ctx.services).create(b.name, b.referencePath) };
  }),
  post('say', async (ctx, body) => {
    const b = await body(Say);
    return commandersOf(ctx.services).message(b.commander, b.text);
  }),
  post('replace', async (ctx, body) => ({ commander: await commandersOf(ctx.services).replace((await body(One)).commander) })),
  post('add-reference', async (ctx, body) => {
    const b = await body(AddReference);
    return { commander: commandersOf(ctx.services).addReference(b.commander, b.path) };
  }),
  post('delete', async (ctx, body) => {
    const { commander } = await body(One);
    await commandersOf(ctx.services).delete(commander);
    return { deleted: commander };
  }),
  post('output', async (ctx, body) => commandersOf(ctx.services).output((await body(One)).commander)),
];
