// The MCP server's relay client shares the permission hook's long-poll (FAST-5): a relay that
// takes the connection but never acknowledges (stopped, hung) is given up on after the 4 s
// acknowledgement wait — the question's own timeout (here 10 minutes) is never waited out —
// and every request carries `ackBy`; a relay that acknowledges and answers later is waited for.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askRelay } from '../../adapters/mcp/relay-ask';
import type { QuestionAsk } from '../../protocol/wire/questions';

let home: string;
beforeAll(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'commandr-mcp-hung-'));
  fs.writeFileSync(path.join(home, 'hook-token'), 'x'.repeat(43));
});
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

const ask: QuestionAsk = { kind: 'question', key: 'q-00000000000000000000', task: 'T-1', cwd: '/tmp', question: 'Which one?', choices: ['a', 'b'], timeoutMs: 600_000 };

describe('the MCP relay client and a hung relay', () => {
  it('FAST-5: a relay that never sends headers is reported unavailable after the acknowledgement wait, and the ask carried ackBy', async () => {
    const bodies: string[] = [];
    const hung = net.createServer((socket) => socket.on('data', (d) => bodies.push(d.toString('utf8'))));
    await new Promise<void>((r) => hung.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(hung.address() as net.AddressInfo).port}`;
      const outcome = await askRelay(ask, { COMMANDR_HOME: home, COMMANDR_URL: url });
      expect(outcome).toMatchObject({ kind: 'unavailable', reason: expect.stringMatching(/did not answer within 4 s/) });
      const body = JSON.parse(bodies.join('').split('\r\n\r\n')[1]!) as { ackBy?: number; key: string };
      expect(body.key).toBe(ask.key);
      expect(typeof body.ackBy).toBe('number');
    } finally {
      await new Promise((r) => hung.close(r));
    }
  }, 20_000);

  it('FAST-5: a relay that acknowledges at once is waited for past the acknowledgement wait', async () => {
    const view = { id: ask.key, kind: 'question', status: 'answered' };
    const server = http.createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.flushHeaders();
      setTimeout(() => res.end(JSON.stringify({ request: view })), 4_500);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const outcome = await askRelay(ask, { COMMANDR_HOME: home, COMMANDR_URL: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}` });
      // The stand-in's view is not a whole QuestionView: what matters is that the answer was waited for and read.
      expect(outcome).toMatchObject({ kind: 'unavailable', reason: 'the relay answered something that is not a question result' });
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  }, 20_000);
});
