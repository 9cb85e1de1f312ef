// A task body as HTML (REVIEW-2): marked for the markdown, raw HTML shown as
// text (escaped), links only to http(s)/mailto/relative targets, no images
// fetched from anywhere (their alt text is shown instead).
import { Marked } from 'marked';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

function safeHref(href: string): string | null {
  const trimmed = href.trim();
  if (/^(https?:|mailto:)/i.test(trimmed)) return trimmed;
  // Relative links and anchors; nothing with another scheme (javascript:, data:, …).
  if (!/^[a-z][a-z0-9+.-]*:/i.test(trimmed)) return trimmed;
  return null;
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
