// A task body as HTML (REVIEW-2): marked for the markdown, raw HTML shown as
// text (escaped), links only to http(s)/mailto targets (CSP-1: every href is
// parsed as the browser would, so `java\tscript:` and friends cannot slip through),
// no images fetched from anywhere (their alt text is shown instead).
import { Marked } from 'marked';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

const ALLOWED_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/**
 * The href to emit, or null. The URL parser strips what browsers strip (tabs,
 * newlines, leading control characters and spaces) and lowercases the scheme, so
 * the check sees the scheme the browser will follow: the browser parses the same
 * text (HTML-escaped, so no entity can change it) with the same parser. A relative
 * link keeps the page's own protocol whatever its base, so it stays relative.
 */
export function safeHref(href: string): string | null {
  const base = typeof location === 'undefined' ? 'http://relay.invalid' : location.origin;
  let url: URL;
  try {
    url = new URL(href, base);
  } catch {
    return null;
  }
  return ALLOWED_PROTOCOLS.has(url.protocol) ? href.trim() : null;
}

const marked = new Marked({
  gfm: true,
  async: false,
  renderer: {
    html({ text }) {
      return escapeHtml(text);
    },
    link({ href, title, tokens }) {
      const inner = this.parser.parseInline(tokens);
      const safe = safeHref(href);
      if (safe === null) return inner;
      const t = title ? ` title="${escapeHtml(title)}"` : '';
      return `<a href="${escapeHtml(safe)}"${t} rel="noopener noreferrer" target="_blank">${inner}</a>`;
    },
    image({ text }) {
      return `<span class="md-image">[image: ${escapeHtml(text)}]</span>`;
    },
  },
});

export function renderMarkdown(source: string): string {
  return marked.parse(source) as string;
}
