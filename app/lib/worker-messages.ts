// What the pages and the service worker say to each other, declared once for both.
//   OUTBOX_SYNC_TAG — the Background Sync tag the worker flushes the outbox on
//   OUTBOX_CHANGED  — worker → pages: the outbox changed (re-read it)
//   CLOSE_SETTLED   — page → worker: close this settled request's notification ({ type, tag }, ASK-9)
export const OUTBOX_SYNC_TAG = 'commandr-outbox';
export const OUTBOX_CHANGED = 'commandr.outbox';
export const CLOSE_SETTLED = 'commandr.close-settled';
