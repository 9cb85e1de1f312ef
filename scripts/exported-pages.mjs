// The build's steps over the exported app (compile hints, paint first, CSP hashes) each
// read or rewrite every page of the static export: this walks them.
import { readdirSync } from 'node:fs';
import path from 'node:path';

/** Every `.html` file under `dir`, depth first. */
export function* htmlFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* htmlFiles(full);
    else if (entry.isFile() && entry.name.endsWith('.html')) yield full;
  }
}
