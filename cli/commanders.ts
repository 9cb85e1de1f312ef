// `commandr commanders list|start|say|replace|delete|log` (CMDR-CLI-n): a thin
// client of the running relay's local admin API, authenticated with the relay's
// admin credential file (<dataDir>/admin-token, CRED-1). Clear errors when no relay is running.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { defaultDataDir } from '../relay/options';
import { runTool, UsageError } from './_shared/tool';

const NAME = 'commandr commanders';
const USAGE = [
  'usage: commandr commanders list',
  '       commandr commanders start <name> <reference-path>',
  '       commandr commanders say <id> <message…>',
  '       commandr commanders replace <id>',
  '       commandr commanders delete <id>',
  '       commandr commanders log <id>',
  'options: --data <dir> (default $COMMANDR_HOME or ~/.commandr), --url <relay url> (default: the running relay)',
].join('\n');

class CliError extends Error {}

interface Target {
  url: string;
  token: string;
}

function target(dataDir: string, url: string | undefined): Target {
  const tokenFile = path.join(dataDir, 'admin-token');
  let token: string;
  try {
    token = fs.readFileSync(tokenFile, 'utf8').trim();
  } catch {
    throw new CliError(`no relay admin credential at ${tokenFile}: the relay has never run with this data dir (start it with \`commandr serve\`)`);
  }
  if (url) return { url, token };
  try {
    const info = JSON.parse(fs.readFileSync(path.join(dataDir, 'relay.json'), 'utf8')) as { url?: unknown };
    if (typeof info.url === 'string') return { url: info.url, token };
  } catch {
    // fall through
  }
  throw new CliError(`the relay is not running (no ${path.join(dataDir, 'relay.json')}); start it with \`commandr serve\``);
}

async function call(t: Target, method: 'GET' | 'POST', sub: string, body?: unknown): Promise<any> {
  const url = `${t.url}/api/local/commanders${sub ? `/${sub}` : ''}`;
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: { authorization: `Bearer ${t.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    throw new CliError(`the relay at ${t.url} is not running or not reachable (${cause}); start it with \`commandr serve\``);
  }
  const answer = (await res.json().catch(() => ({}))) as { error?: { code: string; message: string } };
  if (!res.ok) throw new CliError(answer.error ? `${answer.error.code}: ${answer.error.message}` : `the relay answered HTTP ${res.status}`);
  return answer;
}

interface View { id: string; name: string; status: string; waitingFor: string | null; session: string | null; referencePaths: string[] }

function line(c: View): string {
  const waiting = c.status === 'waiting' && c.waitingFor ? ` (${c.waitingFor})` : '';
  return `${c.id}  ${c.status.padEnd(8)}  ${c.name}${waiting}  ${c.referencePaths.join(', ')}`;
}

function options(args: string[]): { rest: string[]; dataDir: string; url?: string } {
  const rest: string[] = [];
  let dataDir = defaultDataDir();
  let url: string | undefined = process.env.COMMANDR_URL || undefined;
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i]!;
    if (a === '--data' || a === '--url') {
      const value = args[++i];
      if (value === undefined) throw new UsageError(`${a} needs a value`);
      if (a === '--data') dataDir = path.resolve(value);
      else url = value;
    } else rest.push(a);
  }
  return { rest, dataDir, url };
}

async function main(args: string[]): Promise<number> {
  const { rest, dataDir, url } = options(args);
  const [verb, ...params] = rest;
  const need = (n: number, what: string) => {
    if (params.length < n) throw new UsageError(`${verb} needs ${what}`);
  };
  const t = () => target(dataDir, url);
  switch (verb) {
    case 'list': {
      const { commanders, allowedRoots } = await call(t(), 'GET', '');
      for (const c of commanders as View[]) process.stdout.write(line(c) + '\n');
      if (commanders.length === 0) process.stdout.write(`no commanders (reference paths may be under: ${(allowedRoots as string[]).join(', ') || 'nothing allowed yet'})\n`);
      return 0;
    }
    case 'start': {
      need(2, '<name> <reference-path>');
      if (params.length > 2) throw new UsageError('start takes exactly <name> <reference-path> (quote a name with spaces)');
      const { commander } = await call(t(), 'POST', 'start', { name: params[0], referencePath: path.resolve(params[1]!) });
      process.stdout.write(`started: ${line(commander)}\n`);
      return 0;
    }
    case 'say': {
      need(2, '<id> <message>');
      const { queued } = await call(t(), 'POST', 'say', { commander: params[0], text: params.slice(1).join(' ') });
      process.stdout.write(queued > 0 ? `queued: ${queued} ahead\n` : 'sent\n');
      return 0;
    }
    case 'replace': case 'delete': case 'log': {
      need(1, '<id>');
      if (verb === 'log') {
        const { chunks } = await call(t(), 'POST', 'output', { commander: params[0] });
        for (const c of chunks as { chunk: string }[]) process.stdout.write(c.chunk);
        return 0;
      }
      const answer = await call(t(), 'POST', verb, { commander: params[0] });
      process.stdout.write(verb === 'delete' ? `deleted: ${answer.deleted}\n` : `replaced: ${line(answer.commander)}\n`);
      return 0;
    }
    default:
      throw new UsageError(verb === undefined ? 'missing subcommand' : `unknown subcommand ${JSON.stringify(verb)}`);
  }
}

runTool(NAME, USAGE, async (args) => {
  try {
    return await main(args);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    process.stderr.write(`${NAME}: ${error.message}\n`);
    return 1;
  }
});
