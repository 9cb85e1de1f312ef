'use client';
// The app frame around every screen: starts the client core, sends unpaired visitors
// to Pair, and shows the header (connection badge), errors as sentences, the
// "new version" prompt and the bottom nav.
// The client core (socket, outbox, the wire's schemas) and the service worker's
// helper are separate chunks loaded after the first paint; a browser opening Pair
// without a device key never loads the client core at all (LAZY-1).
import { usePathname, useRouter } from 'next/navigation';
import { useEffect, useState, type ReactNode } from 'react';
import { loadDevice } from '../lib/device-key';
import { sentence } from '../lib/errors';
import { hydrateEarly } from '../lib/saved-state';
import { appStore, useRelay, type AppState } from '../lib/store';
import { Button } from './Button';
import { Prose } from './Prose';
import { ConnectionBadge } from './ConnectionBadge';
import Link from './Link';

/**
 * Each tab's icon (ROOM-5): inline SVG paths on a 24-unit grid, drawn with the text colour, so
 * they need no font or request and follow the tab's state. Decorative: the label names the tab.
 */
const ICONS = {
  // A tray with a slot: what came in.
  inbox: 'M3 13l2.5-8h13L21 13v6H3z M3 13h5l1.5 3h5l1.5-3h5',
  // Two speech bubbles: the conversations with the commanders.
  commanders: 'M4 5h11v8H8l-4 3z M15 9h5v8l-3-2.5h-6v-1.5',
  // A gear: a ring with teeth.
  settings: 'M12 9a3 3 0 1 0 0 6a3 3 0 1 0 0-6z M12 2v3 M12 19v3 M2 12h3 M19 12h3 M4.9 4.9l2.1 2.1 M17 17l2.1 2.1 M4.9 19.1L7 17 M17 7l2.1-2.1',
} as const;

const NAV = [
  { href: '/', label: 'Inbox', icon: ICONS.inbox },
  { href: '/commanders', label: 'Commanders', icon: ICONS.commanders },
  { href: '/settings', label: 'Settings', icon: ICONS.settings },
];

function NavIcon({ path }: { path: string }) {
  return (
    <svg className="nav-icon" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false"
      fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
      <path d={path} />
    </svg>
  );
}

/**
 * Off Pair, the client core is requested as this module runs, so its download overlaps
 * the start-up; it is started (and its schemas built, in steps: FIRST-7) once the frame
 * has mounted and the saved state is shown.
 */
const onPairPath = (path: string) => path === '/pair' || path === '/pair/';
const offPair = typeof window !== 'undefined' && !onPairPath(location.pathname);
const earlyCore = offPair ? import('../lib/client') : null;
// The saved state is read now too, and shown as soon as IndexedDB answers (FIRST-8).
if (offPair) void hydrateEarly(appStore);

const selectUnpaired = (s: AppState) => s.connection.state === 'unpaired';
const selectError = (s: AppState) => s.lastError;

export function Shell({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  const router = useRouter();
  const unpaired = useRelay(selectUnpaired);
  const error = useRelay(selectError);
  const [applyUpdate, setApplyUpdate] = useState<(() => void) | null>(null);
  const onPair = pathname === '/pair';

  useEffect(() => {
    void startCore(onPairPath(location.pathname));
    void import('../lib/sw-register').then(({ registerServiceWorker }) => registerServiceWorker((apply) => setApplyUpdate(() => apply)));
  }, []);
  useEffect(() => {
    if (unpaired && !onPair) router.replace(`/pair${location.hash}`);
  }, [unpaired, onPair, router]);

  return (
    <>
      <header className="shell-header">
        {parentOf(pathname) ? (
          <Link href={parentOf(pathname)!.href} className="shell-back" data-testid="back" aria-label={`Back to ${parentOf(pathname)!.label}`}>
            <span aria-hidden="true">‹</span> <span className="shell-back-label">{parentOf(pathname)!.label}</span>
          </Link>
        ) : (
          <p className="shell-title">Commandr</p>
        )}
        <ConnectionBadge />
      </header>
      {applyUpdate ? (
        <div className="card notice row" role="alert" data-testid="update-ready" style={{ margin: '8px 16px' }}>
          <span>A new version of the app is ready.</span>
          <Button variant="primary" onClick={applyUpdate}>Reload</Button>
        </div>
      ) : null}
      {error && !onPair ? (
        <div className="card notice row" data-tone="danger" role="alert" data-testid="app-error" style={{ margin: '8px 16px' }}>
          <span><Prose text={sentence(error)} /></span>
          <Button onClick={() => appStore.dispatch({ type: 'local.error', error: null })}>Dismiss</Button>
        </div>
      ) : null}
      <main className="shell-main">{unpaired && !onPair ? null : children}</main>
      {unpaired ? null : (
        <nav className="shell-nav" aria-label="Main">
          {NAV.map((item) => (
            <Link key={item.href} href={item.href} aria-current={isActive(pathname, item.href) ? 'page' : undefined} data-testid={`nav-${item.label.toLowerCase()}`}>
              <NavIcon path={item.icon} />
              <span className="nav-label">{item.label}</span>
            </Link>
          ))}
        </nav>
      )}
    </>
  );
}

/**
 * Starts the client core. On Pair, a browser without a device key is simply unpaired
 * (what the core would find too): the core is loaded only once it pairs. A device
 * with a key on Pair still connects, as anywhere else.
 */
async function startCore(onPair: boolean): Promise<void> {
  if (onPair && !(await loadDevice().catch(() => null))) {
    if (appStore.getState().connection.state === 'connecting') appStore.dispatch({ type: 'local.connection', state: 'unpaired' });
    return;
  }
  const { startClient } = await (earlyCore ?? import('../lib/client'));
  startClient();
}

/** Every detail screen has a way back to the list it came from (UX-10). */
function parentOf(pathname: string): { href: string; label: string } | null {
  if (pathname.startsWith('/task')) return { href: '/', label: 'Inbox' };
  if (pathname.startsWith('/commander') && !pathname.startsWith('/commanders')) return { href: '/commanders', label: 'Commanders' };
  return null;
}

function isActive(pathname: string, href: string): boolean {
  if (href === '/') return pathname === '/' || pathname.startsWith('/task');
  return pathname === href || pathname.startsWith(`${href.replace(/s$/, '')}`);
}
