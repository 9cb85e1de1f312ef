'use client';
// A link that moves inside the app without a page load, as next/link without
// prefetching does; a click with a modifier key, a middle click or a target is left
// to the browser. A few lines instead of next/link's 4 KB of script on the first
// screens (LAZY-2). `prefetch` is accepted for next/link's call sites and ignored:
// the app never prefetches.
import { useRouter } from 'next/navigation';
import type { AnchorHTMLAttributes } from 'react';

export default function Link({ href, onClick, prefetch: _prefetch, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string; prefetch?: boolean }) {
  const router = useRouter();
  return (
    <a href={href} {...rest} onClick={(e) => {
      onClick?.(e);
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || rest.target) return;
      e.preventDefault();
      router.push(href);
    }} />
  );
}
