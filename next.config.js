// The PWA is a static export served by the relay on its own origin: no Next server
// at runtime, so no headers(), no image optimisation, no dynamic route segments.
process.env.NEXT_TELEMETRY_DISABLED = '1';

/** @type {import('next').NextConfig} */
module.exports = {
  output: 'export',
  images: { unoptimized: true },
  reactStrictMode: true,
  poweredByHeader: false,
  // Type checking is `npm run typecheck` (tsc over the whole repo); a separate
  // tsconfig keeps Next from rewriting the shared one.
  typescript: { ignoreBuildErrors: true, tsconfigPath: 'tsconfig.next.json' },
};
