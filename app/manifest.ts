// The web app manifest (typed): installable, standalone, with regular and maskable icons.
import type { MetadataRoute } from 'next';

export const dynamic = 'force-static';

export default function manifest(): MetadataRoute.Manifest {
  return {
    name: 'Commandr',
    short_name: 'Commandr',
    description: 'Review and approve your coding agents’ work, leave them notes and command them from your phone.',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    background_color: '#0f1216',
    theme_color: '#1d5fd1',
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  };
}
