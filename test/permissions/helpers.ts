// Shared setup for permission tests: a real relay on port 0 in a temp data dir,
// and a hook-side ask that long-polls `POST /api/permissions` like the adapters do.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import type { PermissionAsk } from '../../protocol/wire/http';
import { createRelay, type Relay } from '../../relay/server';

export function tempDir(prefix: string, cleanups: Array<() => unknown>): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export async function startTestRelay(dataDir: string, port = 0): Promise<Relay> {
  return createRelay({
    port, host: '127.0.0.1', demo: false, repos: [], dataDir,
    registryFile: path.join(dataDir, 'no-registry'), appDir: path.join(dataDir, 'no-app'),
  });
}

export function hookTokenOf(dataDir: string): string {
  return fs.readFileSync(path.join(dataDir, 'hook-token'), 'utf8').trim();
}

export function askBody(extra: Partial<PermissionAsk> = {}): PermissionAsk {
  return {
    session: 'sess-1', tool: 'Bash', summary: 'touch made.txt', detail: 'touch made.txt', cwd: '/tmp/project',
    exact: 'touch made.txt', key: `k-${crypto.randomBytes(8).toString('hex')}`, timeoutMs: 30_000, ...extra,
  };
}

export interface AskResult {
  status: number;
  body: { id?: string; decision?: string; reason?: string; by?: string | null; error?: { code: string } };
}

/** One long-poll: resolves when the relay answers (a decision, or an error status). */
export async function ask(relay: { url: string; dataDir: string }, body: unknown, token = hookTokenOf(relay.dataDir)): Promise<AskResult> {
  const res = await longPoll(relay.url, body, token);
  return { status: res.status, body: JSON.parse(res.body) as AskResult['body'] };
}

/** `POST /api/permissions`; rejects when the connection drops, even after the relay's early headers (GUARD-9). */
function longPoll(url: string, body: unknown, token: string): Promise<{ status: number; body: string }> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}/api/permissions`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), authorization: `Bearer ${token}` },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
      res.on('aborted', () => reject(new Error('the relay dropped the long-poll')));
    });
    req.on('error', reject);
    req.end(text);
  });
}
