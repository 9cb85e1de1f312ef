// Entry of the relay bundle (dist/relay.cjs), loaded by `commandr` only for
// `serve`, `pair` and `devices` (SERVE-n, PAIR-n, DEV-n). The relay's one logger
// lives here: modules return or throw, this file prints.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import QRCode from 'qrcode';
import { createPairingCode, pairingUrl } from '../relay/devices/pairing';
import { DeviceStore } from '../relay/devices/store';
import { escapeControls, escapeJsonControls } from '../protocol/wire/device-name';
import { createRelay, relayInfoFile } from '../relay/server';
import { DEFAULT_HOST, DEFAULT_PORT, defaultDataDir, type Logger, normalizeOrigin } from '../relay/options';
import { detectTailscale, isLoopbackOrigin, reachAdvice, readRelayConfig, saveRelayConfig } from '../relay/reach';

class CliError extends Error {
  constructor(message: string, readonly exitCode = 2) {
    super(message);
  }
}

const USAGE = `usage:
  commandr serve [--port N] [--host H] [--data DIR] [--repo PATH…] [--tls-cert F --tls-key F] [--no-sandbox]
                 [--public-origin URL] [--allow-root DIR…] [--app-dir DIR] [--demo|--no-demo]
  commandr pair [--data DIR] [--public-origin URL]
  commandr devices [list] [--data DIR] [--json]
  commandr devices revoke <device-id> [--data DIR]
  commandr devices owner <device-id> [--data DIR]`;

const logger: Logger = {
  info: (message) => process.stderr.write(`${new Date().toISOString()} ${message}\n`),
  warn: (message) => process.stderr.write(`${new Date().toISOString()} warning: ${message}\n`),
  error: (error, context) =>
    process.stderr.write(`${new Date().toISOString()} error${context ? ` ${context}` : ''}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`),
};

/** `main('serve', args)` as `commandr` calls it, or `main(['serve', ...args])`. */
export async function main(subcommand: string | string[], rest: string[] = []): Promise<number> {
  const [name, ...args] = Array.isArray(subcommand) ? subcommand : [subcommand, ...rest];
  try {
    if (args.includes('--help') || args.includes('-h')) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    if (name === 'serve') return await serve(args);
    if (name === 'pair') return await pair(args);
    if (name === 'devices') return devices(args);
    throw new CliError(`unknown relay subcommand ${JSON.stringify(name)}`);
  } catch (error) {
    const code = error instanceof CliError ? error.exitCode : error instanceof TypeError ? 2 : 1;
    const text = error instanceof Error && !(error instanceof CliError) && code === 1 ? (error.stack ?? error.message) : (error as Error).message;
    process.stderr.write(`commandr ${name}: ${code === 2 ? 'E_BAD_ARGS: ' : ''}${text}\n${code === 2 ? `${USAGE}\n` : ''}`);
    return code;
  }
}

/** Runs parseArgs; its complaints are usage errors. */
function parse<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw new CliError((error as Error).message);
  }
}

