'use client';
// A bottom sheet dialog: labelled, closes on Escape and on the backdrop, focuses its first control
// (or the one named by `focus`: the first field to fill, not a pre-filled one, ROOM-8).
import { useEffect, useId, useRef, type ReactNode } from 'react';

export function Sheet({ title, onClose, children, testId, focus }: { title: string; onClose: () => void; children: ReactNode; testId?: string; focus?: string }) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    ref.current?.querySelector<HTMLElement>(focus ?? 'input, textarea, select, button')?.focus();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      previous?.focus?.();
    };
  }, [onClose]); // eslint-disable-line react-hooks/exhaustive-deps -- `focus` matters on opening only
  return (
    <div className="sheet-backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div ref={ref} className="sheet" role="dialog" aria-modal="true" aria-labelledby={titleId} data-testid={testId}>
        <h2 id={titleId}>{title}</h2>
        {children}
      </div>
    </div>
  );
}
