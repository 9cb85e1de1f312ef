// Before any spec: the bin tools must be bundled (dist/) and the app built (out/ with sw.js).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

export default function globalSetup(): void {
  const root = path.resolve(__dirname, '..');
  if (!existsSync(path.join(root, 'dist', 'claim.cjs')) || !existsSync(path.join(root, 'dist', 'commandr.cjs'))) {
    execFileSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
  }
  if (!existsSync(path.join(root, 'out', 'index.html')) || !existsSync(path.join(root, 'out', 'sw.js'))) {
    throw new Error('The app is not built: run `node scripts/build-app.mjs` (next build + service worker) before Playwright.');
  }
}
