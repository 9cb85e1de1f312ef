// Runs the configured transcriber (VOICE-5): the command line split on
// whitespace into argv — never through a shell — with the audio file last.
import { spawn } from 'node:child_process';
import { CommandrError } from '../../protocol/wire/errors';
import { InFlight } from '../in-flight';
import { groupEnded, signalGroup } from '../process-group';

export const TRANSCRIBE_TIMEOUT_MS = 60_000;
/** More text than any dictated note; a transcriber printing more is misbehaving. */
const MAX_OUTPUT_BYTES = 1024 * 1024;

/** The transcribers a relay runs: its close stops those still running, with what they started, and waits for their answers. */
export class Transcribers {
  private readonly inFlight = new InFlight();
  private readonly stops = new Set<() => void>();

  run(argv: string[], audioFile: string, timeoutMs = TRANSCRIBE_TIMEOUT_MS): Promise<string> {
    if (this.inFlight.closed) return Promise.reject(new CommandrError('E_UNAVAILABLE', 'the relay is stopping; send the recording again once it is back'));
    let stop = (): void => undefined;
    const done = runTranscriber(argv, audioFile, timeoutMs, (s) => (stop = s));
    this.stops.add(stop);
    this.inFlight.add(done.finally(() => this.stops.delete(stop)));
    return done;
  }

  async close(): Promise<void> {
    const settled = this.inFlight.close();
    for (const stop of this.stops) stop();
    await settled;
  }
}

/** `COMMANDR_TRANSCRIBE_CMD` as argv; empty when unset or blank. */
export function commandArgv(command: string | undefined): string[] {
  return (command ?? '').split(/\s+/).filter(Boolean);
}

/** Runs `argv… audioFile` and resolves with its stdout, trimmed; `started` is handed its stop. */
function runTranscriber(argv: string[], audioFile: string, timeoutMs: number, started: (stop: () => void) => void): Promise<string> {
  if (argv.length === 0) return Promise.reject(new CommandrError('E_UNAVAILABLE', 'no transcriber is configured on the relay (COMMANDR_TRANSCRIBE_CMD)'));
  return new Promise((resolve, reject) => {
    // Its own process group, so a stop reaches what it started too: a wrapper script's model run
    // holds the pipes, and a kill of the script alone would leave the request waiting on them.
    const child = spawn(argv[0], [...argv.slice(1), audioFile], { shell: false, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let relayStopped = false;
    started(() => {
      relayStopped = true;
      signalGroup(child.pid, 'SIGKILL');
    });
    const out: Buffer[] = [];
    let outBytes = 0;
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      signalGroup(child.pid, 'SIGKILL');
    }, timeoutMs);
    child.stdout.on('data', (b: Buffer) => {
      outBytes += b.length;
      if (outBytes > MAX_OUTPUT_BYTES) signalGroup(child.pid, 'SIGKILL');
      else out.push(b);
    });
    child.stderr.on('data', (b: Buffer) => {
      if (stderr.length < 2000) stderr += b.toString('utf8');
    });
    let settled = false;
    // Once the transcriber exited, whatever it left in its group goes, as for a job (process-group.ts).
    void groupEnded(child).then(({ code, signal }) => settle(code, signal));
    child.on('error', (error) => {
      clearTimeout(timer);
      settled = true;
      reject(new CommandrError('E_UNAVAILABLE', `the transcriber could not be started (${argv[0]}): ${error.message}`));
    });
    const settle = (code: number | null, signal: NodeJS.Signals | null): void => {
      if (settled) return;
      settled = true;
      child.stdout.destroy();
      child.stderr.destroy();
      clearTimeout(timer);
      if (relayStopped) return reject(new CommandrError('E_UNAVAILABLE', 'the relay stopped while transcribing; send the recording again once it is back'));
      if (timedOut) return reject(new CommandrError('E_INTERNAL', `the transcriber took longer than ${Math.round(timeoutMs / 1000)} s and was stopped`));
      if (outBytes > MAX_OUTPUT_BYTES) return reject(new CommandrError('E_INTERNAL', 'the transcriber printed more than 1 MiB'));
      if (code !== 0) {
        const why = stderr.trim().split('\n').pop() ?? '';
        return reject(new CommandrError('E_INTERNAL', `the transcriber failed (${signal ?? `exit ${code}`})${why ? `: ${why}` : ''}`));
      }
      resolve(Buffer.concat(out).toString('utf8').trim());
    };
  });
}
