// How a phone reaches this relay (REACH-n): is an origin loopback-only, is Tailscale
// here, what to do about it, and the public origin remembered in the relay config.
// Modules return; cli/relay.ts prints.
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { onPath } from '../adapters/lib/env';
import { RelayConfig, TailscaleStatus } from '../protocol/relay-config';
import { readJsonFile, writePrivateFile } from './devices/files';
import { normalizeOrigin } from './options';

export const relayConfigFile = (dataDir: string): string => path.join(dataDir, 'relay-config.json');

/** True when only this computer can open `origin` (127.0.0.0/8, ::1, localhost). */
export function isLoopbackOrigin(origin: string): boolean {
  const host = new URL(origin).hostname;
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** The saved config, or the empty one; a file that is not a valid config is a TypeError naming it. */
export function readRelayConfig(dataDir: string): RelayConfig {
  const file = relayConfigFile(dataDir);
  let raw: unknown;
  try {
    raw = readJsonFile(file);
  } catch (error) {
    throw new TypeError(`${file} is not JSON (${(error as Error).message}); fix or delete it`);
  }
  if (raw === undefined) return { publicOrigin: null };
  const parsed = RelayConfig.safeParse(raw);
  if (!parsed.success) throw new TypeError(`${file}: ${parsed.error.issues[0]?.path.join('.') || '(file)'}: ${parsed.error.issues[0]?.message}; fix or delete it`);
  return { publicOrigin: parsed.data.publicOrigin === null ? null : normalizeOrigin(parsed.data.publicOrigin) };
}

export function saveRelayConfig(dataDir: string, config: RelayConfig): void {
  writePrivateFile(relayConfigFile(dataDir), `${JSON.stringify(config, null, 2)}\n`);
}

export interface Tailscale {
  /** This machine's name on the tailnet (`host.tailnet.ts.net`), when Tailscale runs and says it. */
  dnsName: string | null;
  running: boolean;
}

/** Finds `tailscale` on PATH and asks `tailscale status --json` (2 s at most); null when it is not installed. */
export function detectTailscale(env: NodeJS.ProcessEnv = process.env): Tailscale | null {
  const bin = onPath('tailscale', env);
  if (!bin) return null;
  try {
    const out = execFileSync(bin, ['status', '--json'], { env, encoding: 'utf8', timeout: 2000, stdio: ['ignore', 'pipe', 'ignore'] });
    const status = TailscaleStatus.safeParse(JSON.parse(out));
    if (!status.success) return { dnsName: null, running: false };
    const name = status.data.Self?.DNSName?.replace(/\.$/, '') ?? '';
    return { dnsName: /^[A-Za-z0-9.-]+$/.test(name) ? name : null, running: status.data.BackendState === 'Running' };
  } catch {
    return { dnsName: null, running: false }; // installed but logged out, stopped or not answering
  }
}

/**
 * What to tell a person whose relay only this computer can reach: the three ways a
 * phone gets an https origin, with the exact commands for this port (docs/reaching.md).
 */
export function reachAdvice(port: number, tailscale: Tailscale | null): string[] {
  const lines = [`A phone cannot open this address: the relay listens on this computer only (loopback). To pair a phone, give it an https address:`];
  if (tailscale?.running && tailscale.dnsName) {
    lines.push(
      `  • Tailscale is running here (${tailscale.dnsName}). Run:`,
      `      tailscale serve --bg http://127.0.0.1:${port}`,
      `    then restart with:  commandr serve --port ${port} --public-origin https://${tailscale.dnsName}`,
    );
  } else if (tailscale) {
    lines.push(`  • Tailscale is installed but not running: \`tailscale up\`, then \`tailscale serve --bg http://127.0.0.1:${port}\` and restart with --public-origin https://<this machine>.<tailnet>.ts.net`);
  } else {
    lines.push(`  • Tailscale (https://tailscale.com): \`tailscale serve --bg http://127.0.0.1:${port}\`, then restart with --public-origin https://<this machine>.<tailnet>.ts.net`);
  }
  lines.push(
    `  • Your own certificate: commandr serve --host 0.0.0.0 --port ${port} --tls-cert cert.pem --tls-key key.pem --public-origin https://<name in the certificate>:${port}`,
    `  • A reverse proxy serving https: forward it to http://127.0.0.1:${port} (WebSocket upgrades included, Origin header unchanged) and restart with --public-origin https://<proxy's name>`,
    '  See docs/reaching.md. The public origin is remembered, and `commandr pair` prints links for it.',
  );
  return lines;
}
