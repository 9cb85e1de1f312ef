// Runs the configured transcriber (VOICE-5): the command line split on
// whitespace into argv — never through a shell — with the audio file last.
import { spawn } from 'node:child_process';
import { CommandrError } from '../../protocol/wire/errors';

export const TRANSCRIBE_TIMEOUT_MS = 60_000;
/** More text than any dictated note; a transcriber printing more is misbehaving. */
const MAX_OUTPUT_BYTES = 1024 * 1024;

/** `COMMANDR_TRANSCRIBE_CMD` as argv; empty when unset or blank. */
export function commandArgv(command: string | undefined): string[] {
  return (command ?? '').split(/\s+/).filter(Boolean);
}

/** Runs `argv… audioFile` and resolves with its stdout, trimmed. */
export function runTranscriber(argv: string[], audioFile: string, timeoutMs = TRANSCRIBE_TIMEOUT_MS): Promise<string> {
  if (argv.length === 0) return Promise.reject(new CommandrError('E_UNAVAILABLE', 'no transcriber is configured on the relay (COMMANDR_TRANSCRIBE_CMD)'));
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], [...argv.slice(1), audioFile], { shell: false, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let outBytes = 0;
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout.on('data', (b: Buffer) => {
      outBytes += b.length;
      if (outBytes > MAX_OUTPUT_BYTES) child.kill('SIGKILL');
      else out.push(b);
    });
    child.stderr.on('data', (b: Buffer) => {
      if (stderr.length < 2000) stderr += b.toString('utf8');
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new CommandrError('E_UNAVAILABLE', `the transcriber could not be started (${argv[0]}): ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (timedOut) return reject(new CommandrError('E_INTERNAL', `the transcriber took longer than ${Math.round(timeoutMs / 1000)} s and was stopped`));
      if (outBytes > MAX_OUTPUT_BYTES) return reject(new CommandrError('E_INTERNAL', 'the transcriber printed more than 1 MiB'));
      if (code !== 0) {
        const why = stderr.trim().split('\n').pop() ?? '';
        return reject(new CommandrError('E_INTERNAL', `the transcriber failed (${signal ?? `exit ${code}`})${why ? `: ${why}` : ''}`));
      }
      resolve(Buffer.concat(out).toString('utf8').trim());
    });
  });
}
