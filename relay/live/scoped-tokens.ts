// Per-run hook credentials (JOBTOKEN-n): each task job and commander turn gets its own random
// token, passed in env (COMMANDR_HOOK_TOKEN), never the relay-wide <dataDir>/hook-token. It may
// only report and ask on the hook routes, and only for its own task (or commander) and paths;
// it is revoked when the run ends. The relay-wide token keeps working for wired sessions.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as http from 'node:http';
import { CommandrError } from '../../protocol/wire/errors';
import { bearerToken } from '../http/respond';
import type { RelayServices } from '../context';
import { tokenMatches } from './hook-token';
import { writePrivateFile } from '../devices/files';
import { readPlainText } from '../../bus/plain-file';

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
  /** Its permission asks and questions that may still wait for the person (JOBTOKEN-4): each says whether it still does. */
  waiting: Map<string, () => boolean>;
}

const digest = (token: string): string => crypto.createHash('sha256').update(token).digest('hex');

/** Sessions one run may name (JOBTOKEN-3): past it, a run making up sessions to crowd the phone's view is refused. */
export const SESSIONS_PER_RUN = 256;
/** Sessions whose speaker is remembered; the oldest is forgotten past it. */
export const SESSION_SPEAKERS_LIMIT = 20_000;
/** The speaker of a session first named with the relay-wide credential (a wired session of the person's). */
const WIDE = '';

/** Where a relay keeps the sessions of the person's own (JOBTOKEN-5), under its data dir. */
export const PERSON_SESSIONS_FILE = 'person-sessions.json';

export class ScopedTokens {
  private byDigest = new Map<string, Entry>();
  /** Session → who speaks for it (JOBTOKEN-3): the `owner` of the run that named it first, or WIDE. Outlives the runs. */
  private speakers = new Map<string, string>();
  private named = new Map<string, number>();
  /** A save of the person's sessions waits (JOBTOKEN-5). */
  private unsaved: NodeJS.Timeout | undefined;

  /**
   * `file`: where the sessions the relay-wide credential named are kept across restarts
   * (JOBTOKEN-5), so a run started after one cannot name a session of the person's that has not
   * reported again yet. A file that cannot be read as such a list is as none.
   */
  constructor(private readonly file?: string, warn: (message: string) => void = () => undefined) {
    if (file === undefined || !fs.existsSync(file)) return;
    let sessions: unknown;
    try {
      sessions = (JSON.parse(readPlainText(file, 16 * 1024 * 1024) ?? '') as { sessions?: unknown }).sessions;
    } catch { /* said below */ }
    if (!Array.isArray(sessions)) {
      warn(`${file} is not a list of sessions ({"v":1,"sessions":[…]}); a run may name the person's sessions until each reports again (JOBTOKEN-5)`);
      return;
    }
    for (const s of sessions.slice(-SESSION_SPEAKERS_LIMIT)) if (typeof s === 'string' && s !== '') this.speakers.set(s, WIDE);
  }

  /** Writes the person's sessions now, when a save waits (the relay's close; tests). */
  flush(): void {
    if (this.unsaved === undefined || this.file === undefined) return;
    clearTimeout(this.unsaved);
    this.unsaved = undefined;
    const sessions = [...this.speakers].filter(([, speaker]) => speaker === WIDE).map(([session]) => session);
    writePrivateFile(this.file, `${JSON.stringify({ v: 1, sessions })}\n`);
  }

