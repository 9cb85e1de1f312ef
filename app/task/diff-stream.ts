// Assembles a streamed `task.diff` (begin, chunks by seq, end) into one patch (REVIEW-3).
// Pure, so the order rules are unit-tested without a socket.
import type { DiffSource, FileStat } from '../../protocol/bus/diff';
import type { ServerFrame } from '../../protocol/wire/frames';

export interface DiffAssembly {
  begun: boolean;
  done: boolean;
  digest: string | null;
  source: DiffSource;
  /** source commit: the committed change shown (TSTATE-3). */
  commit: { tip: string; base: string; branch: string; into?: string } | null;
  files: FileStat[];
  chunks: string[];
  expected: number | null;
}

export function emptyAssembly(): DiffAssembly {
  return { begun: false, done: false, digest: null, source: 'none', commit: null, files: [], chunks: [], expected: null };
}

export function assembleDiff(a: DiffAssembly, frame: ServerFrame): DiffAssembly {
  switch (frame.type) {
    case 'task.diff.begin':
      return { ...emptyAssembly(), begun: true, digest: frame.digest, source: frame.source, commit: frame.commit ?? null, files: frame.files as FileStat[] };
    case 'task.diff.chunk': {
      const chunks = a.chunks.slice();
      chunks[frame.seq] = frame.data;
      return { ...a, chunks };
    }
    case 'task.diff.end': {
      const complete = a.begun && a.chunks.length === frame.chunks && Array.from(a.chunks, (c) => typeof c === 'string').every(Boolean);
      return { ...a, expected: frame.chunks, done: complete };
    }
    default:
      return a;
  }
}
