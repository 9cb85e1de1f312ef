// A `claude` executable that prints what the real Claude Code 2.1.332 printed when not logged in
// (recorded in test/jobs/recorded/, never edited), until `<dir>/logged-in` exists; then it answers
// one successful turn. Shared by the relay's failure tests and the phone's (RUNFAIL-n).
import * as fs from 'node:fs';
import * as path from 'node:path';

export const RECORDED_NOT_LOGGED_IN = path.join(__dirname, '..', 'jobs', 'recorded', 'claude-not-logged-in.stream-json');

/** Writes `<dir>/bin/claude` and returns its path; `touch <dir>/logged-in` logs it in. */
export function loggedOutClaude(dir: string): string {
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin, { recursive: true });
  fs.copyFileSync(RECORDED_NOT_LOGGED_IN, path.join(bin, 'not-logged-in.jsonl'));
  const file = path.join(bin, 'claude');
  fs.writeFileSync(file, [
    '#!/bin/sh',
    'if [ "$1" = "--version" ]; then echo "2.1.332 (Claude Code)"; exit 0; fi',
    `if [ -f "${dir}/logged-in" ]; then`,
    `  echo '{"type":"system","subtype":"init","session_id":"00000000-0000-4000-8000-000000000001"}'`,
    `  echo '{"type":"result","subtype":"success","is_error":false,"result":"All done.","session_id":"00000000-0000-4000-8000-000000000001"}'`,
    '  exit 0',
    'fi',
    `cat "${bin}/not-logged-in.jsonl"`,
    'exit 1',
    '',
  ].join('\n'), { mode: 0o755 });
  return file;
}