  issue(scope: TokenScope): string {
    const token = `cj_${crypto.randomBytes(32).toString('base64url')}`;
    this.byDigest.set(digest(token), { scope: { ...scope, roots: scope.roots.map((r) => realPath(path.resolve(r))) }, asked: new Set(), waiting: new Map() });
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

  /**
   * Whether `caller` may speak for `session` (JOBTOKEN-3), recording who does. A run may name a
   * session no one has named (`known` says whether the relay holds anything of it from before,
   * such as a fleet member's events), or one it named before; the relay-wide credential names any,
   * and takes over one a run named first: a run's own session never reports with it, so that run
   * had named a session of the person's. Returns why not, or undefined.
   */
  speak(caller: HookCaller, session: string, known: (session: string) => boolean): string | undefined {
    const speaker = this.speakers.get(session);
    if (caller.scope === null) {
      if (speaker !== WIDE) {
        this.remember(session, WIDE);
        // Saved after the hook's answer, once for every session named meanwhile: never on its path.
        if (this.file !== undefined && this.unsaved === undefined) this.unsaved = setTimeout(() => this.flush(), 50).unref();
      }
      return undefined;
    }
    const owner = caller.scope.owner;
    if (speaker === owner) return undefined;
    if (speaker !== undefined || known(session)) return `may not speak for session ${JSON.stringify(session.slice(0, 256))}: another run's or a session of this machine's`;
    const count = this.named.get(owner) ?? 0;
    if (count >= SESSIONS_PER_RUN) return `has named ${SESSIONS_PER_RUN} sessions, the most a run may`;
    this.named.set(owner, count + 1);
    this.remember(session, owner);
    return undefined;
  }

  private remember(session: string, speaker: string): void {
    this.speakers.delete(session);
    this.speakers.set(session, speaker);
    while (this.speakers.size > SESSION_SPEAKERS_LIMIT) this.speakers.delete(this.speakers.keys().next().value!);
  }
}

/**
 * `p` (absolute) with every symlink of its longest existing part resolved, the rest as written:
 * where a path really leads, so a link inside a run's roots to a directory outside them is outside.
 */
export function realPath(p: string): string {
  const rest: string[] = [];
  for (let head = p; ; head = path.dirname(head)) {
    try {
      return path.join(fs.realpathSync.native(head), ...rest.reverse());
    } catch {
      if (path.dirname(head) === head) return p;
      rest.push(path.basename(head));
    }
  }
}

const registry = new WeakMap<object, ScopedTokens>();

/** The relay's scoped tokens (one set per relay's services). */
export function scopedTokensOf(services: object): ScopedTokens {
  let tokens = registry.get(services);
  if (!tokens) {
    const { dataDir, log } = services as { dataDir?: unknown; log?: { warn(message: string): void } };
    registry.set(services, (tokens = new ScopedTokens(typeof dataDir === 'string' ? path.join(dataDir, PERSON_SESSIONS_FILE) : undefined, (m) => log?.warn(m))));
  }
  return tokens;
}

/** Saves what the relay's scoped tokens must keep across a restart, if it has any (its close). */
export function flushScopedTokens(services: object): void {
  registry.get(services)?.flush();
}

/** Who is calling a hook route: the relay-wide credential (scope null) or a run's own. */
export type HookCaller = { scope: null } | { scope: TokenScope; asked: Set<string>; waiting: Map<string, () => boolean> };

/** Checks the bearer credential of a hook route; throws E_UNAUTHORIZED naming `what`. */
export function hookCaller(services: object, hookToken: string, req: http.IncomingMessage, what: string): HookCaller {
  const presented = bearerToken(req);
  if (tokenMatches(presented, hookToken)) return { scope: null };
  const entry = scopedTokensOf(services).find(presented);
  if (entry) return { scope: entry.scope, asked: entry.asked, waiting: entry.waiting };
  req.resume();
  throw new CommandrError('E_UNAUTHORIZED', `${what} needs the hook credential (Authorization: Bearer <COMMANDR_HOOK_TOKEN or dataDir/hook-token>); this one is unknown or its run has ended`);
}

/** What a request claims about itself, checked against a scoped caller. */
export interface Claims {
  task?: string | undefined;
  agent?: string | undefined;
  paths?: Array<string | undefined>;
  /** What a relative path in `paths` is relative to (the hook's PWD); with none, a relative path is refused. */
  base?: string | undefined;
}

/**
 * Refuses (E_FORBIDDEN, 403) a scoped caller claiming another task, agent or a path outside its
 * roots — where the path really leads, symlinks resolved (JOBTOKEN-2).
 */
export function checkScope(caller: HookCaller, claims: Claims, what: string): void {
  if (caller.scope === null) return;
  const s = caller.scope;
  const refuse = (why: string): never => {
    throw new CommandrError('E_FORBIDDEN', `${what}: the credential of ${s.owner} ${why}`);
  };
  if (claims.task !== undefined && claims.task !== '' && claims.task !== s.task) refuse(`is for ${s.task ? `task ${s.task}` : 'no task'}${s.repoId ? ` in ${s.repoId}` : ''}, not task ${JSON.stringify(claims.task.slice(0, 128))}`);
  if (claims.agent !== undefined && claims.agent !== '' && claims.agent !== s.agent) refuse(`is for agent ${s.agent}, not ${JSON.stringify(claims.agent.slice(0, 256))}`);
  const base = claims.base !== undefined && path.isAbsolute(claims.base) ? claims.base : undefined;
  for (const p of claims.paths ?? []) {
    if (p === undefined || p === '') continue;
    if (!path.isAbsolute(p) && base === undefined) refuse(`may not name the relative path ${JSON.stringify(p.slice(0, 512))} without an absolute PWD`);
    const real = realPath(path.resolve(base ?? '/', p));
    if (!s.roots.some((r) => real === r || real.startsWith(`${r}${path.sep}`))) refuse(`may not speak for ${JSON.stringify(p.slice(0, 512))}: outside ${s.roots.join(', ')}`);
  }
}

/**
 * Refuses (E_FORBIDDEN) a caller naming a session it may not speak for (JOBTOKEN-3). A session the
 * relay holds live events of, from before anyone named it here (a fleet member's), is not a run's.
 */
export function checkSession(services: RelayServices, caller: HookCaller, session: string, what: string): void {
  const why = scopedTokensOf(services).speak(caller, session, (s) => services.live.recent(s).length > 0);
  if (why !== undefined) throw new CommandrError('E_FORBIDDEN', `${what}: the credential of ${caller.scope?.owner} ${why}`);
}

/** What a run left unsaid is its own (JOBTOKEN-3): `body` with the run's agent and, for a job, its task. */
export function asItself<T extends { agent?: string | null | undefined; task?: string | undefined }>(caller: HookCaller, body: T): T {
  if (caller.scope === null) return body;
  return { ...body, agent: caller.scope.agent, ...(caller.scope.task !== undefined ? { task: caller.scope.task } : {}) };
}

/** Requests of one run that may wait for the person at once (JOBTOKEN-4): each new one pushes to the phone. */
export const WAITING_PER_RUN = 8;

/**
 * Refuses (E_RATE_LIMITED) a run's new permission ask or question while WAITING_PER_RUN of its
 * requests still wait for the person, so a run cannot flood the phone with prompts and pushes; an
 * ask again of one it made (a retry) always passes. `pending` says whether this one still waits.
 */
export function checkWaiting(caller: HookCaller, id: string, pending: () => boolean, what: string): void {
  if (caller.scope === null || caller.waiting.has(id)) return;
  for (const [other, stillPending] of caller.waiting) if (!stillPending()) caller.waiting.delete(other);
  if (caller.waiting.size >= WAITING_PER_RUN) throw new CommandrError('E_RATE_LIMITED', `${what}: the credential of ${caller.scope.owner} has ${WAITING_PER_RUN} requests waiting for the person already; answer or let them expire first`);
  caller.waiting.set(id, pending);
}
