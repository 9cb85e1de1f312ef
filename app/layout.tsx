// The root layout: static HTML shell (system fonts, colour scheme, manifest) around the client Shell.
import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { Shell } from './components/Shell';
import './globals.css';

export const metadata: Metadata = {
  title: 'Commandr',
  description: 'Review, approve, annotate and command your coding agents.',
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
      </body>
    </html>
  );
}
