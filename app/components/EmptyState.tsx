// What a list says when it has nothing to show: a sentence, never a blank screen.
import type { ReactNode } from 'react';

export function EmptyState({ title, children, testId }: { title: string; children?: ReactNode; testId?: string }) {
  return (
    <div className="empty" data-testid={testId ?? 'empty-state'}>
      <p><strong>{title}</strong></p>
      {children ? <p>{children}</p> : null}
    </div>
  );
}
