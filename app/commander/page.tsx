// `/commander?id=<id>`: one commander's conversation (CMDR-UI-3..5).
import { Suspense } from 'react';
import { CommanderScreen } from './CommanderScreen';

export default function CommanderPage() {
  return (
    <Suspense fallback={<p className="muted">Loading the commander…</p>}>
      <CommanderScreen />
    </Suspense>
  );
}
