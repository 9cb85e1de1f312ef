// The task body renderer never lets raw HTML or script links through (REVIEW-2).
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown';

describe('renderMarkdown', () => {
  it('REVIEW-2: markdown renders; raw HTML is shown as text, never as markup', () => {
    const html = renderMarkdown('# Title\n\nSome **bold** text.\n\n<script>alert(1)</script>\n\nInline <img src=x onerror=alert(1)> here');
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('REVIEW-2: only http(s), mailto and relative links become links; images are not fetched', () => {
    const html = renderMarkdown('[ok](https://example.com) [bad](javascript:alert(1)) [rel](docs/a.md) ![alt](https://t.example/x.png)');
    expect(html).toContain('<a href="https://example.com"');
    expect(html).toContain('<a href="docs/a.md"');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('bad');
    expect(html).not.toContain('<img');
    expect(html).toContain('[image: alt]');
  });

  it('CSP-1: filter evasions that the browser would follow as javascript:, data: or vbscript: are not links', () => {
    for (const href of ['java\tscript:alert(1)', '\u0001javascript:alert(1)', ' JaVaScRiPt:alert(1)', 'java\nscript:alert(1)', 'data:text/html,x', 'vbscript:x', 'java&#9;script:x']) {
      const html = renderMarkdown(`[x](<${href}>)`);
      const anchor = /<a href="([^"]*)"/.exec(html);
      if (anchor) expect(['http:', 'https:', 'mailto:'], href).toContain(new URL(anchor[1]!.replace(/&amp;/g, '&'), 'http://relay.test/').protocol);
    }
    expect(renderMarkdown('[m](mailto:a@example.com)')).toContain('<a href="mailto:a@example.com"');
  });
});
