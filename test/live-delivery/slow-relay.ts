// A real loopback proxy in front of a real relay that makes the relay slow at taking live
// events (LIVE-DELIVER-n tests): every `POST /api/events` and `POST /api/hooks/report` is
// answered only after `delayMs` (the relay gets it then, as a paused relay would read it late);
// the first `resets` such requests are cut off instead (a relay in a bad moment), never reaching
// the relay; with `firstDelayMs`, the first one that goes through waits that long instead. Everything else passes straight through. Also: CPU hogs beside the test.
import { type ChildProcess, spawn } from 'node:child_process';
import * as http from 'node:http';
import type * as net from 'node:net';
import { onCleanup } from '../adapters/harness';

export interface SlowRelay {
  url: string;
  /** Live-event and report requests seen, cut off ones included. */
  seen(): number;
}

const SLOWED = new Set(['/api/events', '/api/hooks/report']);

export async function slowRelay(target: string, options: { delayMs: number; resets?: number; firstDelayMs?: number }): Promise<SlowRelay> {
  let seen = 0;
  let forwarded = 0;
  let resets = options.resets ?? 0;
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const slowed = req.method === 'POST' && SLOWED.has(new URL(req.url ?? '/', 'http://x').pathname);
      if (slowed) seen++;
      if (slowed && resets > 0) { resets--; req.socket.destroy(); return; }
      const forward = () => {
        const out = http.request(new URL(req.url ?? '/', target), { method: req.method, headers: { ...req.headers, host: new URL(target).host } }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        out.on('error', () => res.destroy());
        res.on('error', () => {});
        out.end(Buffer.concat(chunks));
      };
      if (slowed) setTimeout(forward, forwarded++ === 0 && options.firstDelayMs !== undefined ? options.firstDelayMs : options.delayMs);
      else forward();
    });
  });
  server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  onCleanup(() => new Promise<void>((r) => { for (const s of sockets) s.destroy(); server.close(() => r()); }));
  return { url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, seen: () => seen };
}

/** `count` CPU-bound node processes, killed (by pid) by cleanup() or `stop`. */
export function cpuHogs(count: number): { stop(): void } {
  const hogs: ChildProcess[] = [];
  for (let i = 0; i < count; i++) hogs.push(spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
  const stop = () => { for (const h of hogs) if (h.exitCode === null && h.signalCode === null) h.kill('SIGKILL'); };
  onCleanup(stop);
  return { stop };
}
