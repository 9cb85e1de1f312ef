// Placeholder: the push engineer [G] replaces this file with the real push and
// notificationclick handlers. Kept so the worker builds before that lands.
export function installPushHandlers(_self: ServiceWorkerGlobalScope): void {
  /* no-op until [G]'s push handlers land */
}
