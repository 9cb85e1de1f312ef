// `POST /api/hooks/report` (REPORT-n): Claude Code's reporting hooks without node and without the
// spool. `hooks/report` (bash, no process started) sends the hook's record — the spool record's
// layout (ORDER-1): NUL-terminated `KEY=value` fields, an empty field, the payload — and waits for
// the answer, so the records of one session reach the relay in the order the hooks ran. The relay
// does what the hook and the poster would have done: for `Stop` and `SessionEnd` the bus part first
// (the checkpoint, `session_end`; ORDER-1), then the live events, with calls left open closed
// before `idle` / `end` (LIVE-EMIT-5). Only a `200` means it is done; anything else makes the hook
// spool the record as before, so nothing is lost while the relay is down.
import type * as http from 'node:http';
import { translate } from '../../adapters/claude/lib/translate';
import { sessionRef } from '../../adapters/claude/lib/payload';
import { sessionEndBusAsync, turnEndBusAsync, type TurnEndState } from '../../adapters/lib/hook-actions';
import { RECORD_KEYS } from '../../adapters/lib/hook-spool';
import type { Env } from '../../adapters/lib/env';
import { CommandrError } from '../../protocol/wire/errors';
import type { RelayServices } from '../context';
import { readHookRecord } from './hook-record';
import type { StoredLiveEvent } from './store';
import { ingestLive, publishAfterAnswer } from './route';

/** The same bound as a permission check: a huge Write's payload. */
export const REPORT_BODY_LIMIT = 1024 * 1024;
/** The fields the relay reads: the spool record's, plus where the hook ran. */
export const REPORT_KEYS = [...RECORD_KEYS, 'PWD', 'GIT_DIR', 'GIT_WORK_TREE'] as const;
const HOOKS = new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'Stop', 'SessionEnd']);

/**
 * How long after a session's turn end its session end may count the files from the state that turn
 * end read (HOOK-2). `claude -p` ends its session a few milliseconds after its last turn; the same
 * `git status` again would cost every headless turn a second run (tens of ms in a large repository).
 */
export const SESSION_END_REUSE_MS = 2000;

interface LastTurnEnd extends TurnEndState {
  at: number;
  /** The session's latest live event when the turn end was done: anything newer means it went on. */
  latest: StoredLiveEvent | undefined;
}

const lastTurnEnds = new WeakMap<RelayServices, Map<string, LastTurnEnd>>();

function turnEndsOf(services: RelayServices): Map<string, LastTurnEnd> {
  let ends = lastTurnEnds.get(services);
  if (!ends) lastTurnEnds.set(services, (ends = new Map()));
  return ends;
}

/** The state the session's own turn end read, if it was just now and nothing of the session came since. */
function takeTurnEnd(services: RelayServices, session: string): TurnEndState | undefined {
  const ends = turnEndsOf(services);
  const last = ends.get(session);
  ends.delete(session);
  if (!last || Date.now() - last.at > SESSION_END_REUSE_MS) return undefined;
  return services.live.recent(session).at(-1) === last.latest ? last : undefined;
}

function keepTurnEnd(services: RelayServices, session: string, turnEnd: TurnEndState | undefined): void {
  const ends = turnEndsOf(services);
  ends.delete(session);
  const now = Date.now();
  for (const [other, last] of ends) if (now - last.at > SESSION_END_REUSE_MS) ends.delete(other);
  if (turnEnd) ends.set(session, { ...turnEnd, at: now, latest: services.live.recent(session).at(-1) });
}

export async function postHookReport(services: RelayServices, hookToken: string, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const { env, payload, at } = await readHookRecord(services, req, hookToken, REPORT_KEYS, REPORT_BODY_LIMIT, 'hook report');
  const hook = env.HOOK ?? '';
  if (!HOOKS.has(hook)) throw new CommandrError('E_BAD_FRAME', `hook report: HOOK must be one of ${[...HOOKS].join(', ')}, not ${JSON.stringify(hook.slice(0, 40))}`);
  delete env.HOOK;
  // The relay's data dir is the hook's $COMMANDR_HOME: the hook found this relay's credential there.
  const where: Env = { ...env, COMMANDR_HOME: services.dataDir };
  const ref = sessionRef(payload, where);
  const turnEnd = ref && hook === 'Stop' ? await turnEndBusAsync(ref, where) : undefined;
  if (ref && hook === 'SessionEnd') await sessionEndBusAsync(ref, where, takeTurnEnd(services, ref.session));
  // After a bus part the live event is stamped when it is done, so it follows what it wrote (ORDER-3).
  const busPart = hook === 'Stop' || hook === 'SessionEnd';
  const record = { at: busPart ? Math.max(at, Math.floor(Date.now() * 1000)) : at, hook, payload };
  const publish = () => {
    let happening;
    try {
      happening = translate(record, where);
    } catch {
      happening = undefined; // the bus part is done: a payload the live view cannot use is not an error
    }
    if (happening) ingestLive(services, happening);
  };
  if (busPart) {
    publish();
    if (ref && hook === 'Stop') keepTurnEnd(services, ref.session, turnEnd);
  }
  res.writeHead(200, { 'content-length': 0, 'cache-control': 'no-store' });
  res.end();
  // A tool's end is published once the answer has left, so the hook does not wait for it, and
  // before anything published later (REPORT-2).
  if (!busPart) publishAfterAnswer(services, publish);
}
