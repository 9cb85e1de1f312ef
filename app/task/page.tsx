// `/task?repo=<repoId>&id=<taskId>`: one task's review screen. Query strings, not
// route segments, because the app is a static export (no server at runtime).
import { Suspense } from 'react';
import { TaskScreen } from './TaskScreen';

export default function TaskPage() {
  return (
    <Suspense fallback={<p className="muted">Loading the task…</p>}>
      <TaskScreen />
    </Suspense>
  );
}
