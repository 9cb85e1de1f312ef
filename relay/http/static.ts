// Serves the built app (Next.js static export) from one directory (HTTP-n):
// `/task` → task.html, hashed `/_next/static/*` cached for a year, HTML and the
// service worker revalidated on every load, unknown routes get 404.html. Text
// assets are sent as the Brotli or gzip sibling built by scripts/precompress.mjs
// when the client accepts it (COLD-1); nothing is compressed per request.
import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import { DOCUMENT_ONLY_HEADERS } from './headers';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json; charset=utf-8', '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8', '.map': 'application/json; charset=utf-8', '.svg': 'image/svg+xml', '.png': 'image/png',
  '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.webp': 'image/webp', '.ico': 'image/x-icon', '.gif': 'image/gif',
  '.woff': 'font/woff', '.woff2': 'font/woff2', '.ttf': 'font/ttf', '.wasm': 'application/wasm',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.txt', '.svg', '.webmanifest', '.map', '.ico', '.wasm', '.xml']);
const ENCODINGS = [{ token: 'br', ext: '.br' }, { token: 'gzip', ext: '.gz' }] as const;
type Encoding = (typeof ENCODINGS)[number];
const IMMUTABLE = 'public, max-age=31536000, immutable';

export function cacheControlFor(urlPath: string): string {
  if (urlPath.startsWith('/_next/static/')) return IMMUTABLE;
  return 'no-cache';
}

/** The file a URL path names inside `root`, or undefined (also for any escape attempt). */
export function resolveAppFile(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined;
  const base = path.join(root, path.posix.normalize(decoded));
  if (base !== root && !base.startsWith(root + path.sep)) return undefined;
  const candidates = decoded.endsWith('/') ? [path.join(base, 'index.html')] : [base, `${base}.html`, path.join(base, 'index.html')];
  return candidates.find(isFile);
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

export function appIsBuilt(root: string): boolean {
  return isFile(path.join(root, 'index.html'));
}

export function serveStatic(root: string, req: http.IncomingMessage, res: http.ServerResponse, headers: http.OutgoingHttpHeaders): void {
  const urlPath = new URL(req.url ?? '/', 'http://relay').pathname;
  if (!appIsBuilt(root)) return sendNotBuilt(root, urlPath, res, headers);
  const file = resolveAppFile(root, urlPath);
  if (file && urlPath.startsWith('/_next/static/') && !file.endsWith('.html')) for (const name of DOCUMENT_ONLY_HEADERS) res.removeHeader(name);
  if (file) return sendFile(file, 200, cacheControlFor(urlPath), req, res, headers);
  const notFound = path.join(root, '404.html');
  if (isFile(notFound)) return sendFile(notFound, 404, 'no-cache', req, res, headers);
  res.writeHead(404, { ...headers, 'content-type': 'text/plain; charset=utf-8' });
  res.end('not found\n');
}

/** The q-value the client gives `token` in Accept-Encoding (0 when refused or absent). */
export function acceptQuality(header: string | string[] | undefined, token: string): number {
  const text = Array.isArray(header) ? header.join(',') : header ?? '';
  let star: number | undefined;
  for (const part of text.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean);
    const quality = q ? Number(q[1]) : 1;
    if (name === token) return Number.isFinite(quality) ? quality : 0;
    if (name === '*') star = Number.isFinite(quality) ? quality : 0;
  }
  return star ?? 0;
}

/** The precompressed sibling to send for `file`, if the client takes it and it is not stale. */
function pickEncoding(file: string, source: fs.Stats, req: http.IncomingMessage): { encoding: Encoding; stat: fs.Stats } | undefined {
  if (!COMPRESSIBLE.has(path.extname(file).toLowerCase())) return undefined;
  for (const encoding of ENCODINGS) {
    if (acceptQuality(req.headers['accept-encoding'], encoding.token) <= 0) continue;
    try {
      const stat = fs.statSync(file + encoding.ext);
      if (stat.isFile() && stat.mtimeMs >= source.mtimeMs) return { encoding, stat };
    } catch {
      // no sibling for this encoding
    }
  }
  return undefined;
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*');
}

function sendFile(file: string, status: number, cacheControl: string, req: http.IncomingMessage, res: http.ServerResponse, headers: http.OutgoingHttpHeaders): void {
  const st = fs.statSync(file);
  const chosen = pickEncoding(file, st, req);
  const tag = `${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}`;
  // One ETag per representation: a cache must not answer a gzip request with Brotli bytes.
  const etag = `W/"${tag}${chosen ? `-${chosen.encoding.token}` : ''}"`;
  const vary = COMPRESSIBLE.has(path.extname(file).toLowerCase()) ? { vary: 'Accept-Encoding' } : {};
  const common = { ...headers, ...vary, 'cache-control': cacheControl, etag };
  if (status === 200 && etagMatches(req.headers['if-none-match'], etag)) {
    res.writeHead(304, common);
    res.end();
    return;
  }
  const body = chosen ? file + chosen.encoding.ext : file;
  const size = chosen ? chosen.stat.size : st.size;
  res.writeHead(status, {
    ...common,
    'content-type': TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
    'content-length': size,
    ...(chosen ? { 'content-encoding': chosen.encoding.token } : {}),
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  fs.createReadStream(body).on('error', () => res.destroy()).pipe(res);
}

function sendNotBuilt(root: string, urlPath: string, res: http.ServerResponse, headers: http.OutgoingHttpHeaders): void {
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Commandr — app not built</title></head><body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem">
<h1>Commandr relay is running</h1>
<p>The phone app is not built yet, so there is nothing to show here.</p>
<p>Build it from the Commandr checkout (<code>npx next build</code>, which exports the app to <code>${escapeHtml(root)}</code>),
then reload this page. The relay's API and socket work already.</p></body></html>\n`;
  res.writeHead(urlPath === '/' ? 200 : 404, { ...headers, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
  res.end(page);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
