// One Inbox group: a heading with its count and its task cards, each with a quick
// note inside the card (not for done tasks; the Done group starts folded).
import type { RepoInfo, TaskSummary } from '../../protocol/wire/views';
import type { GroupKey } from '../lib/inbox';
import { TaskCard } from './TaskCard';

export function InboxGroup({ group, repos, showRepo, onNote }: {
  group: { key: GroupKey; title: string; tasks: TaskSummary[] };
  repos: Record<string, RepoInfo>;
  showRepo: boolean;
  onNote: (task: TaskSummary) => void;
}) {
  const heading = `${group.title} (${group.tasks.length})`;
  const list = (
    <ul className="stack" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {group.tasks.map((task) => (
        <li key={`${task.repo}/${task.id}`}>
          <TaskCard task={task} repoName={showRepo ? repos[task.repo]?.name : undefined} onNote={group.key !== 'done' ? onNote : undefined} />
        </li>
      ))}
    </ul>
  );
  return (
    <section data-testid={`group-${group.key}`} aria-label={group.title}>
      {group.key === 'done' ? (
        <details>
          <summary className="group-title" style={{ minHeight: 44, display: 'flex', alignItems: 'center' }}>{heading}</summary>
          {list}
        </details>
      ) : (
        <>
          <h2 className="group-title">{heading}</h2>
          {list}
        </>
      )}
    </section>
  );
}
