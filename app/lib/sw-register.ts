// Registers the service worker (out/sw.js, built by scripts/build-app.mjs) and reports
// when a new version waits, so the shell can offer a reload. Plain
// `navigator.serviceWorker` rather than workbox-window: the same flow in a fraction
// of the bytes every screen downloads (FIRST-2).
//
// API:
//   registerServiceWorker(onUpdateReady: (apply: () => void) => void): void
//     apply() tells the waiting worker to take over (app/sw/sw.ts answers SKIP_WAITING);
//     the page reloads once the new worker controls it.

export function registerServiceWorker(onUpdateReady: (apply: () => void) => void): void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  if (process.env.NODE_ENV !== 'production') return;
  const container = navigator.serviceWorker;
  let offered = false;
  const offer = (waiting: ServiceWorker) => {
    // A worker waiting while another controls this page is a new version; the first install is not.
    if (offered || !container.controller) return;
    offered = true;
    onUpdateReady(() => {
      container.addEventListener('controllerchange', () => location.reload(), { once: true });
      waiting.postMessage({ type: 'SKIP_WAITING' });
    });
  };
  const watch = (reg: ServiceWorkerRegistration) => {
    if (reg.waiting) offer(reg.waiting);
    reg.addEventListener('updatefound', () => {
      const installing = reg.installing;
      installing?.addEventListener('statechange', () => {
        if (installing.state === 'installed') offer(installing);
      });
    });
  };
  // After the page's own load, as workbox-window does: the worker's precache never competes with the first screen.
  // No worker = no offline shell; the app still works online.
  const register = () => void container.register('/sw.js', { scope: '/' }).then(watch, () => undefined);
  if (document.readyState === 'complete') register();
  else addEventListener('load', register, { once: true });
}
