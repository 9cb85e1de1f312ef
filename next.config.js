// The PWA is a static export served by the relay on its own origin: no Next server
// at runtime, so no headers(), no image optimisation, no dynamic route segments.
process.env.NEXT_TELEMETRY_DISABLED = '1';

/** @type {import('next').NextConfig} */
module.exports = {
  output: 'export',
  images: { unoptimized: true },
  reactStrictMode: true,
  poweredByHeader: false,
  // The stylesheet goes into the exported HTML as a <style> element (the relay's CSP allows
  // inline styles, CSP-2 is about scripts): the first paint waits for no request but the page (FIRST-1).
  experimental: { inlineCss: true },
  // Type checking is `npm run typecheck` (tsc over the whole repo); a separate
  // tsconfig keeps Next from rewriting the shared one.
  typescript: { ignoreBuildErrors: true, tsconfigPath: 'tsconfig.next.json' },
  // The small modules the app frame (app/components/Shell.tsx) needs on every screen go
  // in one chunk of their own. Under webpack's 20 KB split threshold they were copied
  // into the layout's chunk AND each page's, so the Pair screen downloaded them twice (LAZY-1).
  webpack(config, { isServer, dev }) {
    const split = config.optimization && config.optimization.splitChunks;
    if (!isServer && !dev && split && split.cacheGroups) {
      split.cacheGroups.appFrame = {
        name: 'app-frame',
        chunks: 'all',
        enforce: true,
        priority: 20,
        test: /[\\/]app[\\/](lib[\\/](store|errors|device-key|db|synced)\.ts|components[\\/](Button|ConnectionBadge|Link)\.tsx)$|[\\/]node_modules[\\/]idb[\\/]/,
      };
      // The client core and the wire's schemas (zod) that the frame loads after the first
      // paint: one download, not a dozen small ones. Its modules still run only when
      // imported, the schemas in steps (app/lib/wire-schema.ts, FIRST-7).
      // Whatever client.ts imports must be here, in app-frame, or in the layout's own chunk:
      // a page's act() imports the core through its own chunk graph, and a module split into
      // a chunk the frame never loaded is fetched on the first tap, which fails offline (APP-4).
      split.cacheGroups.clientCore = {
        name: 'client-core',
        chunks: 'async',
        enforce: true,
        priority: 10,
        test: /[\\/]app[\\/]lib[\\/](client|socket|outbox|sign|wire-schema|pairing|worker-messages)\.ts$|[\\/]protocol[\\/]|[\\/]node_modules[\\/]zod[\\/]/,
      };
    }
    return config;
  },
};
