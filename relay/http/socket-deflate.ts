// permessage-deflate for the relay's socket (COLD-2): large JSON frames (snapshots,
// event batches, diff chunks) cross a phone's network deflated, small ones are sent
// as they are. Memory per socket is bounded: no context is kept between messages
// and the window is small, so a thousand idle sockets hold no zlib history.
import type { PerMessageDeflateOptions } from 'ws';

/** Frames below this many bytes are not worth a deflate pass. */
export const DEFLATE_THRESHOLD_BYTES = 8 * 1024;

export const SOCKET_DEFLATE: PerMessageDeflateOptions = {
  threshold: DEFLATE_THRESHOLD_BYTES,
  serverNoContextTakeover: true,
  clientNoContextTakeover: true,
  // 2^13-byte window, memLevel 7: ~96 KiB of zlib state while a frame is being deflated.
  serverMaxWindowBits: 13,
  zlibDeflateOptions: { level: 6, memLevel: 7 },
  zlibInflateOptions: { chunkSize: 16 * 1024 },
  // At most this many frames are deflated at once across all sockets (the rest queue).
  concurrencyLimit: 4,
};
