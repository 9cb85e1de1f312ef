// A stand-in for OpenCode as a plugin host: a Node script that loads a generated plugin (an ES
// module, as OpenCode loads it) and calls its hooks in the order `opencode run` does for a turn of
// shell calls — busy, then each call's `tool.execute.before` and `.after`, then idle — and then
// disposes it and exits. The live-delivery tests and `bench/opencode-events.ts` drive the real
// plugin and hook with it where the real CLI cannot be made to start its hooks late or in a burst.
//
// `node <script> <plugin.mjs> <repo> <session> <calls> [gapMs] [go]`: call i runs
// `touch call-<i>.txt`; `gapMs` pauses after each hook call; with a `go` file the turn ends only
// once that file exists.
import * as fs from 'node:fs';
import * as path from 'node:path';

const SCRIPT = `
import { existsSync } from 'node:fs';
const [plugin, repo, session, calls, gapMs, go] = process.argv.slice(2);
const { Commandr } = await import(plugin);
const quiet = async () => {};
const hooks = await Commandr({ client: { app: { log: quiet }, tui: { showToast: quiet } }, directory: repo, worktree: repo });
const status = (type) => hooks.event({ event: { type: 'session.status', properties: { sessionID: session, status: { type } } } });
const pause = () => (Number(gapMs) > 0 ? new Promise((r) => setTimeout(r, Number(gapMs))) : undefined);
await status('busy');
for (let i = 1; i <= Number(calls); i++) {
  const input = { sessionID: session, callID: 'call-' + i, tool: 'bash' };
  const args = { command: 'touch call-' + i + '.txt' };
  await hooks['tool.execute.before'](input, { args });
  await pause();
  await hooks['tool.execute.after']({ ...input, args }, { output: '', metadata: { exit: 0 } });
  await pause();
}
while (go && !existsSync(go)) await new Promise((r) => setTimeout(r, 20));
await status('idle');
await hooks.dispose();
`;

/** Writes the host script into `dir` and returns its path (run it with `process.execPath`). */
export function writeOpenCodeHost(dir: string): string {
  const file = path.join(dir, 'opencode-host.mjs');
  fs.writeFileSync(file, SCRIPT);
  return file;
}
