// Every size limit of the relay and its followers, declared once (LIMIT-n; SPEC §3
// "Limits"). The relay, the bus follower and the app import these numbers.

/** An `events.jsonl` line longer than this (bytes, without its newline) is skipped with one warning. */
export const MAX_LOG_LINE_BYTES = 1024 * 1024;
/** A string field of a bus event is shown up to this many UTF-8 bytes; the rest is on demand (`task.note`). */
export const SHOWN_FIELD_BYTES = 2048;
/** Largest frame the relay sends (bytes of JSON text). */
export const MAX_SERVER_FRAME_BYTES = 4 * 1024 * 1024;
/** The follower reads the log in pieces of this many bytes (never a whole range at once). */
export const LOG_READ_CHUNK_BYTES = 1024 * 1024;
