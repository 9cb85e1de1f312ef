// Registers the service worker (out/sw.js, built by scripts/build-app.mjs) with
// workbox-window and reports when a new version waits, so the shell can offer a reload
// (APP-14). workbox-window is imported only once the page's `load` event has fired, so
// its chunk is never part of the first screen's downloads (FASTPAIR-3).
//
// API:
//   registerServiceWorker(onUpdateReady: (apply: () => void) => void): void
//     apply() tells the waiting worker to take over (Workbox's messageSkipWaiting(), which
//     app/sw/sw.ts answers with skipWaiting()); the page reloads once the new worker controls it.

export function registerServiceWorker(onUpdateReady: (apply: () => void) => void): void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  if (process.env.NODE_ENV !== 'production') return;
  const start = async () => {
    const { Workbox } = await import(/* webpackChunkName: "workbox-window" */ 'workbox-window');
    const wb = new Workbox('/sw.js', { scope: '/' });
    // Workbox's documented update prompt: a new worker installed while another controls the page waits.
    wb.addEventListener('waiting', () => {
      onUpdateReady(() => {
        wb.addEventListener('controlling', () => location.reload());
        wb.messageSkipWaiting();
      });
    });
    // No worker = no offline shell; the app still works online.
    await wb.register();
  };
  const afterLoad = () => void start().catch(() => undefined);
  if (document.readyState === 'complete') afterLoad();
  else addEventListener('load', afterLoad, { once: true });
}