async function serve(args: string[]): Promise<number> {
  const { values } = parse(() => parseArgs({
    args,
    strict: true,
    options: {
      port: { type: 'string' }, host: { type: 'string' }, data: { type: 'string' }, repo: { type: 'string', multiple: true },
      'tls-cert': { type: 'string' }, 'tls-key': { type: 'string' }, 'public-origin': { type: 'string' },
      'allow-root': { type: 'string', multiple: true }, 'app-dir': { type: 'string' }, demo: { type: 'boolean' }, 'no-demo': { type: 'boolean' },
      'no-sandbox': { type: 'boolean' },
    },
  }));
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port must be 0–65535, got ${JSON.stringify(values.port)}`);
  if (Boolean(values['tls-cert']) !== Boolean(values['tls-key'])) throw new CliError('--tls-cert and --tls-key go together');
  const tls = values['tls-cert'] && values['tls-key'] ? { cert: readFile(values['tls-cert'], '--tls-cert'), key: readFile(values['tls-key'], '--tls-key') } : undefined;
  const dataDir = path.resolve(values.data ?? defaultDataDir());
  // REACH-3: a public origin given once is remembered for later runs and for `commandr pair`.
  const publicOrigin = values['public-origin'] !== undefined ? normalizeOrigin(values['public-origin']) : readRelayConfig(dataDir).publicOrigin ?? undefined;
  const host = values.host ?? DEFAULT_HOST;
  const relay = await createRelay({
    port, host, dataDir, repos: values.repo ?? [], tls,
    publicOrigin, allowRoots: values['allow-root'] ?? [], appDir: values['app-dir'],
    demo: values['no-demo'] ? false : values.demo, logger,
    // SANDBOX-6: agents run sandboxed unless refused here; the TLS key file is hidden from them too.
    sandbox: !values['no-sandbox'], sandboxHidden: values['tls-key'] ? [values['tls-key']] : [],
  }).catch((error: unknown) => {
    // CLIUX-2: a busy port is one sentence, not a stack.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new CliError(`port ${port} on ${host} is already in use (another relay? \`commandr pair\` finds a running one); choose another with --port`, 1);
    if (code === 'EACCES' || code === 'EADDRNOTAVAIL') throw new CliError(`cannot listen on ${host}:${port} (${code}); choose another --host or --port`, 1);
    throw error;
  });
  if (values['public-origin'] !== undefined) saveRelayConfig(dataDir, { publicOrigin: relay.origin });
  process.stdout.write(`listening: ${relay.url}\n`);
  const watched = (relay.services.hub as { repos?: () => Array<{ demo: boolean; path: string }> } | undefined)?.repos?.() ?? [];
  const demo = watched.find((r) => r.demo);
  if (demo) {
    process.stdout.write(`\nShowing the DEMO workspace (a sample repo at ${demo.path}), since no repository is registered.\n`
      + 'Add your own with `commandr init <repo>` (or start with --repo <path>); the demo then steps aside.\n');
  } else {
    process.stdout.write(`watching ${watched.length} repositor${watched.length === 1 ? 'y' : 'ies'}\n`);
  }
  const origin = relay.options.publicOrigin ?? phoneOrigin(relay.options.host, relay.url);
  await printPairing(relay.dataDir, origin, relay.port);
  logger.info(`data dir ${relay.dataDir}; app ${relay.options.appDir}`);
  return new Promise<number>((resolve) => {
    const stop = (signal: string) => {
      logger.info(`${signal}: stopping`);
      void relay.close().then(() => resolve(0), (error: unknown) => {
        logger.error(error, 'while stopping');
        resolve(1);
      });
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
}

async function pair(args: string[]): Promise<number> {
  const { values } = parse(() => parseArgs({ args, strict: true, options: { data: { type: 'string' }, 'public-origin': { type: 'string' } } }));
  const dataDir = path.resolve(values.data ?? defaultDataDir());
  const running = runningRelay(dataDir);
  // REACH-4: the flag, else the configured public origin, else the running relay's origin.
  const origin = values['public-origin'] ? normalizeOrigin(values['public-origin']) : readRelayConfig(dataDir).publicOrigin ?? running?.origin;
  if (!running) process.stderr.write(`commandr pair: no relay is running for ${dataDir}; start one with \`commandr serve\`\n`);
  const fallback = `http://${DEFAULT_HOST}:${DEFAULT_PORT}`;
  await printPairing(dataDir, origin ?? fallback, Number(new URL(running?.url ?? origin ?? fallback).port || DEFAULT_PORT));
  return 0;
}

function devices(args: string[]): number {
  const { values, positionals } = parse(() =>
    parseArgs({ args, strict: true, allowPositionals: true, options: { data: { type: 'string' }, json: { type: 'boolean' } } }),
  );
  const store = new DeviceStore(path.resolve(values.data ?? defaultDataDir()));
  const [action = 'list', id, ...extra] = positionals; // CLIUX-3: listing is the default
  if (action === 'list' && id === undefined) {
    const list = store.list();
    // DEVNAME-2: a stored name is printed with its control characters escaped, so it can
    // neither drive the terminal nor fake a line; JSON.stringify leaves DEL, C1 and bidi raw.
    if (values.json) process.stdout.write(`${escapeJsonControls(JSON.stringify(list.map((d) => store.view(d, null)), null, 2))}\n`);
    else if (list.length === 0) process.stdout.write('no paired devices; pair one with `commandr pair`\n');
    else for (const d of list) process.stdout.write(`${d.id}  ${escapeControls(d.name)}  paired ${d.createdAt}  last seen ${d.lastSeenAt ?? 'never'}\n`);
    return 0;
  }
  if (action === 'revoke' && id !== undefined && extra.length === 0) {
    if (!store.get(id)) throw new CliError(`no device ${JSON.stringify(id)}; see \`commandr devices list\``, 1);
    store.revoke(id);
    process.stdout.write(`revoked: ${id}\n`);
    return 0;
  }
  if (action === 'owner' && id !== undefined && extra.length === 0) {
    if (!store.get(id)) throw new CliError(`no device ${JSON.stringify(id)}; see \`commandr devices list\``, 1);
    store.markOwner(id);
    process.stdout.write(`owner: ${id}\n`);
    return 0;
  }
  throw new CliError('devices takes `list`, `revoke <device-id>` or `owner <device-id>`');
}

/**
 * REACH-1: a loopback origin never gets a link or QR "for your phone": the link is for a
 * browser on this computer, followed by how a phone can reach the relay. `port`: the relay's local port.
 */
async function printPairing(dataDir: string, origin: string, port: number): Promise<void> {
  const { code, expiresAt } = createPairingCode(dataDir);
  const url = pairingUrl(origin, code);
  const until = new Date(expiresAt).toLocaleTimeString();
  if (isLoopbackOrigin(origin)) {
    process.stdout.write(`\nPair a browser on THIS computer (single use, valid until ${until}):\n\n  ${url}\n\n`);
    process.stdout.write(`${reachAdvice(port, detectTailscale()).join('\n')}\n`);
    return;
  }
  const qr = await QRCode.toString(url, { type: 'terminal', small: true });
  process.stdout.write(`\nPair a phone: open this link on it (single use, valid until ${until}):\n\n  ${url}\n\n${qr}\n`);
  if (origin.startsWith('http:') && !/^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:|$)/.test(origin)) {
    process.stdout.write('Note: phones only allow the app\'s key storage over https; use --tls-cert/--tls-key or --public-origin behind a TLS tunnel.\n');
  }
}

/** The running relay's origin, from the file it keeps in the data dir while it runs. */
function runningRelay(dataDir: string): { origin: string; url: string } | undefined {
  try {
    const info = JSON.parse(fs.readFileSync(relayInfoFile(dataDir), 'utf8')) as { origin?: string; url?: string; pid?: number };
    if (typeof info.origin !== 'string' || typeof info.pid !== 'number') return undefined;
    process.kill(info.pid, 0);
    return { origin: info.origin, url: typeof info.url === 'string' ? info.url : info.origin };
  } catch {
    return undefined;
  }
}

/** A phone cannot reach 127.0.0.1 of this machine: for a wildcard bind, offer a LAN address. */
function phoneOrigin(host: string, url: string): string {
  if (host !== '0.0.0.0' && host !== '::') return new URL(url).origin;
  const lan = Object.values(os.networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal);
  const u = new URL(url);
  if (lan) u.hostname = lan.address;
  return u.origin;
}

function readFile(file: string, flag: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    throw new CliError(`${flag}: cannot read ${file}: ${(error as Error).message}`, 1);
  }
}
