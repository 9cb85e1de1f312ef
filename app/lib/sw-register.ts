// Registers the service worker (out/sw.js, built by scripts/build-app.mjs) with
// workbox-window and reports when a new version waits, so the shell can offer a reload.
//
// API:
//   registerServiceWorker(onUpdateReady: (apply: () => void) => void): void
//     apply() tells the waiting worker to take over; the page reloads once it controls.
import { Workbox } from 'workbox-window';

export function registerServiceWorker(onUpdateReady: (apply: () => void) => void): void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  if (process.env.NODE_ENV !== 'production') return;
  const wb = new Workbox('/sw.js', { scope: '/' });
  wb.addEventListener('waiting', () => {
    onUpdateReady(() => {
      wb.addEventListener('controlling', () => location.reload());
      wb.messageSkipWaiting();
    });
  });
  void wb.register().catch(() => undefined); // no worker = no offline shell; the app still works online
}
