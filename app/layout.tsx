// The root layout: static HTML shell (system fonts, colour scheme, manifest) around the client Shell.
import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { PairFirst } from './components/PairFirst';
import { Shell } from './components/Shell';
import './globals.css';

export const metadata: Metadata = {
  title: 'Commandr',
  description: 'Review and approve your coding agents’ work, leave them notes and command them.',
  applicationName: 'Commandr',
  appleWebApp: { capable: true, title: 'Commandr', statusBarStyle: 'default' },
  icons: { icon: '/icons/icon-192.png', apple: '/icons/icon-192.png' },
};

export const viewport: Viewport = {
  width: 'device-width',
  initialScale: 1,
  viewportFit: 'cover',
  themeColor: [
    { media: '(prefers-color-scheme: light)', color: '#ffffff' },
    { media: '(prefers-color-scheme: dark)', color: '#181c22' },
  ],
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Shell>{children}</Shell>
        {/* Keeps the paired mark the exported pages read before their first paint true to the device key (FASTPAIR-2). */}
        <PairFirst />
      </body>
    </html>
  );
}
