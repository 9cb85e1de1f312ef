// A commander's output (CMDR-OUT-n): every chunk gets the next seq number, goes to
// its log file, and the last `limit` bytes stay in memory so a client that was away
// can catch up with a `commander.output` read.
import * as fs from 'node:fs';
import { guardAgentText } from '../../protocol/commander-transcript';

export interface OutputChunk {
  seq: number;
  session: string | null;
  chunk: string;
}

export const OUTPUT_KEEP_BYTES = 64 * 1024;

export class OutputBuffer {
  private chunks: OutputChunk[] = [];
  private bytes = 0;
  private nextSeq = 0;
  /** Whether the log so far ends a line (an agent's next character then starts one). */
  private atLineStart = true;

  constructor(
    private readonly logFile: string,
    private readonly limit = OUTPUT_KEEP_BYTES,
  ) {}

  /** Seeds the memory from the log's tail (after a relay restart). */
  restoreFromLog(): void {
    let text: string;
    try {
      const fd = fs.openSync(this.logFile, 'r');
      try {
        const size = fs.fstatSync(fd).size;
        const start = Math.max(0, size - this.limit);
        const buffer = Buffer.alloc(size - start);
        fs.readSync(fd, buffer, 0, buffer.length, start);
        text = buffer.toString('utf8');
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      return;
    }
    if (text.length > 0) this.keep({ seq: this.nextSeq++, session: null, chunk: text });
    this.atLineStart = text.length === 0 || text.endsWith('\n');
  }

  /** Appends what the relay writes (the person's message, tool lines, notices), as it is. */
  append(session: string | null, chunk: string): OutputChunk {
    const entry = { seq: this.nextSeq++, session, chunk };
    fs.appendFileSync(this.logFile, chunk, { mode: 0o600 });
    this.keep(entry);
    if (chunk.length > 0) this.atLineStart = chunk.endsWith('\n');
    return entry;
  }

  /** Appends what the agent printed, guarded so it cannot pass for the relay's lines (CHAT-8). */
  appendAgent(session: string | null, chunk: string): OutputChunk {
    return this.append(session, guardAgentText(chunk, this.atLineStart));
  }

  /** Kept chunks with seq >= `from`. */
  since(from = 0): OutputChunk[] {
    return this.chunks.filter((c) => c.seq >= from);
  }

  get lastSeq(): number {
    return this.nextSeq - 1;
  }

  private keep(entry: OutputChunk): void {
    this.chunks.push(entry);
    this.bytes += Buffer.byteLength(entry.chunk);
    while (this.bytes > this.limit && this.chunks.length > 1) {
      const dropped = this.chunks.shift()!;
      this.bytes -= Buffer.byteLength(dropped.chunk);
    }
  }
}
