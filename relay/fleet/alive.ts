// A link that goes silent (a machine that lost power, a NAT that dropped the flow)
// is ended by either side (FLEET-22): a ping every `ms`; no pong by the next one
// terminates the socket, so the home marks the machine offline and the member reconnects.
import type { WebSocket } from 'ws';

export function keepAlive(ws: WebSocket, ms: number): void {
  let alive = true;
  ws.on('pong', () => (alive = true));
  const timer = setInterval(() => {
    if (!alive) return ws.terminate();
    alive = false;
    ws.ping();
  }, ms);
  timer.unref();
  ws.once('close', () => clearInterval(timer));
}
