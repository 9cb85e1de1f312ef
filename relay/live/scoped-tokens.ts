// Per-run hook credentials (JOBTOKEN-n): each task job and commander turn gets its own random
// token, passed in env (COMMANDR_HOOK_TOKEN), never the relay-wide <dataDir>/hook-token. It may
// only report and ask on the hook routes, and only for its own task (or commander) and paths;
// it is revoked when the run ends. The relay-wide token keeps working for wired sessions.
import * as crypto from 'node:crypto';
import * as path from 'node:path';
import type * as http from 'node:http';
import { CommandrError } from '../../protocol/wire/errors';
import { bearerToken } from '../http/respond';
import { tokenMatches } from './hook-token';

export interface TokenScope {
  /** `j-…` for a job, `commander-<id>` for a commander turn: what errors name. */
  owner: string;
  repoId?: string;
  task?: string;
  /** COMMANDR_AGENT_ID of the run. */
  agent: string;
  /** Directories the run works in (worktree, repo, commander dir): every path it reports must lie under one. */
  roots: string[];
}

interface Entry {
  scope: TokenScope;
  /** Question keys this run asked, the only ones it may cancel. */
  asked: Set<string>;
}

const digest = (token: string): string => crypto.createHash('sha256').update(token).digest('hex');

export class ScopedTokens {
  private byDigest = new Map<string, Entry>();

  issue(scope: TokenScope): string {
    const token = `cj_${crypto.randomBytes(32).toString('base64url')}`;
    this.byDigest.set(digest(token), { scope: { ...scope, roots: scope.roots.map((r) => path.resolve(r)) }, asked: new Set() });
    return token;
  }

  revoke(token: string): void {
    this.byDigest.delete(digest(token));
  }

  find(presented: string | undefined): Entry | undefined {
    return presented === undefined ? undefined : this.byDigest.get(digest(presented));
  }

  get size(): number {
    return this.byDigest.size;
  }
}

const registry = new WeakMap<object, ScopedTokens>();

/** The relay's scoped tokens (one set per relay's services). */
export function scopedTokensOf(services: object): ScopedTokens {
  let tokens = registry.get(services);
  if (!tokens) registry.set(services, (tokens = new ScopedTokens()));
  return tokens;
}

/** Who is calling a hook route: the relay-wide credential (scope null) or a run's own. */
export type HookCaller = { scope: null } | { scope: TokenScope; asked: Set<string> };

/** Checks the bearer credential of a hook route; throws E_UNAUTHORIZED naming `what`. */
export function hookCaller(services: object, hookToken: string, req: http.IncomingMessage, what: string): HookCaller {
  const presented = bearerToken(req);
  if (tokenMatches(presented, hookToken)) return { scope: null };
  const entry = scopedTokensOf(services).find(presented);
  if (entry) return { scope: entry.scope, asked: entry.asked };
  req.resume();
  throw new CommandrError('E_UNAUTHORIZED', `${what} needs the hook credential (Authorization: Bearer <COMMANDR_HOOK_TOKEN or dataDir/hook-token>); this one is unknown or its run has ended`);
}

/** What a request claims about itself, checked against a scoped caller. */
export interface Claims {
  task?: string | undefined;
  agent?: string | undefined;
  paths?: Array<string | undefined>;
}

/** Refuses (E_FORBIDDEN, 403) a scoped caller claiming another task, agent or a path outside its roots. */
export function checkScope(caller: HookCaller, claims: Claims, what: string): void {
  if (caller.scope === null) return;
  const s = caller.scope;
  const refuse = (why: string): never => {
    throw new CommandrError('E_FORBIDDEN', `${what}: the credential of ${s.owner} ${why}`);
  };
  if (claims.task !== undefined && claims.task !== '' && claims.task !== s.task) refuse(`is for ${s.task ? `task ${s.task}` : 'no task'}${s.repoId ? ` in ${s.repoId}` : ''}, not task ${JSON.stringify(claims.task.slice(0, 128))}`);
  if (claims.agent !== undefined && claims.agent !== '' && claims.agent !== s.agent) refuse(`is for agent ${s.agent}, not ${JSON.stringify(claims.agent.slice(0, 256))}`);
  for (const p of claims.paths ?? []) {
    if (p === undefined || p === '') continue;
    const abs = path.resolve(p);
    if (!s.roots.some((r) => abs === r || abs.startsWith(`${r}${path.sep}`))) refuse(`may not speak for ${JSON.stringify(p.slice(0, 512))}: outside ${s.roots.join(', ')}`);
  }
}
